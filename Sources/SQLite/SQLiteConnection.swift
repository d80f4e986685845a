import CSQLite
import FileSystem
import Foundation

/// One SQLite connection with its cache of prepared statements: the project's single way to talk to
/// SQLite (the places store, the Core Data import, MBTiles sources and caches, the built-in basemap, the
/// basemap builder).
///
/// Not `Sendable`: one thread at a time. Opened with `SQLITE_OPEN_NOMUTEX`, so share a connection between
/// threads only through `SharedSQLiteConnection`, whose lock serializes every use.
public final class SQLiteConnection {
  /// The path as given.
  public let path: String
  public let options: SQLiteOptions
  let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]
  private let budget: StepBudget?

  public init(path: String, options: SQLiteOptions) throws(SQLiteError) {
    self.path = path
    self.options = options
    if options.requireRegularFile, let kind = FileKind(path: path), kind != .regular {
      throw SQLiteError(kind: .notARegularFile("\(kind)"), code: 0, message: "it is \(kind), not a file")
    }
    var flags: Int32 =
      switch options.access {
      case .readOnly: SQLITE_OPEN_READONLY
      case .readWrite: SQLITE_OPEN_READWRITE
      case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      }
    flags |= SQLITE_OPEN_NOMUTEX
    var name = path
    if options.immutable {
      flags |= SQLITE_OPEN_URI
      name = SQLiteURI.immutable(path)
    }
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(name, &opened, flags, nil)
    guard status == SQLITE_OK, let opened else {
      let message =
        opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close_v2(opened)
      throw SQLiteError(kind: Self.kind(of: status), code: status & 0xFF, message: message)
    }
    handle = opened
    budget = options.stepBudget.map(StepBudget.init(steps:))
    sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
    budget?.install(on: handle)
    if let maximum = options.maximumValueBytes {
      sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: maximum))
    }
    if options.untrusted {
      try execute(
        "PRAGMA trusted_schema = OFF" + (options.access == .readOnly ? "; PRAGMA query_only = ON" : ""))
    }
    if options.probe { _ = try rows("SELECT name FROM sqlite_master LIMIT 1") }
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    // A transaction still open is rolled back by the close.
    sqlite3_close_v2(handle)
  }

  /// True when the file at `path` is a regular file that starts with the SQLite header.
  public static func hasHeader(path: String) -> Bool {
    RegularFile.prefix(path, count: 16) == Data("SQLite format 3\0".utf8)
  }

  /// Whether SQLite opened the file read-only (it does so quietly for a write-protected file).
  public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// Whether a transaction is open (autocommit is off).
  public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// Runs one or more statements without parameters (schema, pragmas), not cached.
  public func execute(_ script: String) throws(SQLiteError) {
    budget?.reset()
    let status = sqlite3_exec(handle, script, nil, nil, nil)
    guard status == SQLITE_OK else { throw error(status) }
  }

  /// A prepared statement kept until the connection closes, reset and unbound. Use it to completion before
  /// anything else asks for the same SQL. Only for SQL from a small fixed set: never evicted.
  public func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    budget?.reset()
    if let statement = statements[sql] {
      let reused = SQLiteStatement(handle: statement, connection: self)
      reused.reset()
      return reused
    }
    let statement = try prepare(sql)
    statements[sql] = statement
    return SQLiteStatement(handle: statement, connection: self)
  }

  /// A statement of its own (for SQL built from input, or a query that runs while cached ones are used);
  /// the caller calls `finalize`.
  public func fresh(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    budget?.reset()
    return SQLiteStatement(handle: try prepare(sql), connection: self)
  }

  /// Every row of a query, as typed values.
  public func rows(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
    let statement = try cached(sql)
    defer { statement.reset() }
    try statement.bind(parameters)
    var result: [[SQLiteValue]] = []
    while try statement.step() { result.append(statement.values()) }
    return result
  }

  /// Runs one statement that returns no rows the caller needs (INSERT, UPDATE, DELETE, CREATE …).
  public func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) {
    let statement = try cached(sql)
    defer { statement.reset() }
    try statement.bind(parameters)
    while try statement.step() {}
  }

  /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` takes the write lock first (waiting up to the
  /// busy timeout), so the body never fails half-way for want of it; commits when the body returns, rolls
  /// back when it throws or when `commit` is false. `failure` turns SQLite's errors into the body's kind.
  public func transaction<T, E: Error>(
    commit: Bool = true, failure: (SQLiteError) -> E, _ body: () throws(E) -> T
  ) throws(E) -> T {
    do throws(SQLiteError) {
      try execute("BEGIN IMMEDIATE")
    } catch {
      throw failure(error)
    }
    do throws(E) {
      let result = try body()
      do throws(SQLiteError) {
        try execute(commit ? "COMMIT" : "ROLLBACK")
      } catch {
        throw failure(error)
      }
      return result
    } catch {
      if inTransaction { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
      throw error
    }
  }

  /// Registers `name(text)` for this connection only: `transform` applied to its one text argument.
  public func registerTextFunction(_ name: String, _ transform: @escaping @Sendable (String) -> String)
    throws(SQLiteError)
  {
    let box = Unmanaged.passRetained(TextFunction(transform)).toOpaque()
    let status = sqlite3_create_function_v2(
      handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
      { context, _, values in
        guard let value = values?[0], let text = sqlite3_value_text(value),
          let function = sqlite3_user_data(context)
        else {
          sqlite3_result_null(context)
          return
        }
        let count = Int(sqlite3_value_bytes(value))
        let input = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        let output = Unmanaged<TextFunction>.fromOpaque(function).takeUnretainedValue().transform(input)
        sqlite3_result_text(context, output, Int32(output.utf8.count), sqliteTransient)
      }, nil, nil, { box in box.map { Unmanaged<TextFunction>.fromOpaque($0).release() } })
    guard status == SQLITE_OK else { throw error(status) }
  }

  private func prepare(_ sql: String) throws(SQLiteError) -> OpaquePointer {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw error(status)
    }
    return statement
  }

  /// The error for a failed call, with SQLite's message (or the budget's, for a stopped statement).
  func error(_ status: Int32) -> SQLiteError {
    let code = status & 0xFF
    if code == SQLITE_INTERRUPT, let budget, budget.isSpent {
      return SQLiteError(
        kind: .tooManySteps(budget.steps), code: code,
        message: "a query did not finish within \(budget.steps) SQLite steps")
    }
    var message = String(cString: sqlite3_errmsg(handle))
    if code == SQLITE_TOOBIG, let maximum = options.maximumValueBytes {
      message = "a value in it is larger than \(ByteCount.text(maximum))"
    }
    return SQLiteError(kind: Self.kind(of: status), code: code, message: message)
  }

  private static func kind(of status: Int32) -> SQLiteError.Kind {
    switch status & 0xFF {
    case SQLITE_BUSY, SQLITE_LOCKED: .busy
    case SQLITE_NOTADB: .notADatabase
    case SQLITE_CORRUPT: .corrupt
    case SQLITE_READONLY: .readOnly
    case SQLITE_CANTOPEN: .cannotOpen
    case SQLITE_PERM: .permission
    case SQLITE_TOOBIG: .tooBig
    case SQLITE_FULL: .full
    case SQLITE_IOERR: .ioError
    case SQLITE_CONSTRAINT: .constraint
    default: .other
    }
  }
}

/// The Swift closure behind a registered SQL function.
private final class TextFunction {
  let transform: @Sendable (String) -> String

  init(_ transform: @escaping @Sendable (String) -> String) { self.transform = transform }
}

/// `SQLITE_TRANSIENT` (`(sqlite3_destructor_type)-1`) does not import into Swift: it tells SQLite to copy
/// the bytes before the call returns. Computed, not stored: a global of this type is not `Sendable`.
var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
