import MapMath

/// PMTiles numbers tiles along a Hilbert curve per zoom, zoom after zoom: zoom z starts at
/// (4^z − 1) / 3, the count of all tiles above it.
extension TileID {
  /// The tile's PMTiles id.
  public var pmtilesID: UInt64 {
    let side = UInt64(1) << UInt64(z)
    var x = UInt64(x)
    var y = UInt64(y)
    var distance: UInt64 = 0
    var half = side / 2
    while half > 0 {
      let right: UInt64 = x & half > 0 ? 1 : 0
      let lower: UInt64 = y & half > 0 ? 1 : 0
      distance += half * half * ((3 * right) ^ lower)
      Self.rotate(side, &x, &y, right, lower)
      half /= 2
    }
    return Self.firstPMTilesID(zoom: z) + distance
  }

  /// The tile with PMTiles id `id`, or nil past zoom 30 (the deepest `TileID` holds).
  public init?(pmtilesID id: UInt64) {
    var z = 0
    while z < 30, id >= Self.firstPMTilesID(zoom: z + 1) { z += 1 }
    let side = UInt64(1) << UInt64(z)
    var distance = id - Self.firstPMTilesID(zoom: z)
    guard distance < side * side else { return nil }
    var x: UInt64 = 0
    var y: UInt64 = 0
    var size: UInt64 = 1
    while size < side {
      let right = 1 & (distance / 2)
      let lower = 1 & (distance ^ right)
      Self.rotate(size, &x, &y, right, lower)
      x += size * right
      y += size * lower
      distance /= 4
      size *= 2
    }
    self.init(z: z, x: Int(x), y: Int(y))
  }

  private static func firstPMTilesID(zoom: Int) -> UInt64 {
    ((UInt64(1) << UInt64(2 * zoom)) - 1) / 3
  }

  /// Turns a quadrant so the curve's next level runs the right way round.
  private static func rotate(
    _ size: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ right: UInt64, _ lower: UInt64
  ) {
    guard lower == 0 else { return }
    if right == 1 {
      x = size - 1 - x
      y = size - 1 - y
    }
    swap(&x, &y)
  }
}
