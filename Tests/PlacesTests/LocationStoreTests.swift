import Foundation
import Places
import TestSupport
import XCTest

/// A store in a fresh temporary folder, removed with the folder.
final class ScratchStore {
  let folder: TemporaryDirectory
  let store: LocationStore
  var path: String { store.path }

  init(name: String = "locations.sqlite") throws {
    folder = try TemporaryDirectory(prefix: "mymap-store-tests")
    store = try LocationStore(path: folder.url(name).path)
  }
}

/// The `LocationStoreError` `body` throws, or a test failure when it throws none (or another error).
func storeError(
  file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) -> LocationStoreError? {
  do {
    try body()
    XCTFail("expected a LocationStoreError", file: file, line: line)
  } catch let error as LocationStoreError {
    return error
  } catch {
    XCTFail("expected a LocationStoreError, got \(error)", file: file, line: line)
  }
  return nil
}

/// A place with a whole-second date (so it survives the round trip through Unix seconds exactly).
func storePlace(
  _ id: String, _ description: String = "", category: String = "Park", day: Int? = 1,
  latitude: Double = 48.8584, longitude: Double = 2.2945
) -> Location {
  Location(
    id: id, latitude: latitude, longitude: longitude, locationDescription: description, category: category,
    date: day.map { Date(timeIntervalSince1970: 1_764_000_000 + Double($0) * 86_400) })
}

final class LocationStoreTests: XCTestCase {
  // MARK: Round trip

  func testEveryFieldRoundTrips() throws {
    let scratch = try ScratchStore()
    let full = Location(
      id: "apple-park", latitude: 37.334_900_12, longitude: -122.009_000_34,
      locationDescription: "Apple Park — 東京タワー, Ελλάδα, ça va? 🍎\nsecond line",
      category: "Landmark", date: Date(timeIntervalSince1970: 1_764_410_400.25),
      placemark: Placemark(
        subThoroughfare: "1", thoroughfare: "Apple Park Way", locality: "Cupertino",
        administrativeArea: "CA", postalCode: "95014", country: "United States"),
      photoPath: "/photos/Photo-1.jpg")
    let partial = Location(
      id: "partial", latitude: -90, longitude: 180, locationDescription: "", category: "Café ☕︎",
      date: nil, placemark: Placemark(locality: "Zürich", postalCode: ""), photoPath: nil)
    let bare = Location(id: "bare", latitude: 0, longitude: -180)
    let nul = Location(id: "with\u{0}nul", latitude: 1, longitude: 2, locationDescription: "a\u{0}b")
    for place in [full, partial, bare, nul] { try scratch.store.add(place) }

    XCTAssertEqual(try scratch.store.location(id: "apple-park"), full)
    XCTAssertEqual(try scratch.store.location(id: "partial"), partial)
    XCTAssertEqual(try scratch.store.location(id: "bare"), bare)
    XCTAssertNil(try scratch.store.location(id: "bare")?.placemark)
    XCTAssertNil(try scratch.store.location(id: "bare")?.date)
    XCTAssertEqual(try scratch.store.location(id: "with\u{0}nul"), nul)
    XCTAssertNil(try scratch.store.location(id: "missing"))

    // A second connection (a later run of mymap) reads the same.
    let reopened = try LocationStore(path: scratch.path, create: false)
    XCTAssertEqual(Set(try reopened.locations()), [full, partial, bare, nul])
  }

  func testCurrentTimeSurvivesWithinAMicrosecond() throws {
    let scratch = try ScratchStore()
    let now = Date()
    try scratch.store.add(Location(id: "now", latitude: 1, longitude: 2, date: now))
    let stored = try XCTUnwrap(scratch.store.location(id: "now")?.date)
    XCTAssertEqual(stored.timeIntervalSince1970, now.timeIntervalSince1970, accuracy: 1e-6)
  }

