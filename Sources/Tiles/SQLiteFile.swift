import CSQLite
import FileSystem
import Foundation

/// A value bound to a statement parameter or read from a result column.
enum SQLiteValue: Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  var integer: Int? {
    if case .integer(let value) = self { return Int(value) }
    return nil
  }

  /// A REAL column (an INTEGER one too: SQLite stores whole REAL values compactly as integers on disk,
  /// but returns them as REAL; a column written by another tool may hold either).
  var real: Double? {
    switch self {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }
}

/// One SQLite connection with its prepared statements: read-only for tile sources (`MBTilesSource`,
/// `TileCacheInventory`), read-write for the tile caches that fetched tiles are written into.
///
/// `@unchecked Sendable`: the connection and the statements are touched only while `lock` is held, so
/// calls from several threads are serialized (the connection is opened with `SQLITE_OPEN_NOMUTEX`, so
/// this lock is the only one). The lock is recursive so that `transaction` can hold it around the
/// statements its body runs: no other thread's statement can slip into the transaction.
///
/// Errors are those of what the file is used as: `TileSourceError` for a read-only connection,
/// `TileCacheError` for a writable one.
final class SQLiteFile: @unchecked Sendable {
  enum Mode {
    case readOnly
    /// Read-write, created when missing.
    case readWrite
  }

  let path: String
  let mode: Mode
  private let lock = NSRecursiveLock()
  private let handle: OpaquePointer
  /// Bounds the steps of each statement; touched only by statements run under `lock`.
  private let budget: StepBudget
  private var statements: [String: OpaquePointer] = [:]

  /// Opens `path` read-only. Throws `TileSourceError` when it cannot be opened or is not SQLite.
  convenience init(path: String) throws {
    try self.init(path: path, mode: .readOnly)
  }

