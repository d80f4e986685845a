import FileSystem
import Foundation
import SQLite

/// An MBTiles file (or a cache's freshness records) as the Tiles module uses it: one `SQLiteConnection`
/// shared by the threads that load tiles, with SQLite's errors turned into what the file is to the user —
/// `TileSourceError` for a read-only source, `TileCacheError` for a writable cache.
///
/// Every file may come from anyone: statements have a step budget (`TileLimits.sqliteBaseSteps` plus
/// `sqliteStepsPerByte` per byte of the file), values a length limit, and the schema is untrusted.
final class SQLiteFile: Sendable, SQLiteQueries {
  enum Mode {
    case readOnly
    /// Read-write, created when missing.
    case readWrite
  }

  let path: String
  let mode: Mode
  private let shared: SharedSQLiteConnection

  /// Opens `path` read-only. Throws `TileSourceError` when it cannot be opened or is not SQLite.
  convenience init(path: String) throws {
    try self.init(path: path, mode: .readOnly)
  }

  /// Opens `path` in `mode`. A writable connection waits up to `busyTimeout` milliseconds for another
  /// connection's lock (another mymap filling the same cache) before failing.
  init(path: String, mode: Mode, busyTimeout milliseconds: Int32? = nil) throws {
    self.path = path
    self.mode = mode
    var options = SQLiteOptions(access: mode == .readOnly ? .readOnly : .create)
    options.busyTimeoutMilliseconds = milliseconds ?? (mode == .readOnly ? 2_000 : 10_000)
    let bytes = Self.fileSize(path)
    let (perByte, overflow) = bytes.multipliedReportingOverflow(by: TileLimits.sqliteStepsPerByte)
    options.stepBudget =
      overflow ? Int.max : TileLimits.sqliteBaseSteps.addingReportingOverflow(perByte).partialValue
    options.maximumValueBytes = TileLimits.maximumSQLiteValueBytes
    options.untrusted = true
    let connection: SQLiteConnection
    do throws(SQLiteError) {
      connection = try SQLiteConnection(path: path, options: options)
    } catch {
      throw Self.error(error, path: path, mode: mode, opening: true)
    }
    // SQLite quietly opens a write-protected file read-only: the first write would fail much later.
    if mode == .readWrite && connection.isReadOnly {
      throw TileCacheError.notWritable(path, "the file is read-only")
    }
    shared = SharedSQLiteConnection(connection)
  }

  /// True when the path is a regular file that starts with the SQLite header ("SQLite format 3\0").
  static func hasHeader(path: String) -> Bool {
    SQLiteConnection.hasHeader(path: path)
  }

  /// The size of the file at `path` in bytes; 0 when it is missing.
  private static func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
  }

  /// Runs a query, returning every row as text columns (NULL as nil; numbers in SQLite's spelling).
  func rows(_ sql: String, _ parameters: [Int] = []) throws -> [[String?]] {
    try using { connection throws(SQLiteError) in
      let statement = try connection.cached(sql)
      defer { statement.reset() }
      try statement.bind(parameters.map { .integer($0) })
      var result: [[String?]] = []
      while try statement.step() {
        result.append((0..<statement.columnCount).map { statement.optionalString($0) })
      }
      return result
    }
  }

  /// Runs a query and returns the first column of the first row as bytes; nil when there is no row.
  func blob(_ sql: String, _ parameters: [Int]) throws -> Data? {
    try using { connection throws(SQLiteError) in
      let statement = try connection.cached(sql)
      defer { statement.reset() }
      try statement.bind(parameters.map { .integer($0) })
      return try statement.step() ? statement.blob(0) : nil
    }
  }

  /// Runs a query, returning every row as typed values.
  func values(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
    try using { connection throws(SQLiteError) in try connection.rows(sql, parameters) }
  }

  /// Runs one statement that returns no rows (INSERT, UPDATE, DELETE, CREATE …).
  func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws {
    try using { connection throws(SQLiteError) in try connection.run(sql, parameters) }
  }

  /// Runs one or more statements without parameters (schema, pragmas), not cached.
  func execute(_ script: String) throws {
    try using { connection throws(SQLiteError) in try connection.execute(script) }
  }

  /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` takes the write lock first (waiting up to
  /// the busy timeout for another connection's), so the body never fails half-way for want of it; the
  /// transaction commits when the body returns and rolls back when it throws. No other thread's
  /// statement runs on this connection meanwhile: `body` gets a `Transaction` to run them through.
  func transaction<T: Sendable>(_ body: (Transaction) throws -> T) throws -> T {
    let path = path
    let mode = mode
    return try shared.withConnection { connection throws in
      try connection.transaction(failure: { Self.error($0, path: path, mode: mode) }) { () throws in
        try body(Transaction(connection: connection, path: path, mode: mode))
      }
    }
  }

  /// The statements of a transaction, on the connection the transaction holds.
  struct Transaction: SQLiteQueries {
    fileprivate let connection: SQLiteConnection
    fileprivate let path: String
    fileprivate let mode: Mode

    func values(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
      do throws(SQLiteError) {
        return try connection.rows(sql, parameters)
      } catch {
        throw SQLiteFile.error(error, path: path, mode: mode)
      }
    }

    func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws {
      do throws(SQLiteError) {
        try connection.run(sql, parameters)
      } catch {
        throw SQLiteFile.error(error, path: path, mode: mode)
      }
    }

    func execute(_ script: String) throws {
      do throws(SQLiteError) {
        try connection.execute(script)
      } catch {
        throw SQLiteFile.error(error, path: path, mode: mode)
      }
    }
  }

  /// Runs `body` on the connection under its lock, with SQLite's errors turned into this file's.
  private func using<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws -> T {
    do throws(SQLiteError) {
      return try shared.withConnection(body)
    } catch {
      throw Self.error(error, path: path, mode: mode)
    }
  }

  private static func error(_ error: SQLiteError, path: String, mode: Mode, opening: Bool = false) -> Error {
    if case .notARegularFile(let kind) = error.kind {
      switch mode {
      case .readOnly: return TileSourceError.notAFile(path, kind: kind)
      case .readWrite: return TileCacheError.notAnMBTilesFile(path, "it is \(kind)")
      }
    }
    switch mode {
    case .readOnly:
      switch error.kind {
      case .notADatabase: return TileSourceError.notAnSQLiteDatabase(path)
      case .tooManySteps(let steps): return TileSourceError.queryTooLong(path, steps: steps)
      default: return TileSourceError.unreadable(path, error.message)
      }
    case .readWrite:
      switch error.kind {
      case .notADatabase, .corrupt:
        return TileCacheError.databaseFailed(path, "the file is not an SQLite database or is damaged")
      case .readOnly, .cannotOpen, .permission:
        return TileCacheError.notWritable(path, error.message)
      case .busy:
        return TileCacheError.databaseFailed(
          path, "another program kept it locked for too long (\(error.message)); try again")
      default:
        return opening
          ? TileCacheError.notWritable(path, error.message)
          : TileCacheError.databaseFailed(path, error.message)
      }
    }
  }
}

/// The statements a caller runs on an SQLite file: outside a transaction (`SQLiteFile`), or inside one
/// (`SQLiteFile.Transaction`), so that a helper serves both.
protocol SQLiteQueries {
  func values(_ sql: String, _ parameters: [SQLiteValue]) throws -> [[SQLiteValue]]
  func run(_ sql: String, _ parameters: [SQLiteValue]) throws
  func execute(_ script: String) throws
}
