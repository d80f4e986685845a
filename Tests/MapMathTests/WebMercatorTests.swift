import MapMath
import XCTest

/// Web Mercator both ways, against reference values.
///
/// Where the numbers come from: mercantile 1.2.1 (Mapbox's Python tile library), `mercantile.xy(lon, lat)`
/// for metres, and the ARCHITECTURE.md §3 formulas evaluated in CPython 3.11 (`math.log`, `math.tan`) for the
/// world coordinates. The two agree to 1 ulp; `X = xMetres / (2π·6378137) + 0.5`, `Y = 0.5 − yMetres / (2π·6378137)`.
final class WebMercatorTests: XCTestCase {
  private struct Reference {
    let name: String
    let coordinate: Coordinate
    let x: Double
    let y: Double
    let xMeters: Double
    let yMeters: Double
  }

  private let references: [Reference] = [
    Reference(
      name: "Paris", coordinate: Sample.paris, x: 0.506_533_888_888_888_9, y: 0.344_028_403_067_578_2,
      xMeters: 261_845.706_243_938_07, yMeters: 6_250_564.349_543_127),
    Reference(
      name: "Sydney", coordinate: Sample.sydney, x: 0.920_025_833_333_333_3, y: 0.600_092_251_458_776_2,
      xMeters: 16_832_542.279_207_34, yMeters: -4_011_198.647_307_573_4),
    Reference(
      name: "Honolulu", coordinate: Sample.honolulu, x: 0.061_504_722_222_222_2, y: 0.439_400_874_075_474_6,
      xMeters: -17_572_705.573_491_82, yMeters: 2_428_510.982_556_825_5),
    Reference(
      name: "Null Island", coordinate: Coordinate(latitude: 0, longitude: 0), x: 0.5, y: 0.5, xMeters: 0,
      yMeters: 0),
    Reference(
      name: "180° east", coordinate: Coordinate(latitude: 0, longitude: 180), x: 1, y: 0.5,
      xMeters: 20_037_508.342_789_244, yMeters: 0),
    Reference(
      name: "180° west", coordinate: Coordinate(latitude: 0, longitude: -180), x: 0, y: 0.5,
      xMeters: -20_037_508.342_789_244, yMeters: 0),
    Reference(
      name: "north edge", coordinate: Coordinate(latitude: 85.051_128_779_806_6, longitude: 0), x: 0.5, y: 0,
      xMeters: 0, yMeters: 20_037_508.342_789_244),
  ]

  private let circumference = 2 * Double.pi * WebMercator.earthRadius

  func testProjectMatchesReferenceWorldCoordinates() {
    for reference in references {
      let point = WebMercator.project(reference.coordinate)
      XCTAssertEqual(point.x, reference.x, accuracy: Epsilon.world, reference.name)
      XCTAssertEqual(point.y, reference.y, accuracy: Epsilon.world, reference.name)
    }
  }

  func testProjectMatchesMercantileMetres() {
    for reference in references {
      let point = WebMercator.project(reference.coordinate)
      XCTAssertEqual(
        (point.x - 0.5) * circumference, reference.xMeters, accuracy: Epsilon.meters, reference.name)
      // mercantile gives -7.08e-10 m for y at the equator (its own rounding); 1e-6 m covers it.
      XCTAssertEqual(
        (0.5 - point.y) * circumference, reference.yMeters, accuracy: Epsilon.meters, reference.name)
    }
  }

  func testUnprojectMatchesReferences() {
    for reference in references {
      let coordinate = WebMercator.unproject(WorldPoint(x: reference.x, y: reference.y))
      assertCoordinate(coordinate, reference.coordinate, accuracy: Epsilon.degrees, reference.name)
    }
  }

  func testUnprojectWrapsLongitudeIntoHalfOpenRange() {
    // x = 1 is the 180° meridian; unproject reports it as -180 (the range is [-180, 180)).
    XCTAssertEqual(WebMercator.unproject(WorldPoint(x: 1, y: 0.5)).longitude, -180)
    XCTAssertEqual(WebMercator.unproject(WorldPoint(x: 0, y: 0.5)).longitude, -180)
    // An unwrapped copy one world east or west gives the same longitude.
    XCTAssertEqual(
      WebMercator.unproject(WorldPoint(x: 1.25, y: 0.5)).longitude, -90, accuracy: Epsilon.degrees)
    XCTAssertEqual(
      WebMercator.unproject(WorldPoint(x: -0.25, y: 0.5)).longitude, 90, accuracy: Epsilon.degrees)
  }

  func testWorldCornersAreThePolesOfTheSquareWorld() {
    let northWest = WebMercator.unproject(WorldPoint(x: 0, y: 0))
    let southEast = WebMercator.unproject(WorldPoint(x: 1, y: 1))
    XCTAssertEqual(northWest.latitude, WebMercator.maxLatitude, accuracy: 1e-12)
    XCTAssertEqual(southEast.latitude, -WebMercator.maxLatitude, accuracy: 1e-12)
  }

