/// A latitude/longitude box whose longitudes may cross the 180° meridian (`west > east`).
public struct GeoBox: Hashable, Sendable {
  public var north: Double
  public var south: Double
  public var west: Double
  public var east: Double

  public init(north: Double, south: Double, west: Double, east: Double) {
    self.north = north
    self.south = south
    self.west = west
    self.east = east
  }

  /// The smallest box holding every coordinate, taking the short way across 180°. Nil for an empty list.
  public static func enclosing(_ coordinates: [Coordinate]) -> GeoBox? {
    guard let longitudes = LongitudeInterval.enclosing(coordinates.map(\.longitude)) else { return nil }
    let latitudes = coordinates.map(\.latitude)
    return GeoBox(
      north: latitudes.max()!, south: latitudes.min()!, west: longitudes.west, east: longitudes.east)
  }

  public var longitudes: LongitudeInterval { LongitudeInterval(west: west, east: east) }

  public var center: Coordinate {
    Coordinate(latitude: (north + south) / 2, longitude: longitudes.center)
  }

  /// True when the coordinate lies inside (edges included), across 180° where the box crosses it.
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
    let lon = normalizedLongitude(coordinate.longitude)
    if west <= east { return (lon >= west && lon <= east) || (coordinate.longitude == 180 && east == 180) }
    return lon >= west || lon <= east
  }
}
