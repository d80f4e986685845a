/// A database's file and the files SQLite keeps beside it (write-ahead log, its shared memory, rollback
/// journal): what belongs together when a store is protected, or removed.
enum SQLiteSidecars {
  static let suffixes = ["", "-wal", "-shm", "-journal"]
}
