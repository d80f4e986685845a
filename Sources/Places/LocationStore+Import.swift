import Foundation
import SQLite

// MARK: - Importing many places at once

extension LocationStore {
  /// Adds places in one transaction: every new place, or (on any error) none.
  ///
  /// A place the store already has is skipped and counted as a duplicate: one with the same id, or, when
  /// the place's id was derived rather than given (`idsWereGiven[i]` false, for a file without ids), one
  /// with the same latitude, longitude, description and date. This includes places earlier in the same
  /// import. `idsWereGiven` is parallel to `locations`; an empty array means every id was given. A dry run
  /// does all the work, then rolls back, so the summary is exact and the store is unchanged.
  public func importLocations(_ locations: [Location], idsWereGiven: [Bool], dryRun: Bool)
    throws(LocationStoreError) -> ImportSummary
  {
    try Self.checkForImport(locations, idsWereGiven: idsWereGiven)
    return try writing(commit: !dryRun) { () throws in
      try insertLocations(locations, idsWereGiven: idsWereGiven, dryRun: dryRun)
    }
  }

  /// Throws for flags that do not match the places, or a place the store cannot hold (naming it).
  static func checkForImport(_ locations: [Location], idsWereGiven: [Bool]) throws(LocationStoreError) {
    guard idsWereGiven.isEmpty || idsWereGiven.count == locations.count else {
      throw LocationStoreError.failed(
        "importLocations needs one idsWereGiven flag per place (\(idsWereGiven.count) flags for"
          + " \(locations.count) places)")
    }
    for (index, location) in locations.enumerated() {
      do throws(LocationStoreError) {
        try Self.check(location)
      } catch {
        throw LocationStoreError.invalidPlace("location \(index + 1): \(error.description)")
      }
    }
  }

  /// The inserts of `importLocations`, inside the caller's transaction.
  func insertLocations(_ locations: [Location], idsWereGiven: [Bool], dryRun: Bool) throws -> ImportSummary {
    let derivedIDs = idsWereGiven.contains(false)
    // The content index answers the duplicate question for derived ids, so it stays.
    var deferred: [DroppedIndex] = []
    if locations.count >= bulkImportThreshold,
      isBulkImport(incoming: locations.count, existing: try count(cached: true))
    {
      deferred = try dropIndexesForBulkImport(keeping: derivedIDs ? [Self.contentIndex] : [])
    }
    let insert = try database.cached(Self.insertSQL)
    let sameContent = try database.cached(Self.sameContentSQL)
    var summary = ImportSummary(added: 0, duplicates: 0)
    for (index, location) in locations.enumerated() {
      if !idsWereGiven.isEmpty && !idsWereGiven[index] {
        sameContent.reset()
        try sameContent.bind(Self.contentValues(location))
        if try sameContent.step() {
          summary.duplicates += 1
          continue
        }
      }
      insert.reset()
      try insert.bind(Self.values(location))
      try insert.run()
      if database.changes == 0 {
        summary.duplicates += 1
      } else {
        summary.added += 1
      }
    }
    sameContent.reset()
    insert.reset()
    if !dryRun {
      for index in deferred { try database.execute(index.sql) }
    }
    return summary
  }

  /// The index that finds a place with the same content (for files without ids).
  static let contentIndex = "location_content"
  /// Is there a place with this content (`contentValues`)?
  static let sameContentSQL =
    "SELECT 1 FROM location WHERE latitude = ?1 AND longitude = ?2 AND date IS ?3 AND description = ?4 LIMIT 1"

  /// What makes two places "the same place" for an import without ids: ?1 to ?4 of `sameContentSQL`.
  static func contentValues(_ location: Location) -> [SQLiteValue] {
    [
      .real(location.latitude), .real(location.longitude), .real(location.date?.timeIntervalSince1970),
      .text(location.locationDescription),
    ]
  }

  /// The places in the store.
  func count(cached: Bool) throws(SQLiteError) -> Int {
    try integer("SELECT count(*) FROM location", [], cached: cached)
  }

  /// Whether an import is large enough beside the store that dropping the indexes and making them again
  /// at the end is faster than keeping them up to date row by row.
  func isBulkImport(incoming: Int, existing: Int) -> Bool {
    incoming >= bulkImportThreshold && existing <= incoming / 2
  }

  /// For a bulk import, drops the location table's indexes (except the primary key and `kept`) inside
  /// the import's transaction, and returns them with the SQL that makes them again. A rollback brings them
  /// back.
  func dropIndexesForBulkImport(keeping kept: Set<String>) throws(SQLiteError) -> [DroppedIndex] {
    // Read from sqlite_master, so indexes added by later migrations are rebuilt as they were defined.
    let statement = try database.fresh(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'location' AND sql IS NOT NULL"
    )
    var indexes: [DroppedIndex] = []
    do throws(SQLiteError) {
      while try statement.step() {
        let name = statement.string(0)
        if !kept.contains(name) { indexes.append(DroppedIndex(name: name, sql: statement.string(1))) }
      }
    } catch {
      statement.finalize()
      throw error
    }
    statement.finalize()
    for index in indexes {
      try database.execute("DROP INDEX \"\(index.name.replacingOccurrences(of: "\"", with: "\"\""))\"")
    }
    return indexes
  }
}

/// An index a bulk import dropped, and the SQL that makes it again.
struct DroppedIndex {
  var name: String
  var sql: String
}
