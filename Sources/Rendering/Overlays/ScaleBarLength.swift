import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The length a scale bar shows: a round distance (1, 2 or 5 × 10ⁿ of its unit) and how many points it
/// spans on the map at the camera's centre.
struct ScaleBarLength: Hashable {
  /// The distance in the bar's unit (`unit`).
  let value: Double
  let unit: Unit
  /// The bar's length in points.
  let width: Double

  enum Unit: String {
    case meters = "m"
    case kilometers = "km"
    case feet = "ft"
    case miles = "mi"

    var meters: Double {
      switch self {
      case .meters: return 1
      case .kilometers: return 1000
      case .feet: return 0.3048
      case .miles: return 1609.344
      }
    }
  }

  /// The equator's length in metres on the Web Mercator sphere.
  static let equatorMeters = 40_075_016.686

  /// Metres of ground per point of the image at `latitude` and `zoom` (the scale does not matter: the
  /// image is measured in points).
  static func metersPerPoint(latitude: Double, zoom: Double) -> Double {
    let clamped = WebMercator.clampLatitude(latitude)
    return cos(clamped * .pi / 180) * equatorMeters / (256 * pow(2, zoom))
  }

  /// The longest round length that spans at most `maximumWidth` points; nil when even the shortest one
  /// (1 m or 1 ft) would not fit or the scale is not finite.
  init?(metersPerPoint: Double, maximumWidth: Double, units: ScaleBarUnits) {
    guard metersPerPoint.isFinite, metersPerPoint > 0, maximumWidth.isFinite, maximumWidth > 0 else {
      return nil
    }
    let longest = metersPerPoint * maximumWidth
    let small: Unit = units == .metric ? .meters : .feet
    let large: Unit = units == .metric ? .kilometers : .miles
    // Whole miles or kilometres once the bar can hold one; feet or metres below.
    let unit = longest >= large.meters ? large : small
    guard let value = ScaleBarLength.roundValue(atMost: longest / unit.meters) else { return nil }
    self.value = value
    self.unit = unit
    width = value * unit.meters / metersPerPoint
  }

  /// The largest 1, 2 or 5 × 10ⁿ (n ≥ 0) that is at most `limit`.
  static func roundValue(atMost limit: Double) -> Double? {
    guard limit >= 1, limit.isFinite else { return nil }
    let power = pow(10, floor(log10(limit)))
    for step in [5.0, 2.0, 1.0] where step * power <= limit * (1 + 1e-12) {
      return step * power
    }
    return power
  }

  /// The label: `500 km`, `2 mi`, `200 m`.
  var text: String {
    let digits = value >= 1 && value == value.rounded() ? String(Int(value)) : String(value)
    return "\(digits) \(unit.rawValue)"
  }
}