  func testLatitudesAreClampedToTheSquareWorld() {
    let top = WebMercator.project(Coordinate(latitude: WebMercator.maxLatitude, longitude: 0)).y
    // The formula at the limit gives -1.1e-16 rather than 0: one ulp, not a bug.
    XCTAssertEqual(top, 0, accuracy: 1e-15)
    for latitude in [85.06, 89.0, 90.0] {
      XCTAssertEqual(WebMercator.project(Coordinate(latitude: latitude, longitude: 0)).y, top, "\(latitude)")
      XCTAssertEqual(
        WebMercator.project(Coordinate(latitude: -latitude, longitude: 0)).y, 1, accuracy: 1e-15,
        "\(-latitude)")
    }
    XCTAssertEqual(WebMercator.clampLatitude(91), WebMercator.maxLatitude)
    XCTAssertEqual(WebMercator.clampLatitude(-91), -WebMercator.maxLatitude)
    XCTAssertEqual(WebMercator.clampLatitude(45), 45)
  }

  func testMaxLatitudeIsWhereTheWorldIsSquare() {
    // atan(sinh(π)) in degrees, the latitude at which y = 0.
    XCTAssertEqual(WebMercator.maxLatitude, atan(sinh(Double.pi)) * 180 / .pi, accuracy: 1e-12)
  }

  func testMetersPerPixel() {
    // 156 543.033 928 m/px at the equator at zoom 0 is the well-known Web Mercator ground resolution
    // (2π·6378137 / 256).
    XCTAssertEqual(WebMercator.metersPerPixel(latitude: 0, zoom: 0), 156_543.033_928_040_97, accuracy: 1e-6)
    XCTAssertEqual(WebMercator.metersPerPixel(latitude: 0, zoom: 10), 152.874_056_570_352_5, accuracy: 1e-9)
    // cos 60° = 1/2.
    XCTAssertEqual(
      WebMercator.metersPerPixel(latitude: 60, zoom: 3), WebMercator.metersPerPixel(latitude: 0, zoom: 4),
      accuracy: 1e-9)
    XCTAssertEqual(WebMercator.metersPerDegree, 111_319.490_793_273_58, accuracy: 1e-8)
  }

  func testNearestCopy() {
    let point = WorldPoint(x: 0.99, y: 0.3)
    XCTAssertEqual(point.nearestCopy(to: 0.01).x, -0.01, accuracy: Epsilon.world)
    XCTAssertEqual(point.nearestCopy(to: 0.6).x, 0.99, accuracy: Epsilon.world)
    XCTAssertEqual(point.nearestCopy(to: 2.1).x, 1.99, accuracy: Epsilon.world)
    XCTAssertEqual(point.nearestCopy(to: 0.01).y, 0.3)
  }

  func testNormalizedLongitude() {
    XCTAssertEqual(normalizedLongitude(0), 0)
    XCTAssertEqual(normalizedLongitude(180), -180)
    XCTAssertEqual(normalizedLongitude(-180), -180)
    XCTAssertEqual(normalizedLongitude(190), -170)
    XCTAssertEqual(normalizedLongitude(-190), 170)
    XCTAssertEqual(normalizedLongitude(540), -180)
    XCTAssertEqual(normalizedLongitude(-541), 179)
    XCTAssertEqual(normalizedLongitude(721.5), 1.5)
  }

  func testNormalizedLongitudeStaysInsideHalfOpenRangeNearTheSeam() {
    // A value a hair west of -180 leaves a tiny negative remainder; adding 360 to it rounds to 360 itself.
    for longitude in [
      -180.000_000_000_000_03, -180.000_000_000_000_06, -540.000_000_000_000_1, 179.999_999_999_999_97,
      -179.999_999_999_999_97, 180.000_000_000_000_03, -1e-300, 1e-300,
    ] {
      let value = normalizedLongitude(longitude)
      XCTAssertGreaterThanOrEqual(value, -180, "\(longitude)")
      XCTAssertLessThan(value, 180, "\(longitude)")
      XCTAssertLessThanOrEqual(longitudeDistance(value, longitude), 1e-12, "\(longitude)")
    }
  }

  func testCoordinateValidity() {
    XCTAssertTrue(Coordinate(latitude: 90, longitude: 180).isValid)
    XCTAssertTrue(Coordinate(latitude: -90, longitude: -180).isValid)
    XCTAssertFalse(Coordinate(latitude: 90.1, longitude: 0).isValid)
    XCTAssertFalse(Coordinate(latitude: 0, longitude: 180.1).isValid)
    XCTAssertFalse(Coordinate(latitude: .nan, longitude: 0).isValid)
    XCTAssertFalse(Coordinate(latitude: 0, longitude: .infinity).isValid)
    XCTAssertEqual(Coordinate(latitude: 1.5, longitude: -2).description, "1.5,-2.0")
  }
}