  func testAnAllNilPlacemarkReadsBackAsNoPlacemark() throws {
    let scratch = try ScratchStore()
    try scratch.store.add(Location(id: "p", latitude: 1, longitude: 2, placemark: Placemark()))
    XCTAssertNil(try scratch.store.location(id: "p")?.placemark)
  }

  // MARK: Writing one place

  func testAddRefusesATakenID() throws {
    let scratch = try ScratchStore()
    try scratch.store.add(storePlace("a", "first"))
    XCTAssertEqual(storeError { try scratch.store.add(storePlace("a", "second")) }, .duplicateID("a"))
    XCTAssertEqual(try scratch.store.location(id: "a")?.locationDescription, "first")
  }

  func testInvalidCoordinatesAreRefused() throws {
    let scratch = try ScratchStore()
    for (latitude, longitude) in [(Double.nan, 0.0), (0, .nan), (90.5, 0), (0, -180.01), (.infinity, 0)] {
      let error = storeError {
        try scratch.store.add(Location(id: "bad", latitude: latitude, longitude: longitude))
      }
      guard case .invalidPlace(let message)? = error else {
        XCTFail("\(latitude), \(longitude): expected invalidPlace, got \(String(describing: error))")
        continue
      }
      XCTAssertTrue(message.contains("place 'bad'"), message)
    }
    XCTAssertEqual(
      storeError { try scratch.store.add(Location(id: "", latitude: 0, longitude: 0)) }?.description,
      "a place needs an id; this one has an empty id")
    let existing = storePlace("ok")
    try scratch.store.add(existing)
    var broken = existing
    broken.latitude = .nan
    guard case .invalidPlace? = storeError({ try scratch.store.update(broken) }) else {
      return XCTFail("update with NaN should be invalidPlace")
    }
    XCTAssertEqual(try scratch.store.location(id: "ok"), existing)
    XCTAssertEqual(try scratch.store.count(), 1)
  }

  func testDatesNoCalendarCanWriteAreRefused() throws {
    let scratch = try ScratchStore()
    for seconds in [1e308, -1e308, 253_402_300_800, -377_705_116_801] {
      let error = storeError {
        try scratch.store.add(
          Location(id: "far", latitude: 0, longitude: 0, date: Date(timeIntervalSince1970: seconds)))
      }
      guard case .invalidPlace(let message)? = error else {
        XCTFail("\(seconds): expected invalidPlace, got \(String(describing: error))")
        continue
      }
      XCTAssertTrue(message.hasPrefix("place 'far': the date ("), message)
      XCTAssertTrue(message.hasSuffix(" is outside the years -9999…9999"), message)
    }
    XCTAssertEqual(try scratch.store.count(), 0)
    let edge = Location(
      id: "edge", latitude: 0, longitude: 0, date: Date(timeIntervalSince1970: 253_402_300_799))
    try scratch.store.add(edge)
    XCTAssertEqual(try scratch.store.location(id: "edge"), edge)
  }

  func testUpdateReplacesEveryFieldAndKnowsUnknownIDs() throws {
    let scratch = try ScratchStore()
    var place = storePlace("a", "before")
    place.placemark = Placemark(locality: "Paris")
    place.photoPath = "photo.jpg"
    try scratch.store.add(place)
    place.locationDescription = "after"
    place.category = "Bar"
    place.latitude = -33.8568
    place.longitude = 151.2153
    place.date = nil
    place.placemark = nil
    place.photoPath = nil
    try scratch.store.update(place)
    XCTAssertEqual(try scratch.store.location(id: "a"), place)
    XCTAssertEqual(storeError { try scratch.store.update(storePlace("nobody")) }, .unknownID("nobody"))
  }

  // MARK: Deleting

