import MapMath

/// The part of an ancestor tile that covers a deeper tile: to draw the deeper tile when the source has no
/// such zoom, enlarge this square of the ancestor by `2^(zoom difference)`.
public struct AncestorSection: Hashable, Sendable {
  /// The tile to fetch.
  public let ancestor: TileID
  /// The tile being drawn.
  public let tile: TileID
  /// How many zoom levels `tile` lies below `ancestor` (0: the section is the whole ancestor).
  public var zoomDifference: Int { tile.z - ancestor.z }
  /// Left edge, top edge and side of the section, as fractions of the ancestor tile (side = 2^−difference).
  public var unitRect: (x: Double, y: Double, side: Double) {
    let count = 1 << zoomDifference
    let side = 1 / Double(count)
    return (Double(tile.x - ancestor.x * count) * side, Double(tile.y - ancestor.y * count) * side, side)
  }

  /// The section in pixels of an ancestor image `tileSize` pixels wide (fractional when it is deep).
  public func pixelRect(tileSize: Int) -> (x: Double, y: Double, side: Double) {
    let unit = unitRect
    let size = Double(tileSize)
    return (unit.x * size, unit.y * size, unit.side * size)
  }
}

extension TileID {
  /// The ancestor of this tile at `zoom` (0 ≤ zoom ≤ z) and the part of it this tile covers; nil for any
  /// other zoom. At `zoom == z` the ancestor is the tile itself.
  public func ancestorSection(atZoom zoom: Int) -> AncestorSection? {
    guard zoom >= 0, zoom <= z else { return nil }
    let shift = z - zoom
    let ancestor = TileID(z: zoom, x: x >> shift, y: y >> shift)!
    return AncestorSection(ancestor: ancestor, tile: self)
  }
}
