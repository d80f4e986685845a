import Foundation
import SQLite
import TestSupport
import XCTest

@testable import Places

/// Tracks in the store: the v1 → v2 migration, imports (all or nothing, no duplicates), filters, deletes.
final class TrackStoreTests: XCTestCase {
  private var folder: TemporaryDirectory!

  override func setUpWithError() throws {
    folder = try TemporaryDirectory(prefix: "mymap-track-store")
  }

  override func tearDown() {
    folder = nil
  }

  private func walk(_ name: String, day: Int?, category: String = Category.default.name) -> Track {
    let base = day.map { Date(timeIntervalSince1970: 1_764_000_000 + Double($0) * 86_400) }
    return Track(
      name: name, category: category,
      segments: [
        [
          TrackPoint(latitude: 60.17, longitude: 24.94, elevation: 10, time: base),
          TrackPoint(latitude: 60.18, longitude: 24.95, time: base?.addingTimeInterval(3600)),
        ]
      ])
  }

  func testAVersionOneStoreMigratesAndKeepsItsPlaces() throws {
    let file = folder.url("v1.sqlite").path
    // A store as the previous mymap made it: schema 1 only.
    let old = try LocationStore(path: file, create: true, migrations: [StoreSchema.migrations[0]])
    try old.add(storePlace("kept", "Eiffel Tower"))
    let version = try old.withDatabase { try $0.rows("PRAGMA user_version").first?.first }
    XCTAssertEqual(version, .integer(1))
    let store = try LocationStore(path: file)
    XCTAssertEqual(try store.location(id: "kept")?.locationDescription, "Eiffel Tower")
    XCTAssertEqual(try store.trackSummaries(), [])
    try store.add(walk("Morning", day: 1))
    XCTAssertEqual(try store.tracks().map(\.name), ["Morning"])
    let migrated = try store.withDatabase { try $0.rows("PRAGMA user_version").first?.first }
    XCTAssertEqual(migrated, .integer(Int64(StoreSchema.latestVersion)))
  }

  func testImportStoresTracksOnceAndReadsThemBack() throws {
    let store = try LocationStore(path: folder.url("s.sqlite").path)
    let tracks = [walk("Morning", day: 1), walk("Evening", day: 2)]
    let set = LocationSet(locations: [storePlace("p1")], tracks: tracks)
    XCTAssertEqual(
      try store.importSet(set, dryRun: false),
      ImportSummary(added: 1, duplicates: 0, tracksAdded: 2, trackDuplicates: 0))
    XCTAssertEqual(
      try store.importSet(set, dryRun: false),
      ImportSummary(added: 0, duplicates: 1, tracksAdded: 0, trackDuplicates: 2))
    XCTAssertEqual(try store.tracks(), tracks)
    let summary = try XCTUnwrap(try store.trackSummaries().first)
    XCTAssertEqual(summary.pointCount, 2)
    XCTAssertEqual(summary.lengthMeters, tracks[0].lengthMeters, accuracy: 1e-6)
    XCTAssertEqual(summary.lengthMeters, 1_241.9, accuracy: 0.1)
    XCTAssertEqual(summary.start, tracks[0].timeSpan?.lowerBound)
    XCTAssertEqual(summary.end, tracks[0].timeSpan?.upperBound)
  }

  func testADryRunAndABadTrackChangeNothing() throws {
    let store = try LocationStore(path: folder.url("s.sqlite").path)
    let dry = try store.importSet(LocationSet(tracks: [walk("A", day: 1)]), dryRun: true)
    XCTAssertEqual(dry.tracksAdded, 1)
    XCTAssertEqual(try store.trackSummaries(), [])
    var bad = walk("Bad", day: 1)
    bad.segments[0][1].latitude = .nan
    let set = LocationSet(locations: [storePlace("p1")], tracks: [walk("Good", day: 1), bad])
    XCTAssertThrowsError(try store.importSet(set, dryRun: false)) { error in
      XCTAssertEqual(
        "\(error)", "track 2: track '\(bad.id)': the point nan,24.95 is not a valid coordinate")
    }
    XCTAssertEqual(try store.count(), 0)
    XCTAssertEqual(try store.trackSummaries(), [])
  }

  func testFiltersByCategoryAndOverlappingTime() throws {
    let store = try LocationStore(path: folder.url("s.sqlite").path)
    _ = try store.importSet(
      LocationSet(tracks: [
        walk("Day 1", day: 1, category: "Park"), walk("Day 3", day: 3), walk("No time", day: nil),
      ]), dryRun: false)
    let day = { (day: Int) in Date(timeIntervalSince1970: 1_764_000_000 + Double(day) * 86_400) }
    XCTAssertEqual(try store.tracks(.init(categories: ["park"])).map(\.name), ["Day 1"])
    // The first track runs from day 1 to an hour later: a range inside that hour overlaps it.
    let inside = LocationFilter(since: day(1).addingTimeInterval(600), until: day(1).addingTimeInterval(900))
    XCTAssertEqual(try store.tracks(inside).map(\.name), ["Day 1"])
    XCTAssertEqual(try store.trackSummaries(.init(since: day(2))).map(\.name), ["Day 3"])
    XCTAssertEqual(try store.trackSummaries().map(\.name), ["No time", "Day 1", "Day 3"])
  }

  func testResolveAndDeleteAllOrNothing() throws {
    let store = try LocationStore(path: folder.url("s.sqlite").path)
    let track = walk("A", day: 1)
    try store.add(track)
    try store.add(storePlace("place-1"))
    XCTAssertEqual(try store.resolveTrack(idOrPrefix: String(track.id.prefix(8)))?.id, track.id)
    XCTAssertNil(try store.resolveTrack(idOrPrefix: "nope"))
    XCTAssertThrowsError(try store.delete(placeIDs: ["place-1"], trackIDs: [track.id, "missing"]))
    XCTAssertEqual(try store.count(), 1)
    XCTAssertEqual(try store.trackSummaries().count, 1)
    let deleted = try store.delete(placeIDs: ["place-1"], trackIDs: [track.id])
    XCTAssertEqual(deleted.places, 1)
    XCTAssertEqual(deleted.tracks, 1)
    XCTAssertEqual(try store.trackSummaries(), [])
  }

  func testDamagedPointsAreAnErrorNotACrash() throws {
    let store = try LocationStore(path: folder.url("s.sqlite").path)
    try store.add(walk("A", day: 1))
    let magic: [UInt8] = Array("MTP1".utf8)
    let hostile: [[UInt8]] = [
      [], magic, magic + [0xFF, 0xFF, 0xFF, 0x7F],
      // Two segments claiming 4 billion points each, and a point of latitude 1000.
      magic + [2, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF] + [0xFF, 0xFF, 0xFF, 0xFF],
      magic + [1, 0, 0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 6) + [0x8F, 0x40]
        + [UInt8](repeating: 0, count: 24),
    ]
    for blob in hostile.map({ Data($0) }) {
      try store.withDatabase { database in
        let statement = try database.fresh("UPDATE track SET points = ?")
        defer { statement.finalize() }
        try statement.bind([.blob(blob)])
        try statement.run()
      }
      XCTAssertThrowsError(try store.tracks()) { error in
        XCTAssertTrue("\(error)".contains("are damaged"), "\(error)")
      }
    }
  }
}
