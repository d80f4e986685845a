import Foundation
import Places
import TestSupport
import XCTest

final class LocationStoreImportTests: XCTestCase {
  /// A place read from a file without an id: its id derived from its content.
  private func derived(_ description: String, day: Int? = 1, latitude: Double = 10, longitude: Double = 20)
    -> Location
  {
    Location(
      latitude: latitude, longitude: longitude, locationDescription: description, category: "Bar",
      date: day.map { Date(timeIntervalSince1970: 1_764_000_000 + Double($0) * 86_400) })
  }

  func testDuplicatesBySameIDAndBySameContent() throws {
    let scratch = try ScratchStore()
    try scratch.store.add(storePlace("given", "stored with a given id"))
    let uuid = Location(
      id: LocationStore.newID(), latitude: 10, longitude: 20, locationDescription: "stored by mymap add",
      category: "Park", date: Date(timeIntervalSince1970: 1_764_000_000 + 86_400))
    try scratch.store.add(uuid)
    let undated = Location(id: "undated", latitude: 1, longitude: 2, locationDescription: "no date")
    try scratch.store.add(undated)

    var sameContentOtherID = derived("stored by mymap add")
    sameContentOtherID.id += "-2"
    let incoming: [(Location, Bool)] = [
      (storePlace("given", "other content, same given id"), true),  // duplicate: same id
      (
        Location(
          id: "new-given", latitude: 10, longitude: 20, locationDescription: "stored by mymap add",
          category: "Park", date: uuid.date), true
      ),  // added: a given id is compared by id only
      (derived("stored by mymap add"), false),  // duplicate: same content as the uuid place
      (sameContentOtherID, false),  // duplicate: same content, whatever the derived id
      (derived("no date", day: nil, latitude: 1, longitude: 2), false),  // duplicate: both undated
      (derived("no date", day: 2, latitude: 1, longitude: 2), false),  // added: the date differs
      (derived("new"), false),  // added
      (derived("new"), false),  // duplicate of the one before, in the same import
      (storePlace("twice", "a"), true),  // added
      (storePlace("twice", "b"), true),  // duplicate of the one before
    ]
    let summary = try scratch.store.importLocations(
      incoming.map(\.0), idsWereGiven: incoming.map(\.1), dryRun: false)
    XCTAssertEqual(summary, ImportSummary(added: 4, duplicates: 6))
    XCTAssertEqual(try scratch.store.count(), 3 + 4)
    XCTAssertEqual(try scratch.store.location(id: "given")?.locationDescription, "stored with a given id")
    XCTAssertEqual(try scratch.store.location(id: "twice")?.locationDescription, "a")
    XCTAssertNotNil(try scratch.store.location(id: "new-given"))
    XCTAssertNotNil(try scratch.store.location(id: derived("new").id))

    // Importing the same again adds nothing.
    let again = try scratch.store.importLocations(
      incoming.map(\.0), idsWereGiven: incoming.map(\.1), dryRun: false)
    XCTAssertEqual(again, ImportSummary(added: 0, duplicates: 10))
  }

  func testAnEmptyFlagListMeansEveryIDWasGiven() throws {
    let scratch = try ScratchStore()
    try scratch.store.add(storePlace("a", "x"))
    let summary = try scratch.store.importLocations(
      [storePlace("b", "x"), storePlace("a", "y")], idsWereGiven: [], dryRun: false)
    XCTAssertEqual(summary, ImportSummary(added: 1, duplicates: 1))
    guard
      case .failed? = storeError({
        _ = try scratch.store.importLocations([storePlace("c")], idsWereGiven: [true, false], dryRun: false)
      })
    else {
      return XCTFail("a flag list of the wrong length should fail")
    }
    XCTAssertEqual(try scratch.store.count(), 2)
  }

  func testDryRunCountsButChangesNothing() throws {
    let scratch = try ScratchStore()
    try scratch.store.add(storePlace("a"))
    let places = [storePlace("a"), storePlace("b"), derived("c"), derived("c")]
    let flags = [true, true, false, false]
    let before = try scratch.store.locations()
    let dry = try scratch.store.importLocations(places, idsWereGiven: flags, dryRun: true)
    XCTAssertEqual(dry, ImportSummary(added: 2, duplicates: 2))
    XCTAssertEqual(try scratch.store.locations(), before)
    XCTAssertEqual(try scratch.store.importLocations(places, idsWereGiven: flags, dryRun: false), dry)
    XCTAssertEqual(try scratch.store.count(), 3)
  }

  func testOneBadPlaceImportsNothing() throws {
    let scratch = try ScratchStore()
    var places = (1...50).map { (day: Int) in storePlace("p\(day)", day: day) }
    places.append(Location(id: "broken", latitude: .nan, longitude: 0))
    let error = storeError {
      _ = try scratch.store.importLocations(places, idsWereGiven: places.map { _ in true }, dryRun: false)
    }
    XCTAssertEqual(
      error?.description, "location 51: place 'broken': latitude nan is not a finite number")
    XCTAssertEqual(try scratch.store.count(), 0)
  }

  /// Not timed: twenty thousand places go in as one transaction, and the counts add up.
  func testTwentyThousandPlaces() throws {
    let scratch = try ScratchStore()
    var generator = SeededGenerator(seed: 20_000)
    let categories = Category.names
    var places: [Location] = []
    var flags: [Bool] = []
    for index in 0..<20_000 {
      let given = index % 2 == 0
      let place = Location(
        id: given ? "place-\(index)" : nil, latitude: generator.double(in: -80..<80),
        longitude: generator.double(in: -180..<180), locationDescription: "Place \(index)",
        category: categories[index % categories.count],
        date: index % 100 == 0 ? nil : Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60))
      places.append(place)
      flags.append(given)
    }
    let summary = try scratch.store.importLocations(places, idsWereGiven: flags, dryRun: false)
    XCTAssertEqual(summary, ImportSummary(added: 20_000, duplicates: 0))
    XCTAssertEqual(try scratch.store.count(), 20_000)
    let parks = places.filter { $0.category == "Park" }.count
    XCTAssertEqual(try scratch.store.count(LocationFilter(categories: ["park"])), parks)
    let since = Date(timeIntervalSince1970: 1_700_000_000 + 10_000 * 60)
    XCTAssertEqual(
      try scratch.store.count(LocationFilter(since: since)),
      places.filter { ($0.date ?? .distantPast) >= since }.count)
    var streamed = 0
    var previous = -Double.infinity
    try scratch.store.forEach(LocationFilter(since: since)) { place in
      streamed += 1
      XCTAssertGreaterThanOrEqual(place.date!.timeIntervalSince1970, previous)
      previous = place.date!.timeIntervalSince1970
    }
    XCTAssertEqual(streamed, 9_900)

    let again = try scratch.store.importLocations(places, idsWereGiven: flags, dryRun: false)
    XCTAssertEqual(again, ImportSummary(added: 0, duplicates: 20_000))
  }
}
