import Foundation

/// mymap's embedded store of saved places: one SQLite file (`locations.sqlite`).
///
/// The file is opened in WAL mode with a 10-second busy timeout and every write runs in a
/// `BEGIN IMMEDIATE` transaction, so several `mymap` processes (or several `LocationStore`s) can use one
/// store at once: readers never wait, a writer waits for the one before it instead of failing.
///
/// `@unchecked Sendable`: the SQLite connection (an `OpaquePointer`, opened without SQLite's own mutex)
/// and its statement cache are touched only while `lock` is held, so one store may be shared by several
/// threads; their calls run one at a time. The lock is recursive so that the body of `forEach` may read
/// from the same store; a `forEach` keeps other threads waiting until it finishes.
public final class LocationStore: @unchecked Sendable {
  /// The path as given.
  public let path: String
  private let database: StoreDatabase
  private let lock = NSRecursiveLock()

  /// How long a call waits for another connection's write to finish before it fails.
  static let busyTimeoutMilliseconds: Int32 = 10_000

  /// `$MYMAP_HOME/locations.sqlite`, else `$XDG_DATA_HOME/mymap/locations.sqlite`, else
  /// `~/.local/share/mymap/locations.sqlite` (`HOME` from the environment). An empty variable counts as
  /// unset, and so does a relative `XDG_DATA_HOME` (the XDG spec says to ignore it).
  public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    let file = "locations.sqlite"
    if let home = environment["MYMAP_HOME"], !home.isEmpty {
      return joined(home, file)
    }
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return joined(joined(data, "mymap"), file)
    }
    var home = environment["HOME"] ?? ""
    if home.isEmpty { home = NSHomeDirectory() }
    return joined(home, ".local/share/mymap/" + file)
  }

  /// How a store is opened.
  public enum Access: Sendable {
    /// Reads and writes; the schema is brought up to date.
    case readWrite
    /// Only reads, and writes nothing at all, so a store on a read-only or full disk can still be read.
    case readOnly
  }

  /// Opens the store at `path`. Read-write, it brings the schema up to date, and unless `create` is false a
  /// missing file is created, with its folders. Read-only, the file must exist and be up to date.
  public convenience init(path: String, create: Bool = true, access: Access = .readWrite)
    throws(LocationStoreError)
  {
    try self.init(path: path, create: create, access: access, migrations: StoreSchema.migrations)
  }

  /// Opens with a given list of migrations (tests use it to play a future version).
  init(path: String, create: Bool, access: Access = .readWrite, migrations: [StoreMigration])
    throws(LocationStoreError)
  {
    self.path = path
    let readOnly = access == .readOnly
    try Self.prepareFolder(path: path, create: create && !readOnly)
    database = try Self.connect(path: path, create: create, readOnly: readOnly)
    try Self.migrate(database, path: path, migrations: migrations, readOnly: readOnly)
    // Per connection. NORMAL is safe in WAL mode (a power cut may lose the last commits, never corrupt).
    // A 32 MB page cache instead of 2 MB: a million-place import takes 8.5 s instead of 11 s.
    try database.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32768;")
    try database.registerCaseFold()
  }

  /// The connection, with its busy timeout. A read-only store whose WAL index cannot be made beside it (a
  /// read-only mount, a full disk) is read as immutable: nothing can be writing it there.
  private static func connect(path: String, create: Bool, readOnly: Bool) throws(LocationStoreError)
    -> StoreDatabase
  {
    do throws(LocationStoreError) {
      let database = try StoreDatabase(path: path, create: create, readOnly: readOnly)
      database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
      guard readOnly else { return database }
      do throws(LocationStoreError) {
        _ = try database.text("SELECT count(*) FROM sqlite_master")
        return database
      } catch {
        // SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL: the -shm file could not be made.
        guard [8, 10, 13, 14].contains(database.lastErrorCode) else { return database }
      }
      return try StoreDatabase(path: path, create: false, readOnly: true, immutable: true)
    } catch {
      throw .cannotOpen(path: path, reason: diskProblem(near: path) ?? error.message)
    }
  }

  /// SQLite says "unable to open database file" or "disk I/O error" where the cause is the disk: say that.
  private static func diskProblem(near path: String) -> String? {
    let folder = (URL(fileURLWithPath: path).path as NSString).deletingLastPathComponent
    var info = statvfs()
    guard statvfs(folder, &info) == 0 else { return nil }
    if info.f_flag & UInt(ST_RDONLY) != 0 { return "it is on a read-only file system" }
    if info.f_bavail == 0 { return "the disk is full" }
    return nil
  }

  /// A new random id: a UUID, lowercased.
  public static func newID() -> String { UUID().uuidString.lowercased() }

  // MARK: - One place

  /// Stores a new place; `duplicateID` when its id is taken.
  public func add(_ location: Location) throws(LocationStoreError) {
    try Self.check(location)
    try writing { () throws(LocationStoreError) in
      let statement = try database.cached(Self.insertSQL)
      try statement.bind(Self.values(location))
      try statement.run()
      if database.changes == 0 { throw .duplicateID(location.id) }
    }
  }

  /// The place with exactly this id, or nil.
  public func location(id: String) throws(LocationStoreError) -> Location? {
    try locked { () throws(LocationStoreError) in
      let statement = try database.cached("SELECT \(StoreSchema.columns) FROM location WHERE id = ?")
      defer { statement.reset() }
      try statement.bind([.text(id)])
      return try statement.step() ? Self.location(statement) : nil
    }
  }

  /// The place with this id, else the one place whose id starts with it (at least 4 characters, as
  /// `mymap list` may show ids shortened). `unknownID` when there is none; `invalidPlace` saying the
  /// prefix is ambiguous when several ids start with it.
  public func resolve(idOrPrefix: String) throws(LocationStoreError) -> Location {
    try locked { () throws(LocationStoreError) in
      if let exact = try location(id: idOrPrefix) { return exact }
      guard idOrPrefix.count >= 4 else { throw .unknownID(idOrPrefix) }
      // GLOB is case-sensitive like ids, and a constant prefix lets it use the primary-key index.
      let statement = try database.cached(
        "SELECT \(StoreSchema.columns) FROM location WHERE id GLOB ? ORDER BY id LIMIT 3")
      defer { statement.reset() }
      try statement.bind([.text(Self.globEscaped(idOrPrefix) + "*")])
      var matches: [Location] = []
      while try statement.step() { matches.append(Self.location(statement)) }
      guard let first = matches.first else { throw .unknownID(idOrPrefix) }
      guard matches.count == 1 else {
        let shown = matches.prefix(2).map { "'\($0.id)'" }.joined(separator: ", ")
        throw .invalidPlace(
          "the id '\(idOrPrefix)' is ambiguous: \(shown)\(matches.count > 2 ? " and more" : "") start with"
            + " it; give more of the id")
      }
      return first
    }
  }

  /// The shortest start of `id`, at least `minimumLength` characters, that no other stored id shares, so
  /// `resolve` finds the place by it. Ids that start alike are neighbours in id order, so two index
  /// look-ups decide it, however large the store.
  public func uniquePrefix(of id: String, minimumLength: Int) throws(LocationStoreError) -> String {
    try locked { () throws(LocationStoreError) in
      var shared = 0
      for sql in [
        "SELECT id FROM location WHERE id < ? ORDER BY id DESC LIMIT 1",
        "SELECT id FROM location WHERE id > ? ORDER BY id LIMIT 1",
      ] {
        let statement = try database.cached(sql)
        defer { statement.reset() }
        try statement.bind([.text(id)])
        if try statement.step() {
          let neighbour = statement.string(0)
          shared = max(shared, zip(id, neighbour).prefix { $0 == $1 }.count)
        }
      }
      return String(id.prefix(max(minimumLength, shared + 1)))
    }
  }

  /// Replaces every field of the stored place with the same id; `unknownID` when there is none.
  public func update(_ location: Location) throws(LocationStoreError) {
    try Self.check(location)
    try writing { () throws(LocationStoreError) in
      let statement = try database.cached(
        """
        UPDATE location SET latitude = ?2, longitude = ?3, description = ?4, category = ?5, date = ?6,
          sub_thoroughfare = ?7, thoroughfare = ?8, locality = ?9, administrative_area = ?10,
          postal_code = ?11, country = ?12, photo_path = ?13
        WHERE id = ?1
        """)
      try statement.bind(Self.values(location))
      try statement.run()
      if database.changes == 0 { throw .unknownID(location.id) }
    }
  }

  /// Deletes the places with these ids (a repeated id counts once) and returns how many. All or nothing:
  /// when one id is unknown, `unknownID` names it and nothing is deleted.
  public func delete(ids: [String]) throws(LocationStoreError) -> Int {
    var seen = Set<String>()
    let unique = ids.filter { seen.insert($0).inserted }
    guard !unique.isEmpty else { return 0 }
    return try writing { () throws(LocationStoreError) in
      let statement = try database.cached("DELETE FROM location WHERE id = ?")
      for id in unique {
        statement.reset()
        try statement.bind([.text(id)])
        try statement.run()
        if database.changes == 0 { throw .unknownID(id) }
      }
      return unique.count
    }
  }

  // MARK: - Many places

  /// How many places match the filter.
  public func count(_ filter: LocationFilter = .init()) throws(LocationStoreError) -> Int {
    let query = StoreQuery(filter)
    return try locked { () throws(LocationStoreError) in
      try database.integer("SELECT count(*) FROM location" + query.whereClause, query.values, cache: false)
    }
  }

  /// Calls `body` with each matching place in order, reading one row at a time (a million places never
  /// sit in memory at once). `body` may read from this store; an error it throws ends the walk and is
  /// rethrown as it is. Store failures are `LocationStoreError`s.
  public func forEach(
    _ filter: LocationFilter = .init(), order: LocationOrder = .dateAscending,
    _ body: (Location) throws -> Void
  ) throws {
    let query = StoreQuery(filter, order: order)
    lock.lock()
    defer { lock.unlock() }
    // A statement of its own, not a cached one: `body` may run other queries meanwhile.
    let statement = try database.fresh(
      "SELECT \(StoreSchema.columns) FROM location" + query.whereClause + query.orderClause)
    defer { statement.finalize() }
    try statement.bind(query.values)
    while try statement.step() {
      try body(Self.location(statement))
    }
  }

  /// Every matching place, in order.
  public func locations(_ filter: LocationFilter = .init(), order: LocationOrder = .dateAscending)
    throws(LocationStoreError) -> [Location]
  {
    var result: [Location] = []
    do {
      try forEach(filter, order: order) { result.append($0) }
    } catch let error as LocationStoreError {
      throw error
    } catch {
      throw .failed("\(error)")  // Not reached: the body above throws nothing.
    }
    return result
  }

  /// Adds places in one transaction: every new place, or (on any error) none.
  ///
  /// A place the store already has is skipped and counted as a duplicate: one with the same id, or, when
  /// the place's id was derived rather than given (`idsWereGiven[i]` false, for a file without ids), one
  /// with the same latitude, longitude, description and date. This includes places earlier in the same
  /// import. `idsWereGiven` is parallel to `locations`; an empty array means every id was given. A dry run
  /// does all the work, then rolls back, so the summary is exact and the store is unchanged.
  public func importLocations(_ locations: [Location], idsWereGiven: [Bool], dryRun: Bool)
    throws(LocationStoreError) -> ImportSummary
  {
    guard idsWereGiven.isEmpty || idsWereGiven.count == locations.count else {
      throw .failed(
        "importLocations needs one idsWereGiven flag per place (\(idsWereGiven.count) flags for"
          + " \(locations.count) places)")
    }
    for (index, location) in locations.enumerated() {
      do throws(LocationStoreError) {
        try Self.check(location)
      } catch {
        throw .invalidPlace("location \(index + 1): \(error.description)")
      }
    }
    let derivedIDs = idsWereGiven.contains(false)
    return try writing(commit: !dryRun) { () throws(LocationStoreError) in
      // The content index answers the duplicate question for derived ids, so it stays.
      let deferred = try dropIndexesForBulkImport(
        incoming: locations.count, keeping: derivedIDs ? ["location_content"] : [])
      let insert = try database.cached(Self.insertSQL)
      let sameContent = try database.cached(
        "SELECT 1 FROM location WHERE latitude = ?1 AND longitude = ?2 AND date IS ?3"
          + " AND description = ?4 LIMIT 1")
      var summary = ImportSummary(added: 0, duplicates: 0)
      for (index, location) in locations.enumerated() {
        if !idsWereGiven.isEmpty && !idsWereGiven[index] {
          sameContent.reset()
          try sameContent.bind([
            .real(location.latitude), .real(location.longitude),
            .real(location.date?.timeIntervalSince1970), .text(location.locationDescription),
          ])
          if try sameContent.step() {
            summary.duplicates += 1
            continue
          }
        }
        insert.reset()
        try insert.bind(Self.values(location))
        try insert.run()
        if database.changes == 0 {
          summary.duplicates += 1
        } else {
          summary.added += 1
        }
      }
      sameContent.reset()
      insert.reset()
      if !dryRun {
        for sql in deferred { try database.execute(sql) }
      }
      return summary
    }
  }

  /// Imports of at least this many places into a store holding at most half as many drop the secondary
  /// indexes and build them again at the end: one sort per index instead of a million random inserts
  /// into each (a million places into an empty store: about 9 s instead of 22 s on a 2-core VM). Not for
  /// a store as large as the import, which may well be the same file imported again.
  /// Tests lower it, before sharing the store, to reach the bulk path with a few places.
  var bulkImportThreshold = 50_000

  /// For a bulk import, drops the location table's indexes (except the primary key and `kept`) inside
  /// the import's transaction, and returns the SQL that makes them again. A rollback brings them back.
  private func dropIndexesForBulkImport(incoming: Int, keeping kept: Set<String>) throws(LocationStoreError)
    -> [String]
  {
    guard incoming >= bulkImportThreshold,
      try database.integer("SELECT count(*) FROM location") <= incoming / 2
    else { return [] }
    // Read from sqlite_master, so indexes added by later migrations are rebuilt as they were defined.
    let statement = try database.fresh(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'location' AND sql IS NOT NULL"
    )
    var indexes: [(name: String, sql: String)] = []
    do throws(LocationStoreError) {
      while try statement.step() {
        let name = statement.string(0)
        if !kept.contains(name) { indexes.append((name, statement.string(1))) }
      }
    } catch {
      statement.finalize()
      throw error
    }
    statement.finalize()
    for index in indexes {
      try database.execute("DROP INDEX \"\(index.name.replacingOccurrences(of: "\"", with: "\"\""))\"")
    }
    return indexes.map(\.sql)
  }
}

