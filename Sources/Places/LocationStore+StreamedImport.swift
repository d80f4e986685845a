import Foundation
import JSON
import SQLite

/// What a streamed import did, and what the file said on the way.
public struct StreamedImport: Sendable {
  public var summary: ImportSummary
  /// The places the file holds: imported, or already in the store.
  public var places: Int
  /// The tracks and routes it holds.
  public var tracks = 0
  /// The file's warnings in file order: at most `InputLimits.maximumWarnings`, then one line
  /// that counts the rest.
  public var warnings: [String]
}

/// Why a streamed import stopped (and changed nothing): the file, or the store.
public enum StreamedImportError: Error, Sendable, CustomStringConvertible {
  case file(LocationsFileError)
  case store(LocationStoreError)
  /// `isStopped` said stop after `places` places; nothing was imported.
  case stopped(places: Int)

  public var description: String {
    switch self {
    case .file(let error): error.description
    case .store(let error): error.description
    case .stopped(let places): "stopped after \(places) places; nothing was imported"
    }
  }
}

extension LocationStore {
  /// Imports a CSV file's rows as they are read, in one transaction: every new place, or (on any error
  /// in the file or the store) none. Only one piece of the file and one place are in memory at a time,
  /// with a few bytes per imported place.
  ///
  /// The same places are added and skipped as with `importLocations`: a place with a given id that the
  /// store has is a duplicate, as is a place without one whose position, description and date the store
  /// (or an earlier row) has; an id the file gives twice is an error naming both lines; an id the file
  /// gives wins over the same id derived for a place without one, which gets `-2`, `-3`… instead.
  ///
  /// `each` is given every place of the file in turn, as imported (with its id) or found in the store. A
  /// dry run does all the work, then rolls back. `isStopped` is asked every thousand rows (Ctrl-C): when
  /// it says stop, the import rolls back and throws `stopped`.
  public func importCSV(
    _ source: CSVImportRows, dryRun: Bool = false, each: (Location) -> Void = { _ in },
    isStopped: () -> Bool = { false }
  ) throws(StreamedImportError) -> StreamedImport {
    let rows = ReadAheadRows(source.rows)
    defer { rows.abandon() }
    var ended: StreamedImportError?
    do {
      return try writing(commit: !dryRun) { () throws in
        var importer = try StreamedPlaceImport(store: self, file: source.file, naming: .line, dryRun: dryRun)
        // The file's errors pass through `writing`'s rollback untouched, and come out as they are.
        do {
          while let row = try rows.next() {
            each(try importer.add(row.record, number: row.line, warnings: row.warnings))
            if importer.places % 1_000 == 0 && isStopped() {
              ended = .stopped(places: importer.places)
              throw CancellationError()
            }
          }
        } catch let error as LocationsFileError {
          ended = .file(error)
          throw error
        }
        if let warning = rows.ignoredColumnsWarning { importer.warnings.prepend(warning) }
        return try importer.finish()
      }
    } catch {
      throw ended ?? .store(error)
    }
  }
}

/// How a streamed import's messages name a row of the file: by its line (CSV), or as a numbered record
/// (`location 4`, `feature 4`), as the same file read whole would.
enum RowNaming {
  case line
  case record(noun: String)

  func name(_ number: Int) -> String {
    switch self {
    case .line: "line \(number)"
    case .record(let noun): "\(noun) \(number)"
    }
  }

  func error(file: String, number: Int, message: String) -> LocationsFileError {
    switch self {
    case .line: .invalidLine(file: file, line: number, message: message)
    case .record: .invalidRecord(file: file, record: name(number), message: message)
    }
  }
}

/// The state of one streamed import, inside its transaction.
struct StreamedPlaceImport {
  let store: LocationStore
  let file: String
  let naming: RowNaming
  /// A dry run leaves the dropped indexes to the rollback.
  let dryRun: Bool
  /// The largest rowid before the import: every row above it is this import's, the k-th at `base + 1 + k`
  /// (SQLite gives a new row the largest rowid plus one, and nothing is deleted meanwhile).
  let base: Int
  /// The places the store held before.
  let existing: Int
  /// For each row this import inserted: the line or record number it came from, negative when its id was
  /// derived.
  var origins: [Int32] = []
  var summary = ImportSummary(added: 0, duplicates: 0)
  var places = 0
  var warnings = FileWarnings()
  /// Indexes dropped for a bulk import, made again at the end (nil: not dropped).
  var deferred: [DroppedIndex]?
  /// Whether a bulk import dropped the content index (and has not made it again).
  var contentIndexAway = false
  /// While the content index is away, once a place without an id came: `readContentKeys`, kept up to date.
  var contentKeys: Set<Int>?
  /// This import's places whose derived id has a suffix (rare: the id was taken).
  var suffixedRows = Set<Int>()
  let insert: SQLiteStatement
  let sameContent: SQLiteStatement
  let rowOfID: SQLiteStatement

