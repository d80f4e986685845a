import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension RenderRequest {
  /// When the request fixes the camera (a centre and a zoom, no span), the box in which a place can show
  /// on it: the image and `margin` points around it (a marker's reach); nil when the camera is fitted to
  /// the places. A caller holding many places reads only those in it, so that the cost of a render grows
  /// with the places in view. Latitudes past the Mercator world's edge count as on it.
  public func fixedViewBox(margin: Double = 64) -> GeoBox? {
    guard let center, let zoom, spanMeters == nil, zoom.isFinite else { return nil }
    let grown = PixelSize(width: size.width + 2 * margin, height: size.height + 2 * margin)
    // An image taller than the world shows it all, its centre moved to the equator (`Camera.fitting`).
    guard size.height / 2 / (256 * pow(2, zoom)) < 0.5 else {
      let width = Camera(center: center, zoom: zoom, size: grown).bounds
      return GeoBox(north: 90, south: -90, west: width.west, east: width.east)
    }
    let box = Camera(center: center, zoom: zoom, size: grown).bounds
    let edge = WebMercator.maxLatitude - 1e-9
    return GeoBox(
      north: box.north >= edge ? 90 : box.north, south: box.south <= -edge ? -90 : box.south, west: box.west,
      east: box.east)
  }
}
