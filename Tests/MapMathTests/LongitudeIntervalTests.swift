import MapMath
import TestSupport
import XCTest

/// The short way round: `LongitudeInterval.enclosing` and `GeoBox`, the seed's weak spot across 180°.
final class LongitudeIntervalTests: XCTestCase {
  func testPacificTripTakesTheShortWayAcross180() throws {
    // Auckland, Honolulu and Petropavlovsk-Kamchatsky: plain min/max would span 332.6°.
    let interval = try XCTUnwrap(
      LongitudeInterval.enclosing([
        Sample.auckland.longitude, Sample.honolulu.longitude, Sample.petropavlovsk.longitude,
      ]))
    XCTAssertEqual(interval.west, 158.65)
    XCTAssertEqual(interval.east, -157.8583)
    // -157.8583 + 360 − 158.65 = 43.4917°.
    XCTAssertEqual(interval.width, 43.4917, accuracy: Epsilon.degrees)
    XCTAssertTrue(interval.crossesAntimeridian)
    // The middle is 158.65 + 21.74585 = 180.39585°, i.e. -179.60415°.
    XCTAssertEqual(interval.center, -179.604_15, accuracy: Epsilon.degrees)
  }

  func testFijiAndSamoa() throws {
    let interval = try XCTUnwrap(
      LongitudeInterval.enclosing([Sample.suva.longitude, Sample.nadi.longitude, Sample.apia.longitude]))
    XCTAssertEqual(interval.west, 177.4356)
    XCTAssertEqual(interval.east, -171.75)
    XCTAssertEqual(interval.width, 10.8144, accuracy: Epsilon.degrees)
    XCTAssertTrue(interval.crossesAntimeridian)
  }

  func testIntervalNotCrossing180StaysPlain() throws {
    let interval = try XCTUnwrap(LongitudeInterval.enclosing([2.35, -0.13, 13.4, 12.5]))
    XCTAssertEqual(interval.west, -0.13)
    XCTAssertEqual(interval.east, 13.4)
    XCTAssertFalse(interval.crossesAntimeridian)
    XCTAssertEqual(interval.center, 6.635, accuracy: Epsilon.degrees)
  }

  func testSinglePointAndRepeatedPoint() throws {
    let single = try XCTUnwrap(LongitudeInterval.enclosing([-122.0312]))
    XCTAssertEqual(single.west, -122.0312)
    XCTAssertEqual(single.east, -122.0312)
    XCTAssertEqual(single.width, 0)
    XCTAssertEqual(single.center, -122.0312, accuracy: Epsilon.degrees)
    let repeated = try XCTUnwrap(LongitudeInterval.enclosing([5, 5, 5]))
    XCTAssertEqual(repeated.width, 0)
  }

  func testEmptyListHasNoInterval() {
    XCTAssertNil(LongitudeInterval.enclosing([]))
  }

  func testPointsAllAroundTheWorld() throws {
    // Every 30°: all gaps are equal, so the gap across 180° is the one left out.
    let evenly = try XCTUnwrap(LongitudeInterval.enclosing(stride(from: -180.0, to: 180, by: 30).map { $0 }))
    XCTAssertEqual(evenly.west, -180)
    XCTAssertEqual(evenly.east, 150)
    XCTAssertEqual(evenly.width, 330)
    // Gaps 160°, 70°, 60° and 50° across 180°: the widest (between -10° and -170°) is left out, so the
    // interval crosses 180° and is wider than half the world.
    let uneven = try XCTUnwrap(LongitudeInterval.enclosing([-170, -10, 60, 120]))
    XCTAssertEqual(uneven.west, -10)
    XCTAssertEqual(uneven.east, -170)
    XCTAssertEqual(uneven.width, 200)
    XCTAssertTrue(uneven.crossesAntimeridian)
  }

  func testExactly180AndMinus180AreTheSameMeridian() throws {
    let both = try XCTUnwrap(LongitudeInterval.enclosing([180, -180]))
    XCTAssertEqual(both.width, 0)
    XCTAssertEqual(both.west, -180)
    let eastOf = try XCTUnwrap(LongitudeInterval.enclosing([170, 180]))
    XCTAssertEqual(eastOf.west, 170)
    XCTAssertEqual(eastOf.width, 10)
    let westOf = try XCTUnwrap(LongitudeInterval.enclosing([-180, -170]))
    XCTAssertEqual(westOf.west, -180)
    XCTAssertEqual(westOf.east, -170)
    XCTAssertEqual(westOf.width, 10)
    let across = try XCTUnwrap(LongitudeInterval.enclosing([180, -170, 175]))
    XCTAssertEqual(across.west, 175)
    XCTAssertEqual(across.east, -170)
    XCTAssertEqual(across.width, 15)
  }

  func testLongitudesOutsideTheRangeAreWrappedFirst() throws {
    let interval = try XCTUnwrap(LongitudeInterval.enclosing([190, 170]))
    XCTAssertEqual(interval.west, 170)
    XCTAssertEqual(interval.east, -170)
    XCTAssertEqual(interval.width, 20)
  }

