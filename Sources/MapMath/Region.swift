#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A map region: a centre and the degrees of latitude and longitude it spans (MapKit's coordinate region).
public struct Region: Hashable, Sendable {
  public var center: Coordinate
  public var latitudeDelta: Double
  public var longitudeDelta: Double

  public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
    self.center = center
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }

  /// The seed's "show user" distance: a region of 1000 m × 1000 m.
  public static let defaultDistance = 1000.0
  /// The seed's extra space around two or more annotations: each span × 1.1.
  public static let spanMargin = 1.1

  /// A region `latitudinalMeters` tall and `longitudinalMeters` wide centred on a coordinate.
  public static func around(
    _ center: Coordinate, latitudinalMeters: Double = defaultDistance,
    longitudinalMeters: Double = defaultDistance
  ) -> Region {
    let latitudeDelta = latitudinalMeters / WebMercator.metersPerDegree
    let parallel = max(cos(WebMercator.clampLatitude(center.latitude) * .pi / 180), 1e-9)
    let longitudeDelta = min(longitudinalMeters / (WebMercator.metersPerDegree * parallel), 360)
    return Region(center: center, latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
  }

  /// The seed's "show locations" rules: no annotations, 1000 m around the user (nil without one); one,
  /// 1000 m around it; two or more, their bounding box (the short way across 180°) with each span ×
  /// `spanMargin` (the seed's 1.1; 1 when what is drawn at the places keeps them off the edges).
  public static func forAnnotations(
    _ coordinates: [Coordinate], user: Coordinate?, spanMargin: Double = Region.spanMargin
  ) -> Region? {
    switch coordinates.count {
    case 0:
      return user.map { around($0) }
    case 1:
      return around(coordinates[0])
    default:
      let box = GeoBox.enclosing(coordinates)!
      return Region(
        center: box.center,
        latitudeDelta: (box.north - box.south) * spanMargin,
        longitudeDelta: min(box.longitudes.width * spanMargin, 360))
    }
  }

  /// The region's box; latitudes are clamped to ±90° and the longitudes wrap across 180°.
  public var box: GeoBox {
    let halfWidth = longitudeDelta / 2
    return GeoBox(
      north: min(center.latitude + latitudeDelta / 2, 90),
      south: max(center.latitude - latitudeDelta / 2, -90),
      west: longitudeDelta >= 360 ? -180 : normalizedLongitude(center.longitude - halfWidth),
      east: longitudeDelta >= 360 ? 180 : normalizedLongitude(center.longitude + halfWidth))
  }
}
