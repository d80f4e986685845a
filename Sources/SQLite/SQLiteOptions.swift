/// How a connection is opened and what it may do.
public struct SQLiteOptions: Sendable {
  public enum Access: Sendable {
    case readOnly
    /// Read-write; the file must exist.
    case readWrite
    /// Read-write, created when missing.
    case create
  }

  public var access: Access
  /// Opens through a `file:` URI with `immutable=1`: no locks, no WAL index, no journal. Only for a file
  /// nothing else can be writing (a read-only mount, a copy).
  public var immutable = false
  /// How long a call waits for another connection's lock before failing with `busy`.
  public var busyTimeoutMilliseconds: Int32 = 0
  /// The virtual-machine steps one statement may take before it is stopped (`tooManySteps`); nil: no limit.
  /// A file from anyone can make a query endless (a recursive view).
  public var stepBudget: Int?
  /// The longest string or blob the connection reads or writes; nil: SQLite's own limit.
  public var maximumValueBytes: Int?
  /// For files from anyone: their views and triggers may not call functions with side effects
  /// (`trusted_schema = OFF`), and a read-only connection may not write through a trick of the schema
  /// (`query_only`).
  public var untrusted = false
  /// Refuse named pipes, devices and folders before SQLite opens them (it would block or misread).
  public var requireRegularFile = true
  /// Run one query at open, so that a file that is not a database fails here rather than at first use
  /// (SQLite reads the header lazily).
  public var probe = true

  public init(access: Access) {
    self.access = access
  }
}
