import Foundation
import MapMath
import Places
import XCTest

/// `LocationStore.places`: a selection's coordinates first, the rest of a place only when asked for, in the
/// store's date order where an order is wanted.
final class StoredPlacesTests: XCTestCase {
  private func place(_ id: String, _ latitude: Double, date: Double?, category: String = "Bar") -> Location {
    Location(
      id: id, latitude: latitude, longitude: 24.9, locationDescription: "Place \(id)", category: category,
      date: date.map { Date(timeIntervalSince1970: $0) })
  }

  func testCoordinatesFirstTextsOnDemandInDateOrder() throws {
    let scratch = try ScratchStore()
    let places = [
      place("late", 60.3, date: 3000), place("undated", 60.1, date: nil), place("early", 60.2, date: 1000),
      place("park", 60.4, date: 2000, category: "Park"),
    ]
    _ = try scratch.store.importLocations(places, idsWereGiven: [], dryRun: false)
    let stored = try scratch.store.places()
    XCTAssertEqual(stored.coordinates.count, 4)
    let all = Array(stored.coordinates.indices)
    // The order `locations(_:order:)` gives: undated first, then oldest first.
    XCTAssertEqual(
      try stored.locations(at: stored.inListOrder(all)).map(\.id), try scratch.store.locations().map(\.id))
    XCTAssertEqual(
      try stored.locations(at: stored.inListOrder(all)).map(\.id), ["undated", "early", "park", "late"])
    // Any subset, in the order asked, with every field.
    let lastTwo = Array(stored.inListOrder(all).suffix(2).reversed())
    XCTAssertEqual(try stored.identifiers(at: lastTwo), ["late", "park"])
    XCTAssertEqual(try stored.locations(at: lastTwo).map(\.category), ["Bar", "Park"])
    XCTAssertEqual(
      try stored.locations(at: lastTwo).map(\.coordinate), lastTwo.map { stored.coordinates[$0] })

    // Filters apply as for `locations`.
    XCTAssertEqual(try scratch.store.places(LocationFilter(categories: ["park"])).coordinates.count, 1)

    // A place deleted between the two reads is an error, not a wrong place.
    _ = try scratch.store.delete(ids: ["late"])
    let error = storeError { _ = try stored.locations(at: all) }
    XCTAssertEqual(
      error?.description,
      "the places store failed: a place was deleted from the store while the map was being drawn; draw it again"
    )
  }

  func testABoxReadsOnlyItsPlacesAcross180Too() throws {
    let scratch = try ScratchStore()
    let places = [
      Location(id: "suva", latitude: -18.14, longitude: 178.44),
      Location(id: "apia", latitude: -13.83, longitude: -171.75),
      Location(id: "auckland", latitude: -36.85, longitude: 174.76),
      Location(id: "paris", latitude: 48.86, longitude: 2.35),
    ]
    _ = try scratch.store.importLocations(places, idsWereGiven: [], dryRun: false)
    func ids(_ box: GeoBox) throws -> Set<String> {
      let stored = try scratch.store.places(within: box)
      return Set(try stored.identifiers(at: Array(stored.coordinates.indices)))
    }
    XCTAssertEqual(try ids(GeoBox(north: 0, south: -20, west: 170, east: -170)), ["suva", "apia"])
    XCTAssertEqual(try ids(GeoBox(north: 60, south: -40, west: 0, east: 5)), ["paris"])
    XCTAssertEqual(try ids(GeoBox(north: 90, south: -90, west: -180, east: 180)).count, 4)
    XCTAssertEqual(
      try scratch.store.places(
        LocationFilter(categories: ["Bar"]), within: GeoBox(north: 0, south: -20, west: 170, east: -170)
      )
      .coordinates.count, 0)
  }
}