  func testDeleteIsAllOrNothing() throws {
    let scratch = try ScratchStore()
    for id in ["a", "b", "c"] { try scratch.store.add(storePlace(id)) }
    XCTAssertEqual(storeError { _ = try scratch.store.delete(ids: ["a", "zzz", "b"]) }, .unknownID("zzz"))
    XCTAssertEqual(try scratch.store.count(), 3)
    XCTAssertEqual(try scratch.store.delete(ids: ["a", "b", "a"]), 2)
    XCTAssertEqual(try scratch.store.locations().map(\.id), ["c"])
    XCTAssertEqual(try scratch.store.delete(ids: []), 0)
    XCTAssertEqual(storeError { _ = try scratch.store.delete(ids: ["a"]) }, .unknownID("a"))
  }

  // MARK: Finding by id

  func testResolveTakesExactIDsAndUniquePrefixes() throws {
    let scratch = try ScratchStore()
    let ids = [
      "3f2a9c10-0000-4000-8000-000000000001", "3f2a9c10-0000-4000-8000-000000000002",
      "7b11e2d4-0000-4000-8000-000000000003", "abc", "a*c[d]?e",
    ]
    for id in ids { try scratch.store.add(storePlace(id)) }
    XCTAssertEqual(try scratch.store.resolve(idOrPrefix: "7b11").id, ids[2])
    XCTAssertEqual(try scratch.store.resolve(idOrPrefix: "7b11e2d4-0000").id, ids[2])
    XCTAssertEqual(try scratch.store.resolve(idOrPrefix: ids[0]).id, ids[0])
    // Short ids are found whole; a prefix needs 4 characters.
    XCTAssertEqual(try scratch.store.resolve(idOrPrefix: "abc").id, "abc")
    XCTAssertEqual(storeError { _ = try scratch.store.resolve(idOrPrefix: "7b1") }, .unknownID("7b1"))
    XCTAssertEqual(storeError { _ = try scratch.store.resolve(idOrPrefix: "ffff") }, .unknownID("ffff"))
    // Ids compare case-sensitively, and GLOB characters in the prefix are literal.
    XCTAssertEqual(storeError { _ = try scratch.store.resolve(idOrPrefix: "7B11") }, .unknownID("7B11"))
    XCTAssertEqual(try scratch.store.resolve(idOrPrefix: "a*c[").id, "a*c[d]?e")
    XCTAssertEqual(storeError { _ = try scratch.store.resolve(idOrPrefix: "a?c[") }, .unknownID("a?c["))

    let ambiguous = storeError { _ = try scratch.store.resolve(idOrPrefix: "3f2a9c10") }
    guard case .invalidPlace(let message)? = ambiguous else {
      return XCTFail("expected ambiguous, got \(String(describing: ambiguous))")
    }
    XCTAssertEqual(
      message,
      "the id '3f2a9c10' is ambiguous: '\(ids[0])', '\(ids[1])' start with it; give more of the id")
  }

  /// The shortest start of an id that names it alone: the longer start shared with either neighbour in id
  /// order, plus one character, and never under the minimum.
  func testUniquePrefixIsLongEnoughToResolve() throws {
    let scratch = try ScratchStore()
    let ids = [
      "3f2a9c10-0000-4000-8000-000000000001", "3f2a9c10-0000-4000-8000-000000000002",
      "3f2a9c17-0000-4000-8000-000000000003", "7b11e2d4-0000-4000-8000-000000000004", "abc",
    ]
    for id in ids { try scratch.store.add(storePlace(id)) }
    let prefixes = try ids.map { try scratch.store.uniquePrefix(of: $0, minimumLength: 8) }
    XCTAssertEqual(
      prefixes,
      [ids[0], ids[1], "3f2a9c17", "7b11e2d4", "abc"])
    // The middle neighbour shares 7 characters with the one before it and none with the one after it.
    XCTAssertEqual(try scratch.store.uniquePrefix(of: ids[2], minimumLength: 4), "3f2a9c17")
    XCTAssertEqual(try scratch.store.uniquePrefix(of: ids[3], minimumLength: 4), "7b11")
    // The first and last ids have a neighbour on one side only; an id not stored gets its own prefix.
    XCTAssertEqual(try scratch.store.uniquePrefix(of: "abc", minimumLength: 1), "a")
    XCTAssertEqual(try scratch.store.uniquePrefix(of: "3f2a9c10-9", minimumLength: 4), "3f2a9c10-9")
    for (id, prefix) in zip(ids, prefixes) {
      XCTAssertEqual(try scratch.store.resolve(idOrPrefix: prefix).id, id)
    }
  }

