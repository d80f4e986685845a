import MapMath
import XCTest

final class GreatCircleTests: XCTestCase {
  func testDistances() {
    let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)
    let tallinn = Coordinate(latitude: 59.4370, longitude: 24.7536)
    XCTAssertEqual(GreatCircle.distanceMeters(helsinki, tallinn), 82_000, accuracy: 1_000)
    // A degree of the equator, and the same across 180°.
    let degree = 2 * Double.pi * GreatCircle.meanRadius / 360
    XCTAssertEqual(
      GreatCircle.distanceMeters(
        Coordinate(latitude: 0, longitude: 179.5), Coordinate(latitude: 0, longitude: -179.5)),
      degree, accuracy: 1e-6)
    XCTAssertEqual(GreatCircle.distanceMeters(helsinki, helsinki), 0)
  }

  func testArcsAreSampledContinuousAndEndWhereAsked() {
    let arc = GreatCircle.arc(
      from: Coordinate(latitude: -17.7, longitude: 177.4), to: Coordinate(latitude: -13.8, longitude: -171.8))
    XCTAssertEqual(arc.first, Coordinate(latitude: -17.7, longitude: 177.4))
    XCTAssertEqual(arc.last!.latitude, -13.8, accuracy: 1e-12)
    XCTAssertEqual(arc.last!.longitude, 188.2, accuracy: 1e-9, "continued past 180°, not wrapped")
    XCTAssertGreaterThan(arc.count, 10)
    for (a, b) in zip(arc, arc.dropFirst()) {
      XCTAssertLessThanOrEqual(GreatCircle.distanceMeters(a, b), 111_200)
    }
    // The same point twice, antipodes and a hostile step stay bounded.
    XCTAssertEqual(
      GreatCircle.arc(from: .init(latitude: 1, longitude: 2), to: .init(latitude: 1, longitude: 2)).count, 2)
    let antipodes = GreatCircle.arc(
      from: .init(latitude: 0, longitude: 0), to: .init(latitude: 0, longitude: 180))
    XCTAssertEqual(antipodes.count, 181)
    XCTAssertTrue(antipodes.allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite })
    XCTAssertLessThanOrEqual(
      GreatCircle.arc(
        from: .init(latitude: 0, longitude: 0), to: .init(latitude: 50, longitude: 50), maximumStep: 1e-9
      )
      .count, 361)
  }
}
