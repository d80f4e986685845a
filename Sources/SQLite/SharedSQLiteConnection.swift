import Locking

/// A connection that several threads use, one call at a time: every use holds the lock for its whole
/// body, so a transaction's statements never interleave with another thread's.
public final class SharedSQLiteConnection: Sendable {
  private let connection: Locked<SQLiteConnection>

  public init(_ connection: consuming sending SQLiteConnection) {
    self.connection = Locked(connection)
  }

  /// Runs `body` with the connection, under the lock.
  public func withConnection<T: Sendable, E: Error>(_ body: (SQLiteConnection) throws(E) -> T) throws(E) -> T
  {
    try connection.withLock { (connection: inout SQLiteConnection) throws(E) -> T in
      try body(connection)
    }
  }
}
