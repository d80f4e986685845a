#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shortest way between two points on the Earth (a sphere of the mean radius): its length, and points
/// along it, so that a route between far places is drawn as the arc a globe shows.
public enum GreatCircle {
  /// The mean Earth radius (IUGG), in metres: lengths are within about 0.5 % of the ellipsoid's.
  public static let meanRadius = 6_371_008.8

  /// The distance along the ground between two points, in metres (the haversine formula, exact for short
  /// hops as well as long ones).
  public static func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
    let phi1 = a.latitude * .pi / 180
    let phi2 = b.latitude * .pi / 180
    let dPhi = phi2 - phi1
    let dLambda = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * meanRadius * asin(min(1, sqrt(h)))
  }

  /// Points along the great circle from `a` to `b`, both included, no two more than `maximumStep` degrees
  /// of arc apart (at least one step). Longitudes are continuous: each point is the copy nearest the one
  /// before (they may leave −180…180), so that a line across 180° goes the short way without a jump.
  /// Antipodal points have no one shortest way: the arc then runs through the northern pole's side.
  public static func arc(from a: Coordinate, to b: Coordinate, maximumStep: Double = 1) -> [Coordinate] {
    let start = unitVector(a)
    var end = unitVector(b)
    var angle = angleBetween(start, end)
    if sin(angle) < 1e-12 {
      guard angle > 1 else { return [a, continuous(b, after: a.longitude)] }
      // Antipodes: turn the end a hair towards the north so that the plane of the arc is defined.
      end = unitVector(Coordinate(latitude: b.latitude + 1e-6, longitude: b.longitude))
      angle = angleBetween(start, end)
    }
    let step = maximumStep > 0 && maximumStep.isFinite ? maximumStep : 1
    // At most 360 pieces: a bad step never makes an unbounded array.
    let pieces = max(1, min(360, Int((angle * 180 / .pi / step).rounded(.up))))
    var points: [Coordinate] = [a]
    points.reserveCapacity(pieces + 1)
    let sinAngle = sin(angle)
    for index in 1..<pieces {
      let t = Double(index) / Double(pieces)
      let wa = sin((1 - t) * angle) / sinAngle
      let wb = sin(t * angle) / sinAngle
      let x = wa * start.0 + wb * end.0
      let y = wa * start.1 + wb * end.1
      let z = wa * start.2 + wb * end.2
      let latitude = atan2(z, sqrt(x * x + y * y)) * 180 / .pi
      let longitude = atan2(y, x) * 180 / .pi
      let next = Coordinate(latitude: latitude, longitude: longitude)
      points.append(continuous(next, after: points[points.count - 1].longitude))
    }
    points.append(continuous(b, after: points[points.count - 1].longitude))
    return points
  }

  /// The copy of `point` whose longitude is nearest `previous` (within 180° of it).
  static func continuous(_ point: Coordinate, after previous: Double) -> Coordinate {
    var longitude = point.longitude
    while longitude - previous > 180 { longitude -= 360 }
    while longitude - previous < -180 { longitude += 360 }
    return Coordinate(latitude: point.latitude, longitude: longitude)
  }

  private static func angleBetween(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
    acos(min(1, max(-1, a.0 * b.0 + a.1 * b.1 + a.2 * b.2)))
  }

  private static func unitVector(_ coordinate: Coordinate) -> (Double, Double, Double) {
    let phi = coordinate.latitude * .pi / 180
    let lambda = coordinate.longitude * .pi / 180
    return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }
}
