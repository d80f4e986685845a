#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A position in Web Mercator world space: `x` and `y` in [0, 1] for the whole world, y grows southwards.
///
/// `x` may leave [0, 1] when a point is unwrapped into a neighbouring world copy (for the short way across
/// the 180° meridian).
public struct WorldPoint: Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The same point moved by whole worlds so that it lies nearest to `reference` horizontally.
  public func nearestCopy(to reference: Double) -> WorldPoint {
    WorldPoint(x: x - (x - reference).rounded(), y: y)
  }
}

/// Web Mercator (EPSG:3857) projection, ARCHITECTURE.md §3.
public enum WebMercator {
  /// Latitudes beyond this are clamped: the square world of 256-pixel tiles ends here.
  public static let maxLatitude = 85.051_128_779_806_59
  /// WGS84 equatorial radius in metres, the sphere of Web Mercator.
  public static let earthRadius = 6_378_137.0
  /// Metres along the equator for one degree of longitude.
  public static let metersPerDegree = 2 * Double.pi * earthRadius / 360

  public static func clampLatitude(_ latitude: Double) -> Double {
    min(max(latitude, -maxLatitude), maxLatitude)
  }

  /// Projects a coordinate to world space. Latitudes are clamped to ±`maxLatitude`.
  public static func project(_ coordinate: Coordinate) -> WorldPoint {
    let phi = clampLatitude(coordinate.latitude) * .pi / 180
    let x = (coordinate.longitude + 180) / 360
    let y = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2
    return WorldPoint(x: x, y: y)
  }

  /// The inverse of `project`; the longitude is wrapped into [-180, 180).
  public static func unproject(_ point: WorldPoint) -> Coordinate {
    let longitude = normalizedLongitude(point.x * 360 - 180)
    let latitude = atan(sinh(.pi * (1 - 2 * point.y))) * 180 / .pi
    return Coordinate(latitude: latitude, longitude: longitude)
  }

  /// Ground metres covered by one world-space unit of `y` around a latitude is not constant; this gives
  /// the metres per pixel at a latitude for a zoom (256-pixel tiles).
  public static func metersPerPixel(latitude: Double, zoom: Double) -> Double {
    let circumference = 2 * Double.pi * earthRadius
    return circumference * cos(clampLatitude(latitude) * .pi / 180) / (256 * pow(2, zoom))
  }
}
