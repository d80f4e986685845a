import Foundation
import MapMath
import XCTest

@testable import Rendering

/// The scale bar's length: metres per point from the camera's latitude and zoom, rounded down to 1, 2 or 5
/// × 10ⁿ of a unit, and the bar's width in points for it.
final class ScaleBarTests: XCTestCase {
  func testMetresPerPointAtSeveralLatitudes() {
    // At zoom 0 the equator's 40,075,016.686 m span 256 points; at latitude φ, cos φ of that.
    let equator = ScaleBarLength.metersPerPoint(latitude: 0, zoom: 0)
    XCTAssertEqual(equator, 156_543.033_93, accuracy: 1e-4)
    XCTAssertEqual(ScaleBarLength.metersPerPoint(latitude: 60, zoom: 0), equator / 2, accuracy: 1e-6)
    XCTAssertEqual(ScaleBarLength.metersPerPoint(latitude: -60, zoom: 0), equator / 2, accuracy: 1e-6)
    XCTAssertEqual(
      ScaleBarLength.metersPerPoint(latitude: 45, zoom: 10), equator * 0.5.squareRoot() / 1024, accuracy: 1e-9
    )
    // Each zoom halves it; latitudes past Web Mercator's edge are clamped, not NaN.
    XCTAssertEqual(
      ScaleBarLength.metersPerPoint(latitude: 0, zoom: 12.5), equator / pow(2, 12.5), accuracy: 1e-9)
    let pole = ScaleBarLength.metersPerPoint(latitude: 90, zoom: 3)
    XCTAssertTrue(pole.isFinite && pole > 0)
  }

  func testRoundValues() {
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 1), 1)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 1.99), 1)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 2), 2)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 4.9), 2)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 5), 5)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 9.99), 5)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 10), 10)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 4321), 2000)
    XCTAssertEqual(ScaleBarLength.roundValue(atMost: 7_654_321), 5_000_000)
    XCTAssertNil(ScaleBarLength.roundValue(atMost: 0.5))
    XCTAssertNil(ScaleBarLength.roundValue(atMost: .nan))
    XCTAssertNil(ScaleBarLength.roundValue(atMost: .infinity))
  }

  func testMetricLengthsAndWidthsAtSeveralLatitudes() throws {
    // (latitude, zoom, expected label): the bar is at most 110 points long.
    let cases: [(Double, Double, String)] = [
      (0, 3, "2000 km"), (48.86, 12, "2 km"), (60.17, 15, "200 m"), (-33.87, 8, "50 km"), (0, 19, "20 m"),
    ]
    for (latitude, zoom, label) in cases {
      let metersPerPoint = ScaleBarLength.metersPerPoint(latitude: latitude, zoom: zoom)
      let length = try XCTUnwrap(
        ScaleBarLength(metersPerPoint: metersPerPoint, maximumWidth: 110, units: .metric))
      XCTAssertEqual(length.text, label, "latitude \(latitude), zoom \(zoom)")
      // The bar spans exactly that ground at the latitude, and no round length longer fits.
      let meters = length.value * length.unit.meters
      XCTAssertEqual(length.width * metersPerPoint, meters, accuracy: 1e-6 * meters)
      XCTAssertLessThanOrEqual(length.width, 110 + 1e-9)
      XCTAssertGreaterThan(length.width, 110 / 2.5 - 1e-9, "the next round length would not fit")
    }
  }

  func testImperialUsesFeetBelowAMileAndMilesAbove() throws {
    let city = ScaleBarLength.metersPerPoint(latitude: 60.17, zoom: 15)  // about 2.4 m a point
    let feet = try XCTUnwrap(ScaleBarLength(metersPerPoint: city, maximumWidth: 110, units: .imperial))
    XCTAssertEqual(feet.unit, .feet)
    XCTAssertEqual(feet.text, "500 ft")
    XCTAssertEqual(feet.width, 500 * 0.3048 / city, accuracy: 1e-9)
    let country = ScaleBarLength.metersPerPoint(latitude: 40, zoom: 6)
    let miles = try XCTUnwrap(ScaleBarLength(metersPerPoint: country, maximumWidth: 110, units: .imperial))
    XCTAssertEqual(miles.unit, .miles)
    XCTAssertEqual(miles.text, "100 mi")
    XCTAssertEqual(miles.width * country, 100 * 1609.344, accuracy: 1e-6)
  }

  func testNoLengthWhenNothingFits() {
    XCTAssertNil(ScaleBarLength(metersPerPoint: 0.001, maximumWidth: 100, units: .metric))
    XCTAssertNil(ScaleBarLength(metersPerPoint: .nan, maximumWidth: 100, units: .metric))
    XCTAssertNil(ScaleBarLength(metersPerPoint: 10, maximumWidth: 0, units: .imperial))
  }

  func testAWorldMapHasNoScaleBarAndAContinentHasOne() {
    let size = PixelSize(width: 800, height: 600)
    XCTAssertFalse(
      ScaleBarOverlay.scaleHolds(
        on: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 1, size: size)))
    XCTAssertTrue(
      ScaleBarOverlay.scaleHolds(
        on: Camera(center: Coordinate(latitude: 50, longitude: 10), zoom: 4, size: size)))
    XCTAssertTrue(
      ScaleBarOverlay.scaleHolds(
        on: Camera(center: Coordinate(latitude: -70, longitude: 0), zoom: 12, size: size)))
  }
}
