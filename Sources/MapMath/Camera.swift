#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a finished map shows: a centre, a zoom (possibly fractional), an image size in points and a scale.
///
/// Pixel conventions are ARCHITECTURE.md §3: the image is `size × scale` pixels, (0, 0) is its top-left corner.
public struct Camera: Hashable, Sendable {
  public var center: Coordinate
  public var zoom: Double
  /// Image size in points; the image has `size.width × scale` by `size.height × scale` pixels.
  public var size: PixelSize
  public var scale: Double

  public init(center: Coordinate, zoom: Double, size: PixelSize, scale: Double = 1) {
    self.center = center
    self.zoom = zoom
    self.size = size
    self.scale = scale
  }

  /// The image size in pixels.
  public var pixelSize: PixelSize {
    PixelSize(width: size.width * scale, height: size.height * scale)
  }

  /// Pixels across the whole world at this zoom and scale.
  public var worldPixels: Double { 256 * pow(2, zoom) * scale }

  public var centerWorld: WorldPoint { WebMercator.project(center) }

  /// The pixel of a world point, taken in the world copy nearest to the centre.
  public func pixel(for point: WorldPoint) -> PixelPoint {
    let c = centerWorld
    let p = point.nearestCopy(to: c.x)
    return PixelPoint(
      x: pixelSize.width / 2 + (p.x - c.x) * worldPixels,
      y: pixelSize.height / 2 + (p.y - c.y) * worldPixels)
  }

  /// The pixel of a coordinate (ARCHITECTURE.md §3).
  public func pixel(for coordinate: Coordinate) -> PixelPoint {
    pixel(for: WebMercator.project(coordinate))
  }

  /// The world point under a pixel; `x` is unwrapped around the centre's world copy.
  public func worldPoint(atPixel pixel: PixelPoint) -> WorldPoint {
    let c = centerWorld
    return WorldPoint(
      x: c.x + (pixel.x - pixelSize.width / 2) / worldPixels,
      y: c.y + (pixel.y - pixelSize.height / 2) / worldPixels)
  }

  public func coordinate(atPixel pixel: PixelPoint) -> Coordinate {
    let point = worldPoint(atPixel: pixel)
    return WebMercator.unproject(WorldPoint(x: point.x, y: min(max(point.y, 0), 1)))
  }

  /// The geographic box the image shows (latitudes clamped to the Mercator world).
  public var bounds: GeoBox {
    let topLeft = worldPoint(atPixel: PixelPoint(x: 0, y: 0))
    let bottomRight = worldPoint(atPixel: PixelPoint(x: pixelSize.width, y: pixelSize.height))
    let north = WebMercator.unproject(WorldPoint(x: 0, y: max(topLeft.y, 0))).latitude
    let south = WebMercator.unproject(WorldPoint(x: 0, y: min(bottomRight.y, 1))).latitude
    if bottomRight.x - topLeft.x >= 1 {
      return GeoBox(north: north, south: south, west: -180, east: 180)
    }
    return GeoBox(
      north: north, south: south,
      west: normalizedLongitude(topLeft.x * 360 - 180),
      east: normalizedLongitude(bottomRight.x * 360 - 180))
  }

  /// The tile zoom that draws crisply at this camera for tiles of `tileSize` pixels: the smallest whole zoom
  /// whose tiles are drawn no larger than their own pixel size, kept inside the source's zoom range. Total:
  /// a tile size of 0 gives the top of the range, a negative one or a camera that is not a number the
  /// bottom.
  public func tileZoom(tileSize: Int = 256, available: ClosedRange<Int> = 0...30) -> Int {
    let ideal = zoom + log2(scale * 256 / Double(tileSize))
    return clampedInteger((ideal - 1e-9).rounded(.up), in: available)
  }

  /// The tiles of zoom `tileZoom` that cover the image.
  public func tileRange(tileZoom: Int) -> TileRange {
    TileRange(
      zoom: tileZoom,
      covering: worldPoint(atPixel: PixelPoint(x: 0, y: 0)),
      worldPoint(atPixel: PixelPoint(x: pixelSize.width, y: pixelSize.height)))
  }

  /// Where a placed tile lands in the image, in pixels (a tile of zoom `placement.tile.z`).
  public func pixelRect(for placement: TileRange.Placement) -> PixelRect {
    let count = Double(placement.tile.gridSize)
    let c = centerWorld
    let side = worldPixels / count
    let left = pixelSize.width / 2 + (Double(placement.column) / count - c.x) * worldPixels
    let top = pixelSize.height / 2 + (Double(placement.tile.y) / count - c.y) * worldPixels
    return PixelRect(x: left, y: top, width: side, height: side)
  }
}