  func testNewIDsAreLowercaseUUIDs() {
    let id = LocationStore.newID()
    XCTAssertNotNil(UUID(uuidString: id))
    XCTAssertEqual(id, id.lowercased())
    XCTAssertNotEqual(id, LocationStore.newID())
  }

  // MARK: Order

  func testOrders() throws {
    let scratch = try ScratchStore()
    let places = [
      storePlace("p3", category: "Park", day: 3),
      storePlace("b2", category: "Bar", day: 2),
      storePlace("p1", category: "park", day: 1),
      storePlace("none1", category: "Park", day: nil),
      storePlace("l5", category: "Landmark", day: 5),
      storePlace("b2-later-added", category: "Bar", day: 2),
      storePlace("none2", category: "Bar", day: nil),
      storePlace("n4", category: "No Category", day: 4),
    ]
    for place in places { try scratch.store.add(place) }
    // Oldest first; no date first; the same date in the order added.
    XCTAssertEqual(
      try scratch.store.locations().map(\.id),
      ["none1", "none2", "p1", "b2", "b2-later-added", "p3", "n4", "l5"])
    // Sections by category name (Park and park are one), oldest first inside each.
    XCTAssertEqual(
      try scratch.store.locations(order: .categoryThenDate).map(\.id),
      ["none2", "b2", "b2-later-added", "l5", "n4", "none1", "p1", "p3"])
    var streamed: [String] = []
    try scratch.store.forEach(order: .categoryThenDate) { streamed.append($0.id) }
    XCTAssertEqual(streamed, try scratch.store.locations(order: .categoryThenDate).map(\.id))
  }

  // MARK: Filters

