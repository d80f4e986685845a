import Foundation
import SQLite
import TestSupport
import XCTest

@testable import Places

/// The bulk path of `importLocations` (secondary indexes dropped, then built again), reached with a low
/// threshold instead of 50,000 places.
final class LocationStoreBulkImportTests: XCTestCase {
  private func indexes(_ store: LocationStore) throws -> [String] {
    try store.withDatabase { database in
      let statement = try database.fresh(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = 'location'"
          + " ORDER BY name")
      defer { statement.finalize() }
      var names: [String] = []
      while try statement.step() { names.append(statement.string(0)) }
      return names
    }
  }

  private func places(_ count: Int, derived: Bool) -> [Location] {
    var result: [Location] = []
    for index in 0..<count {
      let step = Double(index)
      result.append(
        Location(
          id: derived ? nil : "bulk-\(index)", latitude: step / 10, longitude: -step / 10,
          locationDescription: "Place \(index)", category: index % 3 == 0 ? "Park" : "Bar",
          date: Date(timeIntervalSince1970: 1_764_000_000 - step * 3_600)))
    }
    return result
  }

  func testABulkImportRebuildsEveryIndex() throws {
    let scratch = try ScratchStore()
    scratch.store.bulkImportThreshold = 10
    let before = try indexes(scratch.store)
    XCTAssertEqual(before, ["location_category_date", "location_content", "location_date"])
    for derived in [false, true] {
      let incoming = places(30, derived: derived)
      let flags = Array(repeating: !derived, count: incoming.count)
      let summary = try scratch.store.importLocations(incoming, idsWereGiven: flags, dryRun: false)
      // The second import (derived ids, same content) finds every place through the content index.
      XCTAssertEqual(
        summary, derived ? ImportSummary(added: 0, duplicates: 30) : ImportSummary(added: 30, duplicates: 0))
      XCTAssertEqual(try indexes(scratch.store), before)
    }
    XCTAssertEqual(try scratch.store.count(LocationFilter(categories: ["park"])), 10)
    XCTAssertEqual(try scratch.store.locations().first?.id, "bulk-29")
  }

  func testABulkDryRunLeavesTheIndexesAndRows() throws {
    let scratch = try ScratchStore()
    scratch.store.bulkImportThreshold = 10
    try scratch.store.add(storePlace("existing"))
    for derived in [false, true] {
      let incoming = places(30, derived: derived)
      let summary = try scratch.store.importLocations(
        incoming, idsWereGiven: Array(repeating: !derived, count: 30), dryRun: true)
      XCTAssertEqual(summary, ImportSummary(added: 30, duplicates: 0))
      XCTAssertEqual(
        try indexes(scratch.store), ["location_category_date", "location_content", "location_date"])
      XCTAssertEqual(try scratch.store.locations().map(\.id), ["existing"])
    }
  }

  func testAStoreAsLargeAsTheImportKeepsItsIndexes() throws {
    let scratch = try ScratchStore()
    scratch.store.bulkImportThreshold = 10
    let incoming = places(30, derived: false)
    _ = try scratch.store.importLocations(incoming, idsWereGiven: [], dryRun: false)
    // Importing the same file again: nothing to add, so nothing is rebuilt (and nothing breaks).
    let again = try scratch.store.importLocations(incoming, idsWereGiven: [], dryRun: false)
    XCTAssertEqual(again, ImportSummary(added: 0, duplicates: 30))
    XCTAssertEqual(
      try indexes(scratch.store), ["location_category_date", "location_content", "location_date"])
  }
}