  init(store: LocationStore, file: String, naming: RowNaming, dryRun: Bool) throws {
    self.store = store
    self.file = file
    self.naming = naming
    self.dryRun = dryRun
    base = try store.integer("SELECT coalesce(max(rowid), 0) FROM location", [], cached: false)
    existing = try store.count(cached: true)
    insert = try store.database.cached(LocationStore.insertSQL)
    sameContent = try store.database.cached(LocationStore.sameContentSQL)
    rowOfID = try store.database.cached("SELECT rowid FROM location WHERE id = ?1")
  }

  /// Imports the place of row `number` (a line, or a record), or finds it in the store; returns the place
  /// with the id it has now.
  mutating func add(_ record: ReadRecord, number: Int, warnings rowWarnings: [String]) throws -> Location {
    do throws(RecordProblem) {
      try RecordCollector.check(record, placesBefore: places)
    } catch {
      throw naming.error(file: file, number: number, message: error.message)
    }
    var location = record.location
    do throws(LocationStoreError) {
      try LocationStore.check(location)
    } catch {
      throw LocationStoreError.invalidPlace("location \(places + 1): \(error.description)")
    }
    places += 1
    for warning in rowWarnings { warnings.append("\(naming.name(number)): \(warning)") }
    try dropIndexesIfBulk()
    let derived = !record.hasOwnID
    if derived, try isKnownPlace(location) {
      summary.duplicates += 1
      return location
    }
    if try !inserted(location) {
      // Taken: by a place the store had (a duplicate), or by one of this file's.
      guard let earlier = try importedRow(location.id) else {
        summary.duplicates += 1
        return location
      }
      if derived {
        // The same place again (found here when the content index is away), or another place of this
        // file (a hash collision) or an id it gave: then the next suffix this file's places leave free.
        if contentIndexAway, try hasContent(of: location, rowid: earlier) {
          summary.duplicates += 1
          return location
        }
        location.id = try freeID(from: location.id, startingAt: 2, taken: { $0 > base })
        guard try inserted(location) else {
          summary.duplicates += 1
          return location
        }
        suffixedRows.insert(base + origins.count + 1)
        contentKeys?.insert(contentHash(location))
        added(number: -number)
        return location
      }
      let owner = origins[earlier - base - 1]
      if owner > 0 {
        throw naming.error(
          file: file, number: number,
          message:
            "duplicate id \(JSONWriter.quotedExcerpt(location.id)) (\(naming.name(Int(owner))) has it too)")
      }
      // A place without an id got this one derived first; the id the file gives wins.
      try moveDerivedPlace(rowid: earlier)
      guard try inserted(location) else { throw LocationStoreError.duplicateID(location.id) }
    }
    if !derived { contentKeys?.insert(contentHash(location)) }
    added(number: derived ? -number : number)
    return location
  }

  private mutating func added(number: Int) {
    origins.append(Int32(clamping: number))
    summary.added += 1
  }

  /// Whether the store (or this file, earlier) has a place with this position, description and date that
  /// is not found through its derived id: through the content index, or while a bulk import has it away,
  /// through `contentKeys`, making the index again (and asking it) only when a key matches.
  private mutating func isKnownPlace(_ location: Location) throws -> Bool {
    if contentIndexAway {
      if contentKeys == nil { contentKeys = try readContentKeys() }
      guard contentKeys!.contains(contentHash(location)) else { return false }
      try makeContentIndexAgain()
    }
    sameContent.reset()
    // Reset at once: a statement left on a row would keep DROP or CREATE INDEX from running.
    defer { sameContent.reset() }
    try sameContent.bind(LocationStore.contentValues(location))
    return try sameContent.step()
  }

  /// Whether the place at `rowid` has `location`'s position, description and date.
  private func hasContent(of location: Location, rowid: Int) throws -> Bool {
    let statement = try store.database.cached(
      "SELECT 1 FROM location WHERE rowid = ?5 AND latitude = ?1 AND longitude = ?2 AND date IS ?3"
        + " AND description = ?4")
    defer { statement.reset() }
    try statement.bind(LocationStore.contentValues(location) + [.integer(Int64(rowid))])
    return try statement.step()
  }

  mutating func finish() throws -> StreamedImport {
    if !dryRun { for index in deferred ?? [] { try store.database.execute(index.sql) } }
    return StreamedImport(summary: summary, places: places, warnings: warnings.lines)
  }

