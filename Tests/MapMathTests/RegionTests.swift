import MapMath
import XCTest

/// The seed's region rules (SEED-FACTS.md, "The map"), and mymap's fix across 180°.
final class RegionTests: XCTestCase {
  /// 1000 m in degrees of latitude on the Web Mercator sphere: 1000 / (2π·6378137 / 360).
  private let kilometreOfLatitude = 0.008_983_152_841_195_214

  func testNoAnnotationsShowsOneKilometreAroundTheUser() throws {
    let region = try XCTUnwrap(Region.forAnnotations([], user: Sample.cupertino))
    XCTAssertEqual(region.center, Sample.cupertino)
    XCTAssertEqual(region.latitudeDelta, kilometreOfLatitude, accuracy: 1e-15)
    // 1000 m along the parallel: a degree of longitude is cos(latitude) times shorter.
    XCTAssertEqual(
      region.longitudeDelta, kilometreOfLatitude / cos(Sample.cupertino.latitude * .pi / 180), accuracy: 1e-15
    )
    XCTAssertEqual(region, Region.around(Sample.cupertino))
  }

  func testNoAnnotationsAndNoUserHasNoRegion() {
    XCTAssertNil(Region.forAnnotations([], user: nil))
  }

  func testOneAnnotationShowsOneKilometreAroundIt() throws {
    let region = try XCTUnwrap(Region.forAnnotations([Sample.paris], user: Sample.cupertino))
    XCTAssertEqual(region.center, Sample.paris, "the user does not move the region")
    XCTAssertEqual(region.latitudeDelta * WebMercator.metersPerDegree, 1000, accuracy: Epsilon.meters)
    XCTAssertEqual(
      region.longitudeDelta * WebMercator.metersPerDegree * cos(Sample.paris.latitude * .pi / 180), 1000,
      accuracy: Epsilon.meters)
  }

  func testManyAnnotationsUseTheirBoxWithTenPercentMore() throws {
    let coordinates = [
      Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: 12, longitude: 25),
      Coordinate(latitude: 11, longitude: 21),
    ]
    let region = try XCTUnwrap(Region.forAnnotations(coordinates, user: Sample.cupertino))
    assertCoordinate(region.center, Coordinate(latitude: 11, longitude: 22.5))
    XCTAssertEqual(region.latitudeDelta, 2.2, accuracy: 1e-12)
    XCTAssertEqual(region.longitudeDelta, 5.5, accuracy: 1e-12)
    XCTAssertEqual(Region.spanMargin, 1.1)
  }

  func testTwoAnnotationsAtTheSamePlaceGiveAnEmptySpan() throws {
    // The seed's rule taken literally: a zero-sized box stays zero-sized (the fitting then zooms in fully).
    let region = try XCTUnwrap(Region.forAnnotations([Sample.paris, Sample.paris], user: nil))
    XCTAssertEqual(region.center, Sample.paris)
    XCTAssertEqual(region.latitudeDelta, 0)
    XCTAssertEqual(region.longitudeDelta, 0)
  }

  func testAnnotationsAcross180TakeTheShortWay() throws {
    let region = try XCTUnwrap(
      Region.forAnnotations([Sample.auckland, Sample.honolulu, Sample.petropavlovsk], user: nil))
    assertCoordinate(region.center, Coordinate(latitude: 8.0841, longitude: -179.604_15))
    XCTAssertEqual(region.longitudeDelta, 43.4917 * 1.1, accuracy: Epsilon.degrees)
    XCTAssertEqual(region.latitudeDelta, (53.0167 + 36.8485) * 1.1, accuracy: Epsilon.degrees)
    let box = region.box
    XCTAssertEqual(box.west, 158.65 - 43.4917 * 0.05, accuracy: Epsilon.degrees)
    XCTAssertEqual(box.east, -157.8583 + 43.4917 * 0.05, accuracy: Epsilon.degrees)
    for place in [Sample.auckland, Sample.honolulu, Sample.petropavlovsk] {
      XCTAssertTrue(box.contains(place), "\(place)")
    }
    XCTAssertFalse(box.contains(Coordinate(latitude: 0, longitude: 0)))
  }

  func testPointsAllAroundTheWorldCapTheSpanAt360() throws {
    let coordinates = stride(from: -180.0, to: 180, by: 20).map { Coordinate(latitude: 0, longitude: $0) }
    let region = try XCTUnwrap(Region.forAnnotations(coordinates, user: nil))
    XCTAssertEqual(region.longitudeDelta, 360)
    XCTAssertEqual(region.box.west, -180)
    XCTAssertEqual(region.box.east, 180)
  }

  func testBoxClampsLatitudes() {
    let region = Region(center: Coordinate(latitude: 80, longitude: 0), latitudeDelta: 30, longitudeDelta: 10)
    XCTAssertEqual(region.box.north, 90)
    XCTAssertEqual(region.box.south, 65)
    XCTAssertEqual(region.box.west, -5)
    XCTAssertEqual(region.box.east, 5)
  }

  func testBoxWrapsAcross180() {
    let region = Region(center: Coordinate(latitude: 0, longitude: 178), latitudeDelta: 2, longitudeDelta: 10)
    XCTAssertEqual(region.box.west, 173)
    XCTAssertEqual(region.box.east, -177)
    XCTAssertEqual(region.box.longitudes.width, 10, accuracy: 1e-12)
  }

  func testRegionAtThePoleIsMeasuredWhereTheMapEnds() {
    // Web Mercator ends at ±85.05°: a place at the pole is drawn there, so its 1000 m are measured there
    // (not as a 360° span that would zoom the map out to the whole world).
    let region = Region.around(Coordinate(latitude: 90, longitude: 0))
    let parallel = cos(WebMercator.maxLatitude * .pi / 180)
    XCTAssertEqual(region.longitudeDelta, 1000 / (WebMercator.metersPerDegree * parallel), accuracy: 1e-12)
    XCTAssertEqual(region.latitudeDelta, kilometreOfLatitude, accuracy: 1e-15)
  }
}
