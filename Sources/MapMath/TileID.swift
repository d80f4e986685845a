/// One slippy-map tile in XYZ numbering (y = 0 at the north edge).
public struct TileID: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let z: Int
  public let x: Int
  public let y: Int

  /// A tile id; nil unless 0 ≤ z ≤ 30 and x, y lie inside the 2^z × 2^z grid.
  public init?(z: Int, x: Int, y: Int) {
    guard (0...30).contains(z) else { return nil }
    let count = 1 << z
    guard (0..<count).contains(x), (0..<count).contains(y) else { return nil }
    self.z = z
    self.x = x
    self.y = y
  }

  /// The tile at zoom `z` (clamped to 0…30) containing a world point; x wraps around the world, y is
  /// clamped to the grid (a coordinate that is not a number gives column or row 0).
  public init(containing point: WorldPoint, zoom: Int) {
    let z = min(max(zoom, 0), 30)
    let count = 1 << z
    let scaled = Double(count)
    var x = clampedInteger((point.x * scaled).rounded(.down), in: -(1 << 52)...(1 << 52)) % count
    if x < 0 { x += count }
    let y = clampedInteger((point.y * scaled).rounded(.down), in: 0...(count - 1))
    self.z = z
    self.x = x
    self.y = y
  }

  /// Tiles per side at this zoom.
  public var gridSize: Int { 1 << z }

  /// The MBTiles (TMS) row of this tile: rows count from the south edge.
  public var tmsRow: Int { gridSize - 1 - y }

  /// North-west corner of the tile in world space.
  public var origin: WorldPoint {
    WorldPoint(x: Double(x) / Double(gridSize), y: Double(y) / Double(gridSize))
  }

  /// The tile one zoom out that contains this one.
  public var parent: TileID? {
    z == 0 ? nil : TileID(z: z - 1, x: x >> 1, y: y >> 1)
  }

  public static func < (a: TileID, b: TileID) -> Bool {
    (a.z, a.y, a.x) < (b.z, b.y, b.x)
  }

  public var description: String { "\(z)/\(x)/\(y)" }
}
