import CSQLite
import Foundation

/// One read-only SQLite connection and its prepared tile statement.
///
/// `@unchecked Sendable`: the connection and the statements are touched only while `lock` is held, so
/// reads from several threads are serialized (the connection is opened with `SQLITE_OPEN_NOMUTEX`, so
/// this lock is the only one).
final class SQLiteFile: @unchecked Sendable {
  let path: String
  private let lock = NSLock()
  private let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]

  /// Opens `path` read-only. Throws `TileSourceError` when it cannot be opened or is not SQLite.
  init(path: String) throws {
    self.path = path
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let opened else {
      let reason =
        opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(opened)
      throw TileSourceError.unreadable(path, reason)
    }
    handle = opened
    sqlite3_busy_timeout(handle, 2_000)
    // SQLite reads the header lazily: the first query tells whether this is a database at all.
    _ = try rows("SELECT name FROM sqlite_master LIMIT 1")
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close(handle)
  }

  /// True when the file starts with the SQLite header ("SQLite format 3\0").
  static func hasHeader(path: String) -> Bool {
    guard let file = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? file.close() }
    let header = (try? file.read(upToCount: 16)) ?? Data()
    return header == Data("SQLite format 3\0".utf8)
  }

  /// Runs a query, returning every row as text columns (NULL as nil).
  func rows(_ sql: String, _ parameters: [Int] = []) throws -> [[String?]] {
    try withStatement(sql, parameters) { statement in
      var result: [[String?]] = []
      while try step(statement) {
        result.append(
          (0..<sqlite3_column_count(statement)).map { column in
            sqlite3_column_text(statement, column).map { String(cString: $0) }
          })
      }
      return result
    }
  }

  /// Runs a query and returns the first column of the first row as bytes; nil when there is no row.
  func blob(_ sql: String, _ parameters: [Int]) throws -> Data? {
    try withStatement(sql, parameters) { statement in
      guard try step(statement) else { return nil }
      let count = Int(sqlite3_column_bytes(statement, 0))
      guard let bytes = sqlite3_column_blob(statement, 0), count > 0 else { return Data() }
      return Data(bytes: bytes, count: count)
    }
  }

  /// Prepares (once) and runs `sql` with integer parameters under the lock; resets the statement after.
  private func withStatement<T>(_ sql: String, _ parameters: [Int], _ body: (OpaquePointer) throws -> T)
    throws -> T
  {
    lock.lock()
    defer { lock.unlock() }
    let statement: OpaquePointer
    if let prepared = statements[sql] {
      statement = prepared
    } else {
      var prepared: OpaquePointer?
      let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
      guard status == SQLITE_OK, let prepared else {
        sqlite3_finalize(prepared)
        throw error(status)
      }
      statements[sql] = prepared
      statement = prepared
    }
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (index, value) in parameters.enumerated() {
      sqlite3_bind_int64(statement, Int32(index + 1), Int64(value))
    }
    return try body(statement)
  }

  /// Steps once: true for a row, false when done.
  private func step(_ statement: OpaquePointer) throws -> Bool {
    let status = sqlite3_step(statement)
    if status == SQLITE_ROW { return true }
    if status == SQLITE_DONE { return false }
    throw error(status)
  }

  private func error(_ status: Int32) -> TileSourceError {
    if status & 0xFF == SQLITE_NOTADB { return .notAnSQLiteDatabase(path) }
    return .unreadable(path, String(cString: sqlite3_errmsg(handle)))
  }
}
