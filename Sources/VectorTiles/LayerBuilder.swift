/// The growing arrays of one layer while it is decoded; frozen into `VectorTileLayerStorage` at the end.
struct LayerBuilder {
  var keys: [String] = []
  var values: [VectorTileValue] = []
  var tags: [UInt32] = []
  var points: [VectorTilePoint] = []
  var partEnds: [Int] = []
  var polygonEnds: [Int] = []
  var droppedParts = 0
  /// How many vertices this layer may hold: what the tile-wide limit leaves after earlier layers.
  let pointBudget: Int

  init(pointBudget: Int) {
    self.pointBudget = pointBudget
  }

  /// Throws before `count` more vertices would pass the point budget.
  func checkRoom(forPoints count: Int, offset: Int) throws(VectorTileError) {
    guard count <= pointBudget - points.count else {
      throw VectorTileError(.tooMany(.points, limit: VectorTileLimits.maximumPointCount), offset: offset)
    }
  }

  /// Forgets the vertices of a degenerate part that started at `start`.
  mutating func dropPart(from start: Int) {
    points.removeLast(points.count - start)
    droppedParts += 1
  }

  func storage() -> VectorTileLayerStorage {
    VectorTileLayerStorage(
      keys: keys, values: values, tags: tags, points: points, partEnds: partEnds, polygonEnds: polygonEnds)
  }
}
