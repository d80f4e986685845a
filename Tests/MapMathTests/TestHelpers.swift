import MapMath
import TestSupport
import XCTest

/// The tolerances the MapMath tests allow, each with the reason for its size.
enum Epsilon {
  /// World-space values lie in [0, 1], where one ulp is at most 1.1e-16; 1e-12 allows for the few roundings
  /// of `log`, `tan` and `atan`/`sinh` while still catching any formula slip (those show up at 1e-6 and above).
  static let world = 1e-12
  /// Degrees after arithmetic or a round trip: 1e-9° is 0.1 mm on the ground.
  static let degrees = 1e-9
  /// Pixels: images are below 1e5 px across, where Double noise stays under 1e-9 px; nothing visible is this
  /// small.
  static let pixels = 1e-6
  /// Metres in EPSG:3857 (the circumference is 4e7 m, so 1e-6 m is about 1e-14 of the world).
  static let meters = 1e-6
}

extension SeededGenerator {
  /// A coordinate inside the Mercator world (|latitude| ≤ `maxLatitude`), longitude in [-180, 180).
  mutating func coordinate(maxLatitude: Double = WebMercator.maxLatitude) -> Coordinate {
    Coordinate(latitude: double(in: -maxLatitude..<maxLatitude), longitude: double(in: -180..<180))
  }
}

/// The distance between two longitudes the short way round, in [0, 180]: 180° and -180° are the same meridian.
func longitudeDistance(_ a: Double, _ b: Double) -> Double {
  let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
  return min(difference, 360 - difference)
}

func assertCoordinate(
  _ actual: Coordinate, _ expected: Coordinate, accuracy: Double = Epsilon.degrees, _ message: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(
    actual.latitude, expected.latitude, accuracy: accuracy, "latitude \(message)", file: file, line: line)
  XCTAssertLessThanOrEqual(
    longitudeDistance(actual.longitude, expected.longitude), accuracy,
    "longitude \(actual.longitude) vs \(expected.longitude) \(message)", file: file, line: line)
}

func assertPixel(
  _ actual: PixelPoint, _ expected: PixelPoint, accuracy: Double = Epsilon.pixels, _ message: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(actual.x, expected.x, accuracy: accuracy, "x \(message)", file: file, line: line)
  XCTAssertEqual(actual.y, expected.y, accuracy: accuracy, "y \(message)", file: file, line: line)
}

/// Named places used across the tests (coordinates rounded as commonly published).
enum Sample {
  static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
  static let sydney = Coordinate(latitude: -33.8688, longitude: 151.2093)
  static let honolulu = Coordinate(latitude: 21.3069, longitude: -157.8583)
  static let auckland = Coordinate(latitude: -36.8485, longitude: 174.7633)
  static let petropavlovsk = Coordinate(latitude: 53.0167, longitude: 158.65)
  static let suva = Coordinate(latitude: -18.1416, longitude: 178.4419)
  static let nadi = Coordinate(latitude: -17.7765, longitude: 177.4356)
  static let apia = Coordinate(latitude: -13.8333, longitude: -171.75)
  static let cupertino = Coordinate(latitude: 37.3318, longitude: -122.0312)
}
