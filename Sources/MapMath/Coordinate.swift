/// A point on the Earth in WGS84 degrees.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// True when both values are finite and inside ±90° latitude and ±180° longitude.
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
  }

  public var description: String { "\(latitude),\(longitude)" }
}

/// Wraps any longitude into [-180, 180).
public func normalizedLongitude(_ longitude: Double) -> Double {
  // In-range values come back unchanged: the arithmetic below rounds them (158.65 would become
  // 158.64999999999998), and a box's edge must be the very longitude of the place on it.
  if longitude >= -180 && longitude < 180 { return longitude }
  var value = (longitude + 180).truncatingRemainder(dividingBy: 360)
  if value < 0 { value += 360 }
  // A tiny negative remainder plus 360 rounds to 360 itself (-180.00000000000003 would give 180).
  if value >= 360 { value -= 360 }
  return value - 180
}
