/// Everything one decoded layer holds, in flat arrays shared by all its features: a whole layer costs a
/// handful of allocations however many features and rings it has.
final class VectorTileLayerStorage: Sendable {
  let keys: [String]
  let values: [VectorTileValue]
  /// Key and value indices of all features, in pairs, already checked against `keys` and `values`.
  let tags: [UInt32]
  let points: [VectorTilePoint]
  /// For each part (line, ring or point group), the index in `points` where it ends.
  let partEnds: [Int]
  /// For each polygon, the index in `partEnds` where its rings end.
  let polygonEnds: [Int]

  init(
    keys: [String], values: [VectorTileValue], tags: [UInt32], points: [VectorTilePoint], partEnds: [Int],
    polygonEnds: [Int]
  ) {
    self.keys = keys
    self.values = values
    self.tags = tags
    self.points = points
    self.partEnds = partEnds
    self.polygonEnds = polygonEnds
  }

  /// Where part `index` begins in `points` (its predecessor's end).
  func partStart(_ index: Int) -> Int { index == 0 ? 0 : partEnds[index - 1] }
}
