/// A failed SQLite call: its result code and SQLite's message. Each user of the module turns it into an
/// error of its own domain (a store, a tile source, a tile cache), which knows what the file is to the user.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, as far as a caller needs to tell cases apart.
  public enum Kind: Equatable, Sendable {
    /// Another connection held a lock past the busy timeout.
    case busy
    /// The file is not a database (or its header is not SQLite's).
    case notADatabase
    /// A database whose pages are damaged.
    case corrupt
    /// A write to a read-only file, folder or connection.
    case readOnly
    /// The file (or its journal) could not be opened or made.
    case cannotOpen
    case permission
    /// A string or blob over the connection's length limit.
    case tooBig
    /// The disk is full.
    case full
    case ioError
    case constraint
    /// A statement ran past its step budget (`SQLiteOptions.stepBudget`) and was stopped.
    case tooManySteps(Int)
    /// The path is a named pipe, a device or a folder, which SQLite would block on or misread.
    case notARegularFile(String)
    case other
  }

  public var kind: Kind
  /// SQLite's primary result code (`SQLITE_BUSY` is 5); 0 for errors found before SQLite was called.
  public var code: Int32
  /// SQLite's own words (`database is locked`), or ours for the kinds SQLite does not report.
  public var message: String

  public init(kind: Kind, code: Int32, message: String) {
    self.kind = kind
    self.code = code
    self.message = message
  }

  public var description: String { message }
}