  func testFilters() throws {
    let scratch = try ScratchStore()
    let places = [
      storePlace("park1", category: "Park", day: 1),
      storePlace("park2", category: "PARK", day: 2),
      storePlace("bar3", category: "Bar", day: 3),
      storePlace("cafe4", category: "CAFÉ", day: 4),
      storePlace("cafe5", category: "café", day: 5),
      storePlace("undated", category: "Park", day: nil),
    ]
    for place in places { try scratch.store.add(place) }
    func ids(_ filter: LocationFilter, file: StaticString = #filePath, line: UInt = #line) throws -> [String]
    {
      let found = try scratch.store.locations(filter).map(\.id)
      XCTAssertEqual(try scratch.store.count(filter), found.count, "count", file: file, line: line)
      return found
    }
    func day(_ number: Int) -> Date { Date(timeIntervalSince1970: 1_764_000_000 + Double(number) * 86_400) }

    XCTAssertEqual(try ids(.init()), ["undated", "park1", "park2", "bar3", "cafe4", "cafe5"])
    XCTAssertEqual(try ids(.init(categories: ["park"])), ["undated", "park1", "park2"])
    XCTAssertEqual(
      try ids(.init(categories: ["Bar", "PaRk", "park"])), ["undated", "park1", "park2", "bar3"])
    // Beyond ASCII too.
    XCTAssertEqual(try ids(.init(categories: ["Café"])), ["cafe4", "cafe5"])
    XCTAssertEqual(try ids(.init(categories: ["café", "bar"])), ["bar3", "cafe4", "cafe5"])
    XCTAssertEqual(try ids(.init(categories: ["Museum"])), [])
    // Inclusive at both ends; undated places are outside any range.
    XCTAssertEqual(try ids(.init(since: day(2), until: day(4))), ["park2", "bar3", "cafe4"])
    XCTAssertEqual(try ids(.init(since: day(5))), ["cafe5"])
    XCTAssertEqual(try ids(.init(until: day(1))), ["park1"])
    XCTAssertEqual(try ids(.init(since: day(4), until: day(2))), [])
    XCTAssertEqual(try ids(.init(categories: ["park"], since: day(2))), ["park2"])
    XCTAssertEqual(
      try scratch.store.locations(.init(categories: ["park", "bar"]), order: .categoryThenDate).map(\.id),
      ["bar3", "undated", "park1", "park2"])
  }

  // MARK: Streaming

  func testForEachStopsOnTheBodysErrorAndMayReadTheStore() throws {
    struct Stop: Error, Equatable {}
    let scratch = try ScratchStore()
    for day in 1...5 { try scratch.store.add(storePlace("p\(day)", day: day)) }
    var seen: [String] = []
    XCTAssertThrowsError(
      try scratch.store.forEach(LocationFilter()) { place in
        seen.append(place.id)
        XCTAssertEqual(try scratch.store.count(), 5)
        XCTAssertEqual(try scratch.store.location(id: "p5")?.id, "p5")
        if seen.count == 2 { throw Stop() }
      }
    ) { XCTAssertEqual($0 as? Stop, Stop()) }
    XCTAssertEqual(seen, ["p1", "p2"])
    // The statement was finished: the store keeps working.
    XCTAssertEqual(try scratch.store.locations().count, 5)
  }

  // MARK: Messages

  func testErrorMessagesAreOneLine() {
    let errors: [LocationStoreError] = [
      .cannotOpen(path: "/x/locations.sqlite", reason: "the file does not exist"),
      .notAStore(path: "/x/tiles.mbtiles"), .newerSchema(path: "/x/locations.sqlite", version: 7),
      .unknownID("abc"), .duplicateID("abc"),
      .invalidPlace("place 'abc': latitude nan is not a finite number"),
      .failed("disk I/O error"),
    ]
    for error in errors {
      XCTAssertFalse(error.description.contains("\n"), error.description)
      XCTAssertFalse(error.description.isEmpty)
    }
    XCTAssertEqual(LocationStoreError.unknownID("abc").description, "no place with id 'abc'")
    XCTAssertEqual(
      LocationStoreError.newerSchema(path: "/x/l.sqlite", version: 7).description,
      "the places store '/x/l.sqlite' was written by a newer mymap (schema version 7, this mymap knows up to"
        + " 3); update mymap to use it")
  }

  // MARK: Default path

  func testDefaultPath() {
    XCTAssertEqual(
      LocationStore.defaultPath(environment: [
        "MYMAP_HOME": "/data/mymap", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ada",
      ]), "/data/mymap/locations.sqlite")
    XCTAssertEqual(
      LocationStore.defaultPath(environment: ["MYMAP_HOME": "/data/mymap/", "HOME": "/home/ada"]),
      "/data/mymap/locations.sqlite")
    XCTAssertEqual(
      LocationStore.defaultPath(environment: ["MYMAP_HOME": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ada"]
      ),
      "/xdg/mymap/locations.sqlite")
    XCTAssertEqual(
      LocationStore.defaultPath(environment: ["XDG_DATA_HOME": "relative/data", "HOME": "/home/ada"]),
      "/home/ada/.local/share/mymap/locations.sqlite")
    XCTAssertEqual(
      LocationStore.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/home/ada"]),
      "/home/ada/.local/share/mymap/locations.sqlite")
    XCTAssertEqual(
      LocationStore.defaultPath(environment: ["HOME": "/root/"]), "/root/.local/share/mymap/locations.sqlite")
    XCTAssertTrue(
      LocationStore.defaultPath(environment: [:]).hasSuffix("/.local/share/mymap/locations.sqlite"))
  }
}