// MARK: - Opening and migrating

extension LocationStore {
  private static func joined(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }

  /// Checks the path and, when creating, makes its folders, so the common mistakes get a plain reason
  /// rather than SQLite's "unable to open database file".
  private static func prepareFolder(path: String, create: Bool) throws(LocationStoreError) {
    let manager = FileManager.default
    guard !path.isEmpty else { throw .cannotOpen(path: path, reason: "the path is empty") }
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue { throw .wrongFile(path: path, reason: "it is a folder, not a file") }
      // SQLite would wait forever for a FIFO's writer, or read a device's endless bytes.
      var info = stat()
      if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
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
  private static func enableWAL(_ database: StoreDatabase) throws(LocationStoreError) {
    if try database.text("PRAGMA journal_mode") == "wal" { return }
    let deadline = Date().addingTimeInterval(Double(busyTimeoutMilliseconds) / 1000)
    while true {
      do throws(LocationStoreError) {
        _ = try database.text("PRAGMA journal_mode = WAL")
        return
      } catch {
        guard database.lastErrorCode == 5, Date() < deadline else { throw error }  // SQLITE_BUSY
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

  private static func contents(_ database: StoreDatabase) throws(LocationStoreError) -> Contents {
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
  private static func migrate(
    _ database: StoreDatabase, path: String, migrations: [StoreMigration], readOnly: Bool
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
    do throws(LocationStoreError) {
      // SQLite reads the header lazily: this first query is where a text file shows it is no database.
      found = try contents(database)
    } catch {
      if database.lastErrorCode == 26 {  // SQLITE_NOTADB
        throw .wrongFile(path: path, reason: "it is not an SQLite database")
      }
      throw .cannotOpen(path: path, reason: diskProblem(near: path) ?? error.message)
    }
    let current = try version(found)
    if readOnly {
      guard current == latest else { throw .needsUpgrade(path: path, version: current) }
      return
    }
    // Only now that the file is known to be ours: a foreign database is never switched to WAL.
    try enableWAL(database)
    guard current < latest else { return }

    try database.execute("BEGIN IMMEDIATE")
    do throws(LocationStoreError) {
      // Another process may have migrated the file while this one waited for the write lock.
      let start = try version(contents(database))
      for migration in migrations where migration.version > start {
        do throws(LocationStoreError) {
          try database.execute(migration.sql)
        } catch {
          throw .failed("migrating to schema version \(migration.version) failed: \(error.message)")
        }
      }
      try database.execute(
        "PRAGMA user_version = \(latest); PRAGMA application_id = \(StoreSchema.applicationID); COMMIT")
    } catch {
      if database.inTransaction { try? database.execute("ROLLBACK") }
      throw error
    }
  }
}

// MARK: - Helpers

extension LocationStore {
  private static let insertSQL =
    "INSERT INTO location (\(StoreSchema.columns))"
    + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) ON CONFLICT (id) DO NOTHING"

  /// Runs `body` with the connection, under the lock (tests read pragmas with it).
  func withDatabase<T>(_ body: (StoreDatabase) throws(LocationStoreError) -> T) throws(LocationStoreError)
    -> T
  {
    try locked { () throws(LocationStoreError) in try body(database) }
  }

  private func locked<T>(_ body: () throws(LocationStoreError) -> T) throws(LocationStoreError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Runs `body` in a `BEGIN IMMEDIATE` transaction (taking the write lock first, so it never has to
  /// upgrade a read lock, which SQLite would refuse without waiting); commits, or rolls back on error or
  /// when `commit` is false.
  private func writing<T>(commit: Bool = true, _ body: () throws(LocationStoreError) -> T)
    throws(LocationStoreError) -> T
  {
    try locked { () throws(LocationStoreError) in
      try database.execute("BEGIN IMMEDIATE")
      do throws(LocationStoreError) {
        let result = try body()
        try database.execute(commit ? "COMMIT" : "ROLLBACK")
        return result
      } catch {
        if database.inTransaction { try? database.execute("ROLLBACK") }
        throw error
      }
    }
  }

  /// Throws `invalidPlace` for a place the table cannot hold.
  private static func check(_ location: Location) throws(LocationStoreError) {
    guard !location.id.isEmpty else { throw .invalidPlace("a place needs an id; this one has an empty id") }
    func problem(_ text: String) -> LocationStoreError { .invalidPlace("place '\(location.id)': \(text)") }
    for (name, value, limit) in [
      ("latitude", location.latitude, 90.0), ("longitude", location.longitude, 180.0),
    ] {
      guard value.isFinite else { throw problem("\(name) \(value) is not a finite number") }
      guard abs(value) <= limit else {
        throw problem("\(name) \(value) is outside -\(Int(limit))…\(Int(limit))")
      }
    }
    if let date = location.date, !date.timeIntervalSince1970.isFinite {
      throw problem("the date is not a finite time")
    }
    if let oversized = location.oversizedText() { throw problem(oversized) }
    if let date = location.date, !ISO8601Date.isRepresentable(date) {
      throw problem("the date (\(date.timeIntervalSince1970) s since 1970) is outside the years -9999…9999")
    }
  }

  /// The 13 column values, in `StoreSchema.columns` order.
  private static func values(_ location: Location) -> [StoreSQLValue] {
    let placemark = location.placemark
    return [
      .text(location.id), .real(location.latitude), .real(location.longitude),
      .text(location.locationDescription), .text(location.category),
      .real(location.date?.timeIntervalSince1970),
      .text(placemark?.subThoroughfare), .text(placemark?.thoroughfare), .text(placemark?.locality),
      .text(placemark?.administrativeArea), .text(placemark?.postalCode), .text(placemark?.country),
      .text(location.photoPath),
    ]
  }

  /// The place in the statement's current row (columns in `StoreSchema.columns` order). A row whose six
  /// address columns are all NULL has no placemark.
  private static func location(_ row: StoreStatement) -> Location {
    var placemark: Placemark?
    if !(6...11).allSatisfy({ row.isNull(Int32($0)) }) {
      placemark = Placemark(
        subThoroughfare: row.optionalString(6), thoroughfare: row.optionalString(7),
        locality: row.optionalString(8), administrativeArea: row.optionalString(9),
        postalCode: row.optionalString(10), country: row.optionalString(11))
    }
    return Location(
      id: row.string(0), latitude: row.double(1), longitude: row.double(2),
      locationDescription: row.string(3), category: row.string(4),
      date: row.optionalDouble(5).map { Date(timeIntervalSince1970: $0) }, placemark: placemark,
      photoPath: row.optionalString(12))
  }

  /// `text` as a GLOB pattern matching itself: the wildcards `*`, `?` and `[` in brackets.
  private static func globEscaped(_ text: String) -> String {
    var pattern = ""
    for character in text {
      switch character {
      case "*", "?", "[": pattern += "[\(character)]"
      default: pattern.append(character)
      }
    }
    return pattern
  }
}
