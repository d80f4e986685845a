import CSQLite
import Foundation

/// A value bound to a statement parameter; nil binds NULL.
enum StoreSQLValue {
  case integer(Int)
  case real(Double?)
  case text(String?)
}

/// One read-write SQLite connection for the `LocationStore`, with its cache of prepared statements.
///
/// Not `Sendable` and not locked: the handle is an `OpaquePointer` opened with `SQLITE_OPEN_NOMUTEX`, and
/// its one owner (`LocationStore`) serializes every use behind its own lock.
final class StoreDatabase {
  let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]

  /// Opens `path` for reading and writing, creating the file when `create` is true; or only for reading.
  /// `immutable`: read without the WAL's shared-memory file, for a store on a read-only or full disk where
  /// that file cannot be made (nothing else can be writing such a store).
  init(path: String, create: Bool, readOnly: Bool = false, immutable: Bool = false) throws(LocationStoreError)
  {
    var opened: OpaquePointer?
    var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
    flags |= SQLITE_OPEN_NOMUTEX
    var name = path
    if immutable {
      flags |= SQLITE_OPEN_URI
      name = SQLiteURI.immutable(path)
    }
    let status = sqlite3_open_v2(name, &opened, flags, nil)
    guard status == SQLITE_OK, let opened else {
      let message =
        opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close_v2(opened)
      throw .failed(message)
    }
    handle = opened
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements that return no rows the caller needs.
  func execute(_ sql: String) throws(LocationStoreError) {
    let status = sqlite3_exec(handle, sql, nil, nil, nil)
    guard status == SQLITE_OK else { throw failure(status) }
  }

  /// The first column of the first row of `sql` as text (nil when there is no row or it is NULL).
  func text(_ sql: String) throws(LocationStoreError) -> String? {
    let statement = try cached(sql)
    defer { statement.reset() }
    return try statement.step() ? statement.optionalString(0) : nil
  }

  /// The first column of the first row of `sql` as an integer (0 when there is no row). `cache` false
  /// for SQL built from user input (a filter), which should not pile up in the cache.
  func integer(_ sql: String, _ values: [StoreSQLValue] = [], cache: Bool = true) throws(LocationStoreError)
    -> Int
  {
    let statement = try cache ? cached(sql) : fresh(sql)
    defer { cache ? statement.reset() : statement.finalize() }
    try statement.bind(values)
    return try statement.step() ? statement.integer(0) : 0
  }

  /// A prepared statement kept for reuse until the connection closes, reset and unbound. Use it to
  /// completion before anything else asks for the same SQL (every caller here does, while holding the
  /// store's lock). Only for SQL from a small fixed set: never evicted, so a statement a caller holds
  /// stays valid while it asks for others.
  func cached(_ sql: String) throws(LocationStoreError) -> StoreStatement {
    if let statement = statements[sql] {
      let reused = StoreStatement(handle: statement, database: self)
      reused.reset()
      return reused
    }
    let statement = try prepare(sql)
    statements[sql] = statement
    return StoreStatement(handle: statement, database: self)
  }

  private func prepare(_ sql: String) throws(LocationStoreError) -> OpaquePointer {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw failure(status)
    }
    return statement
  }

  /// A statement of its own, for a query that runs while other calls may use the cached ones (the
  /// body of `forEach`); the caller finalizes it.
  func fresh(_ sql: String) throws(LocationStoreError) -> StoreStatement {
    StoreStatement(handle: try prepare(sql), database: self)
  }

  /// How long a call waits for another connection's lock before failing with `SQLITE_BUSY`.
  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// Whether a transaction is open (autocommit is off).
  var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …) of the last failed call.
  var lastErrorCode: Int32 { sqlite3_errcode(handle) & 0xFF }

  /// `.failed` with SQLite's message; for `SQLITE_BUSY` (after the busy timeout) a message saying so.
  func failure(_ status: Int32) -> LocationStoreError {
    let message = String(cString: sqlite3_errmsg(handle))
    if status & 0xFF == SQLITE_BUSY {
      return .failed("another program kept the store locked for too long (\(message)); try again")
    }
    return .failed(message)
  }

  /// Registers `mymap_casefold(text)`: Swift's `lowercased()`, for category filters with letters beyond
  /// ASCII (SQLite's NOCASE folds only A–Z). Only this connection knows it, so the schema never uses it.
  func registerCaseFold() throws(LocationStoreError) {
    let status = sqlite3_create_function_v2(
      handle, "mymap_casefold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
      { context, _, values in
        guard let value = values?[0], let text = sqlite3_value_text(value) else {
          sqlite3_result_null(context)
          return
        }
        let count = Int(sqlite3_value_bytes(value))
        let folded = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
          .lowercased()
        sqlite3_result_text(context, folded, Int32(folded.utf8.count), storeSQLiteTransient)
      }, nil, nil, nil)
    guard status == SQLITE_OK else { throw failure(status) }
  }
}

/// `SQLITE_TRANSIENT` (`(sqlite3_destructor_type)-1`) does not import into Swift: it tells SQLite to copy
/// the bytes before the call returns. Computed, not stored: a global of this type is not `Sendable`.
var storeSQLiteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

/// A prepared statement of a `StoreDatabase`: binding, stepping and reading columns.
struct StoreStatement {
  let handle: OpaquePointer
  unowned let database: StoreDatabase

  /// Frees a statement from `StoreDatabase.fresh`.
  func finalize() {
    sqlite3_finalize(handle)
  }

  /// Clears the bindings and rewinds, so the statement can run again.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds `values` to parameters 1, 2, ….
  func bind(_ values: [StoreSQLValue]) throws(LocationStoreError) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .integer(let number):
        status = sqlite3_bind_int64(handle, index, Int64(number))
      case .real(let number?):
        status = sqlite3_bind_double(handle, index, number)
      case .text(let text?):
        // The length is given, so text with NUL characters in it is stored whole.
        status = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), storeSQLiteTransient)
      case .real(nil), .text(nil):
        status = sqlite3_bind_null(handle, index)
      }
      guard status == SQLITE_OK else { throw database.failure(status) }
    }
  }

  /// Steps once: true when a row is ready, false when the statement is done.
  func step() throws(LocationStoreError) -> Bool {
    let status = sqlite3_step(handle)
    if status == SQLITE_ROW { return true }
    if status == SQLITE_DONE { return false }
    throw database.failure(status)
  }

  /// Steps a statement that returns no rows.
  func run() throws(LocationStoreError) {
    _ = try step()
  }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

  /// The column as text (an empty string for NULL); reads by length, so NUL characters survive.
  func string(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
}