  /// Drops the indexes once the import is large beside the store (see `LocationStore.isBulkImport`), the
  /// content index too: `contentKeys` stands in for it.
  private mutating func dropIndexesIfBulk() throws {
    guard deferred == nil, store.isBulkImport(incoming: places, existing: existing) else { return }
    deferred = try store.dropIndexesForBulkImport(keeping: [])
    contentIndexAway = deferred!.contains { $0.name == LocationStore.contentIndex }
  }

  /// The content of every place that its derived id would not find: the store's, and this file's with a
  /// given or suffixed id (read once, when the first place without an id needs them).
  private func readContentKeys() throws -> Set<Int> {
    var keys = Set<Int>()
    let statement = try store.database.fresh(
      "SELECT rowid, latitude, longitude, description, date FROM location")
    defer { statement.finalize() }
    while try statement.step() {
      let rowid = statement.integer(0)
      if rowid > base && origins[rowid - base - 1] < 0 && !suffixedRows.contains(rowid) { continue }
      keys.insert(
        contentHash(
          latitude: statement.double(1), longitude: statement.double(2), description: statement.string(3),
          dateSeconds: statement.optionalDouble(4)))
    }
    return keys
  }

  /// Makes the content index again now (a content key matched), and leaves the keys.
  private mutating func makeContentIndexAgain() throws {
    contentIndexAway = false
    contentKeys = nil
    guard let index = deferred?.firstIndex(where: { $0.name == LocationStore.contentIndex }) else { return }
    try store.database.execute(deferred![index].sql)
    deferred!.remove(at: index)
  }

  private func inserted(_ location: Location) throws -> Bool {
    insert.reset()
    defer { insert.reset() }
    try insert.bind(LocationStore.values(location))
    try insert.run()
    return store.database.changes > 0
  }

  /// The rowid of the place with `id`, if any.
  private func rowid(of id: String) throws -> Int? {
    rowOfID.reset()
    defer { rowOfID.reset() }
    try rowOfID.bind([.text(id)])
    return try rowOfID.step() ? rowOfID.integer(0) : nil
  }

  /// The rowid of this import's place with `id`, if it has one.
  private func importedRow(_ id: String) throws -> Int? {
    guard let rowid = try rowid(of: id), rowid > base else { return nil }
    return rowid
  }

  /// `id`, else `id-2`, `id-3`… : the first that no place in `taken` (by rowid) has.
  private func freeID(from id: String, startingAt first: Int = 1, taken: (Int) -> Bool) throws -> String {
    var counter = first
    var candidate = counter > 1 ? "\(id)-\(counter)" : id
    while let rowid = try rowid(of: candidate), taken(rowid) {
      counter += 1
      candidate = "\(id)-\(counter)"
    }
    return candidate
  }

  /// Gives the place at `rowid` (whose id was derived) the next free suffix of its derived id.
  private mutating func moveDerivedPlace(rowid: Int) throws {
    let statement = try store.database.fresh(
      "SELECT latitude, longitude, description, date FROM location WHERE rowid = ?1")
    defer { statement.finalize() }
    try statement.bind([.integer(Int64(rowid))])
    guard try statement.step() else { throw LocationStoreError.failed("row \(rowid) vanished during import") }
    let (latitude, longitude) = (statement.double(0), statement.double(1))
    let (description, dateSeconds) = (statement.string(2), statement.optionalDouble(3))
    statement.reset()
    let derivedID = Location.derivedID(
      latitude: latitude, longitude: longitude, locationDescription: description, dateSeconds: dateSeconds)
    let free = try freeID(from: derivedID, startingAt: 2, taken: { _ in true })
    let update = try store.database.fresh("UPDATE location SET id = ?1 WHERE rowid = ?2")
    defer { update.finalize() }
    try update.bind([.text(free), .integer(Int64(rowid))])
    try update.run()
    suffixedRows.insert(rowid)
    contentKeys?.insert(
      contentHash(
        latitude: latitude, longitude: longitude, description: description, dateSeconds: dateSeconds))
  }
}

/// A hash of a place's position, description and date, as the content index compares them (-0 and 0
/// alike), for this process only. Two places with the same content have the same hash; an equal hash is
/// checked in the store.
func contentHash(latitude: Double, longitude: Double, description: String, dateSeconds: Double?) -> Int {
  var hasher = Hasher()
  hasher.combine((latitude + 0).bitPattern)
  hasher.combine((longitude + 0).bitPattern)
  hasher.combine(description)
  hasher.combine(dateSeconds.map { ($0 + 0).bitPattern })
  return hasher.finalize()
}

func contentHash(_ location: Location) -> Int {
  contentHash(
    latitude: location.latitude, longitude: location.longitude, description: location.locationDescription,
    dateSeconds: location.date?.timeIntervalSince1970)
}