  /// Opens `path` in `mode`. A writable connection waits up to `busyTimeout` milliseconds for another
  /// connection's lock (another mymap filling the same cache) before failing.
  init(path: String, mode: Mode, busyTimeout milliseconds: Int32? = nil) throws {
    self.path = path
    self.mode = mode
    // SQLite would open a named pipe or a device and then wait, or read, without end.
    let kind = FileKind(path: path)
    if let kind, kind != .regular {
      switch mode {
      case .readOnly: throw TileSourceError.notAFile(path, kind: kind.description)
      case .readWrite: throw TileCacheError.notAnMBTilesFile(path, "it is \(kind)")
      }
    }
    budget = StepBudget(fileBytes: Self.fileSize(path))
    let flags =
      switch mode {
      case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
      case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
      }
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(path, &opened, flags, nil)
    guard status == SQLITE_OK, let opened else {
      let reason =
        opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(opened)
      switch mode {
      case .readOnly: throw TileSourceError.unreadable(path, reason)
      case .readWrite: throw TileCacheError.notWritable(path, reason)
      }
    }
    handle = opened
    sqlite3_busy_timeout(handle, milliseconds ?? (mode == .readOnly ? 2_000 : 10_000))
    budget.install(on: handle)
    sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(TileLimits.maximumSQLiteValueBytes))
    // The file may come from anyone: its views and triggers may not call functions with side effects, and
    // a read-only connection may not write even through a trick of the schema.
    try execute("PRAGMA trusted_schema = OFF" + (mode == .readOnly ? "; PRAGMA query_only = ON" : ""))
    // SQLite reads the header lazily: the first query tells whether this is a database at all.
    _ = try rows("SELECT name FROM sqlite_master LIMIT 1")
    // SQLite quietly opens a write-protected file read-only: the first write would fail much later.
    if mode == .readWrite && sqlite3_db_readonly(handle, "main") == 1 {
      throw TileCacheError.notWritable(path, "the file is read-only")
    }
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    // A transaction still open (none should be: `transaction` always ends its own) is rolled back.
    sqlite3_close_v2(handle)
  }

  /// True when the path is a regular file that starts with the SQLite header ("SQLite format 3\0").
  static func hasHeader(path: String) -> Bool {
    RegularFile.prefix(path, count: 16) == Data("SQLite format 3\0".utf8)
  }

  /// The size of the file at `path` in bytes; 0 when it is missing.
  private static func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
  }

  /// Runs a query, returning every row as text columns (NULL as nil).
  func rows(_ sql: String, _ parameters: [Int] = []) throws -> [[String?]] {
    try withStatement(sql, parameters.map { .integer(Int64($0)) }) { statement in
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
    try withStatement(sql, parameters.map { .integer(Int64($0)) }) { statement in
      guard try step(statement) else { return nil }
      let count = Int(sqlite3_column_bytes(statement, 0))
      guard let bytes = sqlite3_column_blob(statement, 0), count > 0 else { return Data() }
      return Data(bytes: bytes, count: count)
    }
  }

  /// Runs a query, returning every row as typed values.
  func values(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
    try withStatement(sql, parameters) { statement in
      var result: [[SQLiteValue]] = []
      while try step(statement) {
        result.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
      }
      return result
    }
  }

  /// Runs one statement that returns no rows (INSERT, UPDATE, DELETE, CREATE …).
  func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws {
    try withStatement(sql, parameters) { statement in
      while try step(statement) {}
    }
  }

  /// Runs one or more statements without parameters (schema, pragmas), not cached.
  func execute(_ script: String) throws {
    lock.lock()
    defer { lock.unlock() }
    budget.reset()
    let status = sqlite3_exec(handle, script, nil, nil, nil)
    guard status == SQLITE_OK else { throw error(status) }
  }

  /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` takes the write lock first (waiting up to
  /// the busy timeout for another connection's), so the body never fails half-way for want of it; the
  /// transaction commits when the body returns and rolls back when it throws. No other thread's
  /// statement runs on this connection meanwhile.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  /// Prepares (once) and runs `sql` with `parameters` under the lock; resets the statement after.
  private func withStatement<T>(
    _ sql: String, _ parameters: [SQLiteValue], _ body: (OpaquePointer) throws -> T
  ) throws -> T {
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
    budget.reset()
    for (offset, value) in parameters.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null:
        status = sqlite3_bind_null(statement, index)
      case .integer(let number):
        status = sqlite3_bind_int64(statement, index, number)
      case .real(let number):
        status = sqlite3_bind_double(statement, index, number)
      case .text(let text):
        status = sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), sqliteTransient)
      case .blob(let data):
        // An empty buffer may have no address, and binding a nil address stores NULL, not a blob.
        status =
          data.isEmpty
          ? sqlite3_bind_zeroblob(statement, index, 0)
          : data.withUnsafeBytes {
            sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sqliteTransient)
          }
      }
      guard status == SQLITE_OK else { throw error(status) }
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

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let text = sqlite3_column_text(statement, index) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let bytes = sqlite3_column_blob(statement, index), count > 0 else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: count))
    default:
      return .null
    }
  }

  private func error(_ status: Int32) -> Error {
    var message = String(cString: sqlite3_errmsg(handle))
    let code = status & 0xFF
    if code == SQLITE_INTERRUPT && budget.isSpent {
      message = "a query did not finish within \(budget.steps) SQLite steps"
    } else if code == SQLITE_TOOBIG {
      message = "a value in it is larger than \(ByteCount.text(TileLimits.maximumSQLiteValueBytes))"
    }
    switch mode {
    case .readOnly:
      if code == SQLITE_NOTADB { return TileSourceError.notAnSQLiteDatabase(path) }
      if code == SQLITE_INTERRUPT && budget.isSpent {
        return TileSourceError.queryTooLong(path, steps: budget.steps)
      }
      return TileSourceError.unreadable(path, message)
    case .readWrite:
      if code == SQLITE_NOTADB || code == SQLITE_CORRUPT {
        return TileCacheError.databaseFailed(path, "the file is not an SQLite database or is damaged")
      }
      if code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM {
        return TileCacheError.notWritable(path, message)
      }
      if code == SQLITE_BUSY {
        return TileCacheError.databaseFailed(
          path, "another program kept it locked for too long (\(message)); try again")
      }
      return TileCacheError.databaseFailed(path, message)
    }
  }
}

/// `SQLITE_TRANSIENT` (`(sqlite3_destructor_type)-1`) does not import into Swift: it tells SQLite to copy
/// the bytes before the call returns. Computed, not stored: a global of this type is not `Sendable`.
private var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

/// How many virtual-machine steps one statement may take (`TileLimits.sqliteBaseSteps` and
/// `sqliteStepsPerByte`): SQLite calls the progress handler every `interval` steps, and the handler
/// interrupts the statement once the budget is spent. A file's schema can make a query endless (a
/// recursive `tiles` view), and the file may come from anyone.
///
/// `@unchecked Sendable`: `remaining` is changed only by the statements of one connection, which run one
/// at a time under the connection's lock.
private final class StepBudget: @unchecked Sendable {
  static let interval: Int32 = 1_000
  /// The steps each statement may take.
  let steps: Int
  private var remaining: Int

  init(fileBytes: Int) {
    let (perByte, overflow) = fileBytes.multipliedReportingOverflow(by: TileLimits.sqliteStepsPerByte)
    steps = overflow ? Int.max : TileLimits.sqliteBaseSteps.addingReportingOverflow(perByte).partialValue
    remaining = steps
  }

  /// Whether the last statement was stopped for taking too long.
  var isSpent: Bool { remaining <= 0 }

  /// Starts the count for a new statement.
  func reset() { remaining = steps }

  func install(on handle: OpaquePointer) {
    sqlite3_progress_handler(
      handle, Self.interval,
      { context in
        guard let context else { return 0 }
        let budget = Unmanaged<StepBudget>.fromOpaque(context).takeUnretainedValue()
        budget.remaining -= Int(StepBudget.interval)
        return budget.remaining <= 0 ? 1 : 0
      }, Unmanaged.passUnretained(self).toOpaque())
  }
}
