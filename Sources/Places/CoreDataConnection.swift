import Foundation
import JSON
import SQLite

/// One column value of the current row of a Core Data store.
struct CoreDataRow {
  let statement: SQLiteStatement

  func isNull(_ column: Int32) -> Bool { statement.isNull(column) }

  /// An INTEGER or REAL value; nil for NULL, text and blobs.
  func number(_ column: Int32) -> Double? {
    switch statement.value(column) {
    case .integer(let value): return Double(value)
    case .real(let value): return value
    default: return nil
    }
  }

  /// An INTEGER value, or a REAL one that is a whole number.
  func integer(_ column: Int32) -> Int64? {
    switch statement.value(column) {
    case .integer(let value): return value
    case .real(let value): return value.rounded() == value && abs(value) < 9e18 ? Int64(value) : nil
    default: return nil
    }
  }

  /// The value as text (a number in SQLite's own spelling); nil for NULL.
  func text(_ column: Int32) -> String? {
    isNull(column) ? nil : statement.string(column)
  }

  /// The value's bytes (a blob, or text as UTF-8); nil for NULL.
  func bytes(_ column: Int32) -> [UInt8]? {
    guard !isNull(column) else { return nil }
    if case .blob(let data) = statement.value(column) { return [UInt8](data) }
    return Array(statement.string(column).utf8)
  }

  /// The value for a message: a number as it is, text quoted, a blob by its size.
  func summary(_ column: Int32) -> String {
    if let number = number(column) { return JSONWriter.numberText(number) }
    return statement.summary(column, quote: { JSONWriter.quotedExcerpt($0) })
  }
}

/// A read-only connection to a store, opened so that the store's folder is left exactly as it was.
///
/// Core Data keeps its stores in WAL mode: committed changes may sit in `DataModel.sqlite-wal` until a
/// checkpoint copies them into the main file, and readers find them through the index in `-shm`. An
/// `SQLITE_OPEN_READONLY` connection to a WAL database still needs a `-shm` it can write (it creates
/// `-wal` and `-shm` when they are missing, and leaves them behind), or `immutable=1`, which ignores the
/// `-wal` entirely. So:
/// 1. no `-wal` with content (the common case: the app's last close checkpointed and removed it, or only
///    the `.sqlite` was copied): open with `immutable=1`; nothing is missed and no file is created;
/// 2. a `-wal` with content and a writable `-shm` beside it (a store the app has open, or all three files
///    copied): open read-only in place; this takes part in the app's locking like any reader, and writes
///    only to the `-shm` index;
/// 3. a `-wal` (or a rollback `-journal`) with content and no usable `-shm`: copy the store and its
///    journal into a private temporary folder and open the copy, where SQLite may rebuild the index or
///    roll back the journal; the copy is removed on close. If even that fails, fall back to 1 with a
///    warning that recent changes may be missing.
final class CoreDataConnection {
  let path: String
  private(set) var warnings: [String] = []
  private var connection: SQLiteConnection?
  private var privateFolder: URL?

  init(path: String) throws(LocationsFileError) {
    self.path = path
    let manager = FileManager.default
    let wal = Self.size(path + "-wal") > 0
    let journal = Self.size(path + "-journal") > 0
    if wal, !journal, manager.isWritableFile(atPath: path + "-shm") {
      if (try? open(path, access: .readOnly)) != nil { return }
    }
    if wal || journal {
      if (try? openPrivateCopy()) != nil { return }
      warnings.append(
        "the store's \(wal ? "-wal" : "-journal") file could not be read; changes the app made since its last"
          + " checkpoint may be missing")
    }
    try open(path, access: .readOnly, immutable: true)
  }

  deinit {
    connection = nil
    if let privateFolder { try? FileManager.default.removeItem(at: privateFolder) }
  }

  /// Names of the tables, upper-cased (SQLite's names are case-insensitive).
  func tableNames() throws(LocationsFileError) -> Set<String> {
    var names: Set<String> = []
    try forEachRow("SELECT name FROM sqlite_master WHERE type = 'table'") { (row: CoreDataRow) in
      if let name = row.text(0) { names.insert(name.uppercased()) }
    }
    return names
  }

  func columnNames(of table: String) throws(LocationsFileError) -> Set<String> {
    var names: Set<String> = []
    try forEachRow("PRAGMA table_info(\(table))") { (row: CoreDataRow) in
      if let name = row.text(1) { names.insert(name.uppercased()) }
    }
    return names
  }

  /// `Z_METADATA.Z_UUID`, when there is one.
  func storeUUID() -> String? {
    var uuid: String?
    try? forEachRow("SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { (row: CoreDataRow) in
      uuid = row.text(0)
    }
    guard let uuid, !uuid.isEmpty else { return nil }
    return uuid
  }

  func forEachRow(_ sql: String, _ body: (CoreDataRow) throws(LocationsFileError) -> Void)
    throws(LocationsFileError)
  {
    guard let connection else { throw .unreadable(file: path, reason: "SQLite: the store is not open") }
    let statement: SQLiteStatement
    do throws(SQLiteError) {
      statement = try connection.fresh(sql)
    } catch {
      throw failure(error)
    }
    defer { statement.finalize() }
    while true {
      let hasRow: Bool
      do throws(SQLiteError) {
        hasRow = try statement.step()
      } catch {
        throw failure(error)
      }
      guard hasRow else { return }
      try body(CoreDataRow(statement: statement))
    }
  }

  private func open(_ file: String, access: SQLiteOptions.Access, immutable: Bool = false)
    throws(LocationsFileError)
  {
    var options = SQLiteOptions(access: access)
    options.immutable = immutable
    options.busyTimeoutMilliseconds = 2_000
    do throws(SQLiteError) {
      // The probe query at open tells whether it is a database SQLite can read (it reads lazily).
      connection = try SQLiteConnection(path: file, options: options)
    } catch {
      throw error.kind == .notADatabase || error.kind == .corrupt
        ? failure(error) : .unreadable(file: path, reason: "SQLite: \(error.message)")
    }
  }

  private func openPrivateCopy() throws {
    let manager = FileManager.default
    let folder = manager.temporaryDirectory.appendingPathComponent("mymap-coredata-\(UUID().uuidString)")
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    privateFolder = folder
    let copy = folder.appendingPathComponent(CoreDataStore.fileName).path
    // The journal first: if the app checkpoints in between, the main file is the newer of the two.
    for suffix in ["-wal", "-journal"] where Self.size(path + suffix) > 0 {
      try manager.copyItem(atPath: path + suffix, toPath: copy + suffix)
    }
    try manager.copyItem(atPath: path, toPath: copy)
    // Read-write, on the private copy only: SQLite may need to roll back a hot journal.
    try open(copy, access: .readWrite)
  }

  private func failure(_ error: SQLiteError) -> LocationsFileError {
    switch error.kind {
    case .notADatabase, .corrupt:
      // The header said SQLite (`checkHeader`), so what follows it is damaged.
      return .unreadable(file: path, reason: "the database is damaged (SQLite: \(error.message))")
    default:
      return .unreadable(file: path, reason: "SQLite: \(error.message)")
    }
  }

  /// The size of a file; 0 when there is none.
  private static func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
  }
}