  func testWidthAndCenterOfGivenIntervals() {
    XCTAssertEqual(LongitudeInterval(west: 170, east: -170).width, 20)
    XCTAssertEqual(LongitudeInterval(west: 170, east: -170).center, -180)
    XCTAssertEqual(LongitudeInterval(west: -180, east: 180).width, 360)
    XCTAssertEqual(LongitudeInterval(west: -180, east: 180).center, 0)
    XCTAssertEqual(LongitudeInterval(west: 10, east: 10).width, 0)
  }

  /// For random sets: every longitude is inside, and no interval starting at another of the points is narrower.
  func testEnclosingIsTheNarrowestIntervalHoldingEveryPoint() throws {
    var random = SeededGenerator(seed: 0x1E6_0E5)
    for _ in 0..<500 {
      let centre = random.double(in: -180..<180)
      let spread = random.double(in: 0..<400)
      let longitudes = (0..<random.int(in: 1...12)).map { _ in
        normalizedLongitude(centre + random.double(in: -spread / 2..<spread / 2))
      }
      let interval = try XCTUnwrap(LongitudeInterval.enclosing(longitudes))
      for longitude in longitudes {
        XCTAssertLessThanOrEqual(
          eastwards(from: interval.west, to: longitude), interval.width + 1e-12, "\(longitude) in \(interval)"
        )
      }
      // The narrowest enclosing interval starts at one of the points: try each as the west end.
      let best =
        longitudes.map { west in longitudes.map { eastwards(from: west, to: $0) }.max() ?? 0 }.min() ?? 0
      XCTAssertEqual(interval.width, best, accuracy: 1e-9, "\(longitudes)")
    }
  }

  /// Degrees travelled eastwards from `west` to reach `longitude`, in [0, 360).
  private func eastwards(from west: Double, to longitude: Double) -> Double {
    let difference = (longitude - west).truncatingRemainder(dividingBy: 360)
    return difference < 0 ? difference + 360 : difference
  }
}

final class GeoBoxTests: XCTestCase {
  func testEnclosingAcross180() throws {
    let box = try XCTUnwrap(GeoBox.enclosing([Sample.auckland, Sample.honolulu, Sample.petropavlovsk]))
    XCTAssertEqual(box.north, 53.0167)
    XCTAssertEqual(box.south, -36.8485)
    XCTAssertEqual(box.west, 158.65)
    XCTAssertEqual(box.east, -157.8583)
    XCTAssertEqual(box.longitudes.width, 43.4917, accuracy: Epsilon.degrees)
    assertCoordinate(box.center, Coordinate(latitude: 8.0841, longitude: -179.604_15))
    XCTAssertNil(GeoBox.enclosing([]))
  }

  func testContainsAcross180() {
    let box = GeoBox(north: 10, south: -10, west: 170, east: -170)
    XCTAssertTrue(box.contains(Coordinate(latitude: 0, longitude: 175)))
    XCTAssertTrue(box.contains(Coordinate(latitude: 0, longitude: -175)))
    XCTAssertTrue(box.contains(Coordinate(latitude: 0, longitude: 180)))
    XCTAssertTrue(box.contains(Coordinate(latitude: 0, longitude: -180)))
    XCTAssertTrue(box.contains(Coordinate(latitude: 10, longitude: 170)))
    XCTAssertFalse(box.contains(Coordinate(latitude: 0, longitude: 0)))
    XCTAssertFalse(box.contains(Coordinate(latitude: 0, longitude: 169)))
    XCTAssertFalse(box.contains(Coordinate(latitude: 11, longitude: 175)))
  }

  func testContainsWithEdgeOn180() {
    let east = GeoBox(north: 1, south: -1, west: 170, east: 180)
    XCTAssertTrue(east.contains(Coordinate(latitude: 0, longitude: 180)))
    XCTAssertTrue(east.contains(Coordinate(latitude: 0, longitude: 175)))
    XCTAssertFalse(east.contains(Coordinate(latitude: 0, longitude: -175)))
    let west = GeoBox(north: 1, south: -1, west: -180, east: -170)
    XCTAssertTrue(west.contains(Coordinate(latitude: 0, longitude: -180)))
    XCTAssertTrue(west.contains(Coordinate(latitude: 0, longitude: 180)))
    XCTAssertFalse(west.contains(Coordinate(latitude: 0, longitude: 175)))
  }

  func testEnclosingBoxContainsEveryPoint() throws {
    var random = SeededGenerator(seed: 0x6E0_B0C)
    for _ in 0..<300 {
      let centre = random.coordinate(maxLatitude: 80)
      let coordinates = (0..<random.int(in: 1...10)).map { _ in
        Coordinate(
          latitude: centre.latitude + random.double(in: -5..<5),
          longitude: normalizedLongitude(centre.longitude + random.double(in: -40..<40)))
      }
      let box = try XCTUnwrap(GeoBox.enclosing(coordinates))
      for coordinate in coordinates {
        XCTAssertTrue(box.contains(coordinate), "\(coordinate) in \(box)")
      }
      XCTAssertLessThanOrEqual(box.longitudes.width, 80)
    }
  }
}
