import FileSystem
import Foundation
import SQLite

// MARK: - Opening and migrating

extension LocationStore {
  /// The connection, with its busy timeout. A read-only store whose WAL index cannot be made beside it (a
  /// read-only mount, a full disk) is read as immutable: nothing can be writing it there.
  static func connect(path: String, create: Bool, readOnly: Bool) throws(LocationStoreError)
    -> SQLiteConnection
  {
    var options = SQLiteOptions(access: readOnly ? .readOnly : create ? .create : .readWrite)
    options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    // `migrate` reads the header first and says what a file that is not a store is.
    options.probe = false
    do throws(SQLiteError) {
      let database = try SQLiteConnection(path: path, options: options)
      guard readOnly else { return database }
      do throws(SQLiteError) {
        _ = try database.rows("SELECT count(*) FROM sqlite_master")
        return database
      } catch {
        // The -shm file could not be made.
        guard [.readOnly, .ioError, .full, .cannotOpen].contains(error.kind) else { return database }
      }
      options.immutable = true
      return try SQLiteConnection(path: path, options: options)
    } catch {
      throw .cannotOpen(path: path, reason: diskProblem(near: path) ?? error.message)
    }
  }

  /// SQLite says "unable to open database file" or "disk I/O error" where the cause is the disk: say that.
  static func diskProblem(near path: String) -> String? {
    let folder = (URL(fileURLWithPath: path).path as NSString).deletingLastPathComponent
    var info = statvfs()
    guard statvfs(folder, &info) == 0 else { return nil }
    if info.f_flag & UInt(ST_RDONLY) != 0 { return "it is on a read-only file system" }
    if info.f_bavail == 0 { return "the disk is full" }
    return nil
  }

  static func joined(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }

  /// Checks the path and, when creating, makes its folders, so the common mistakes get a plain reason
  /// rather than SQLite's "unable to open database file".
  static func prepareFolder(path: String, create: Bool) throws(LocationStoreError) {
    let manager = FileManager.default
    guard !path.isEmpty else { throw .cannotOpen(path: path, reason: "the path is empty") }
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue { throw .wrongFile(path: path, reason: "it is a folder, not a file") }
      // SQLite would wait forever for a FIFO's writer, or read a device's endless bytes.
      if let kind = FileKind(path: path), kind != .regular {
        throw .wrongFile(path: path, reason: "it is not a regular file")
      }
      return
    }
    guard create else { throw .cannotOpen(path: path, reason: "the file does not exist") }
    let folder = (URL(fileURLWithPath: path).path as NSString).deletingLastPathComponent
    var existing = folder
    while !manager.fileExists(atPath: existing, isDirectory: &isDirectory) && existing != "/" {
      existing = (existing as NSString).deletingLastPathComponent
    }
    guard isDirectory.boolValue else {
      throw .cannotOpen(path: path, reason: "'\(existing)' is a file, not a folder")
    }
    guard manager.isWritableFile(atPath: existing) else {
      throw .cannotOpen(path: path, reason: "the folder '\(existing)' is not writable")
    }
    do {
      try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw .cannotOpen(
        path: path, reason: "cannot create the folder '\(folder)': \(error.localizedDescription)")
    }
  }

  /// Switches the file to WAL mode (once per file: the mode is stored in it). Changing the mode needs the
  /// file to itself, and SQLite answers "busy" at once rather than waiting when another connection is
  /// using it (two processes creating the store together): so retry here, up to the busy timeout.
  private static func enableWAL(_ database: SQLiteConnection) throws(SQLiteError) {
    if try database.rows("PRAGMA journal_mode").first?.first?.text == "wal" { return }
    let deadline = Date().addingTimeInterval(Double(busyTimeoutMilliseconds) / 1000)
    while true {
      do throws(SQLiteError) {
        _ = try database.rows("PRAGMA journal_mode = WAL")
        return
      } catch {
        guard error.kind == .busy, Date() < deadline else { throw error }
        Thread.sleep(forTimeInterval: 0.005)
      }
    }
  }

  /// What the file holds, judged from its header fields.
  private enum Contents {
    /// A new or empty database (schema version 0, no tables): it becomes a store.
    case empty
    case store(version: Int)
    /// Some other program's database.
    case foreign
  }

  private static func contents(_ database: SQLiteConnection) throws(SQLiteError) -> Contents {
    // One statement, so one snapshot: read separately, another process's migration could commit
    // between the reads and make a new store look like someone else's database.
    let statement = try database.cached(
      "SELECT (SELECT application_id FROM pragma_application_id),"
        + " (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)")
    defer { statement.reset() }
    guard try statement.step() else { return .foreign }
    let (application, version, objects) = (statement.integer(0), statement.integer(1), statement.integer(2))
    if application == Int(StoreSchema.applicationID) { return .store(version: version) }
    return application == 0 && version == 0 && objects == 0 ? .empty : .foreign
  }

  /// Recognises the file, switches it to WAL, and runs the migrations it lacks in one transaction.
  static func migrate(
    _ database: SQLiteConnection, path: String, migrations: [StoreMigration], readOnly: Bool
  ) throws(LocationStoreError) {
    assert(
      migrations.enumerated().allSatisfy { $0.element.version == $0.offset + 1 },
      "migrations must be numbered 1, 2, 3… in order")
    let latest = migrations.last?.version ?? 0

    /// The version the file is at; throws when it is not (or not yet usable as) a store.
    func version(_ contents: Contents) throws(LocationStoreError) -> Int {
      switch contents {
      case .empty: return 0
      case .foreign: throw .notAStore(path: path)
      case .store(let version) where version > latest: throw .newerSchema(path: path, version: version)
      case .store(let version): return version
      }
    }

    let found: Contents
    do throws(SQLiteError) {
      // SQLite reads the header lazily: this first query is where a text file shows it is no database.
      found = try contents(database)
    } catch {
      if error.kind == .notADatabase { throw .wrongFile(path: path, reason: "it is not an SQLite database") }
      throw .cannotOpen(path: path, reason: diskProblem(near: path) ?? error.message)
    }
    let current = try version(found)
    if readOnly {
      // The newest steps a store may lack and still be read as it is.
      let readable = latest - migrations.reversed().prefix(while: \.readCompatible).count
      guard current >= readable else { throw .needsUpgrade(path: path, version: current) }
      return
    }
    do throws(SQLiteError) {
      // Only now that the file is known to be ours: a foreign database is never switched to WAL.
      try enableWAL(database)
      guard current < latest else { return }
      try database.execute("BEGIN IMMEDIATE")
    } catch {
      throw LocationStoreError(error)
    }
    do throws(LocationStoreError) {
      // Another process may have migrated the file while this one waited for the write lock.
      let found: Contents
      do throws(SQLiteError) {
        found = try contents(database)
      } catch {
        throw LocationStoreError(error)
      }
      let start = try version(found)
      for migration in migrations where migration.version > start {
        do throws(SQLiteError) {
          try database.execute(migration.sql)
        } catch {
          throw .failed("migrating to schema version \(migration.version) failed: \(error.message)")
        }
      }
      do throws(SQLiteError) {
        try database.execute(
          "PRAGMA user_version = \(latest); PRAGMA application_id = \(StoreSchema.applicationID); COMMIT")
      } catch {
        throw LocationStoreError(error)
      }
    } catch {
      if database.inTransaction { try? database.execute("ROLLBACK") }
      throw error
    }
  }
}
