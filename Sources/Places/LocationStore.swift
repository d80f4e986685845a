import FileSystem
import Foundation
import SQLite

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
  let database: SQLiteConnection
  private let lock = NSRecursiveLock()

  /// Imports of at least this many places into a store holding at most half as many drop the secondary
  /// indexes and build them again at the end: one sort per index instead of a million random inserts
  /// into each (a million places into an empty store: about 9 s instead of 22 s on a 2-core VM). Not for
  /// a store as large as the import, which may well be the same file imported again.
  /// Tests lower it, before sharing the store, to reach the bulk path with a few places.
  var bulkImportThreshold = 50_000

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
    do throws(SQLiteError) {
      // Per connection. NORMAL is safe in WAL mode (a power cut may lose the last commits, never corrupt).
      // A 32 MB page cache instead of 2 MB: a million-place import takes 8.5 s instead of 11 s.
      try database.execute(
        "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32768;")
      // Swift's `lowercased()` for category filters with letters beyond ASCII (SQLite's NOCASE folds only
      // A–Z). Only this connection knows it, so the schema never uses it.
      try database.registerTextFunction("mymap_casefold") { $0.lowercased() }
    } catch {
      throw LocationStoreError(error)
    }
  }

  /// A new random id: a UUID, lowercased.
  public static func newID() -> String { UUID().uuidString.lowercased() }

  // MARK: - One place

  /// Stores a new place; `duplicateID` when its id is taken.
  public func add(_ location: Location) throws(LocationStoreError) {
    try Self.check(location)
    try writing { () throws in
      let statement = try database.cached(Self.insertSQL)
      try statement.bind(Self.values(location))
      try statement.run()
      if database.changes == 0 { throw LocationStoreError.duplicateID(location.id) }
    }
  }

  /// The place with exactly this id, or nil.
  public func location(id: String) throws(LocationStoreError) -> Location? {
    try locked { () throws in
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
    try locked { () throws in
      if let exact = try location(id: idOrPrefix) { return exact }
      guard idOrPrefix.count >= 4 else { throw LocationStoreError.unknownID(idOrPrefix) }
      // GLOB is case-sensitive like ids, and a constant prefix lets it use the primary-key index.
      let statement = try database.cached(
        "SELECT \(StoreSchema.columns) FROM location WHERE id GLOB ? ORDER BY id LIMIT 3")
      defer { statement.reset() }
      try statement.bind([.text(Self.globEscaped(idOrPrefix) + "*")])
      var matches: [Location] = []
      while try statement.step() { matches.append(Self.location(statement)) }
      guard let first = matches.first else { throw LocationStoreError.unknownID(idOrPrefix) }
      guard matches.count == 1 else {
        let shown = matches.prefix(2).map { "'\($0.id)'" }.joined(separator: ", ")
        throw LocationStoreError.invalidPlace(
          "the id '\(idOrPrefix)' is ambiguous: \(shown)\(matches.count > 2 ? " and more" : "") start with"
            + " it; give more of the id")
      }
      return first
    }
  }

  /// The shortest start of `id`, at least `minimumLength` characters, that no other stored id shares, so
  /// `resolve` finds the place by it. Ids that start alike are neighbours in id order, so two index
  /// look-ups (one statement: `mymap list` asks it for every row) decide it, however large the store.
  public func uniquePrefix(of id: String, minimumLength: Int) throws(LocationStoreError) -> String {
    try locked { () throws in
      let statement = try database.cached(
        """
        SELECT (SELECT id FROM location WHERE id < ?1 ORDER BY id DESC LIMIT 1),
          (SELECT id FROM location WHERE id > ?1 ORDER BY id LIMIT 1)
        """)
      defer { statement.reset() }
      try statement.bind([.text(id)])
      var shared = 0
      if try statement.step() {
        for column: Int32 in 0..<2 where !statement.isNull(column) {
          shared = max(shared, zip(id, statement.string(column)).prefix { $0 == $1 }.count)
        }
      }
      return String(id.prefix(max(minimumLength, shared + 1)))
    }
  }

  /// Replaces every field of the stored place with the same id; `unknownID` when there is none.
  public func update(_ location: Location) throws(LocationStoreError) {
    try Self.check(location)
    try writing { () throws in
      let statement = try database.cached(
        """
        UPDATE location SET latitude = ?2, longitude = ?3, description = ?4, category = ?5, date = ?6,
          sub_thoroughfare = ?7, thoroughfare = ?8, locality = ?9, administrative_area = ?10,
          postal_code = ?11, country = ?12, photo_path = ?13
        WHERE id = ?1
        """)
      try statement.bind(Self.values(location))
      try statement.run()
      if database.changes == 0 { throw LocationStoreError.unknownID(location.id) }
    }
  }

  /// Deletes the places with these ids (a repeated id counts once) and returns how many. All or nothing:
  /// when one id is unknown, `unknownID` names it and nothing is deleted.
  public func delete(ids: [String]) throws(LocationStoreError) -> Int {
    var seen = Set<String>()
    let unique = ids.filter { seen.insert($0).inserted }
    guard !unique.isEmpty else { return 0 }
    return try writing { () throws in
      let statement = try database.cached("DELETE FROM location WHERE id = ?")
      for id in unique {
        statement.reset()
        try statement.bind([.text(id)])
        try statement.run()
        if database.changes == 0 { throw LocationStoreError.unknownID(id) }
      }
      return unique.count
    }
  }

  // MARK: - Many places

  /// How many places match the filter.
  public func count(_ filter: LocationFilter = .init()) throws(LocationStoreError) -> Int {
    let query = StoreQuery(filter)
    return try locked { () throws in
      try integer("SELECT count(*) FROM location" + query.whereClause, query.values, cached: false)
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
    try eachRow(
      "SELECT \(StoreSchema.columns) FROM location" + query.whereClause + query.orderClause, query.values
    ) { try body(Self.location($0)) }
  }

  /// Calls `body` with each row `sql` gives, under the lock, one row at a time. `body` may run other
  /// queries meanwhile (the statement is one of its own, not a cached one); an error it throws ends the
  /// walk and is rethrown as it is. SQLite's failures come out as `LocationStoreError`s.
  func eachRow(_ sql: String, _ values: [SQLiteValue], _ body: (SQLiteStatement) throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    let statement: SQLiteStatement
    do throws(SQLiteError) {
      statement = try database.fresh(sql)
    } catch {
      throw LocationStoreError(error)
    }
    defer { statement.finalize() }
    do throws(SQLiteError) {
      try statement.bind(values)
    } catch {
      throw LocationStoreError(error)
    }
    while true {
      let hasRow: Bool
      do throws(SQLiteError) {
        hasRow = try statement.step()
      } catch {
        throw LocationStoreError(error)
      }
      guard hasRow else { return }
      try body(statement)
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
      throw LocationStoreError.failed("\(error)")  // Not reached: the body above throws nothing.
    }
    return result
  }

}

// MARK: - Helpers

extension LocationStore {
  static let insertSQL =
    "INSERT INTO location (\(StoreSchema.columns))"
    + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) ON CONFLICT (id) DO NOTHING"

  /// Runs `body` with the connection, under the lock (tests read pragmas with it).
  func withDatabase<T>(_ body: (SQLiteConnection) throws -> T) throws(LocationStoreError) -> T {
    try locked { try body(database) }
  }

  /// Runs `body` under the lock. The store's errors come out as they are; SQLite's become `.failed`.
  func locked<T>(_ body: () throws -> T) throws(LocationStoreError) -> T {
    lock.lock()
    defer { lock.unlock() }
    do {
      return try body()
    } catch let error as LocationStoreError {
      throw error
    } catch let error as SQLiteError {
      throw LocationStoreError(error)
    } catch {
      throw .failed("\(error)")
    }
  }

  /// Runs `body` in a `BEGIN IMMEDIATE` transaction (taking the write lock first, so it never has to
  /// upgrade a read lock, which SQLite would refuse without waiting); commits, or rolls back on error or
  /// when `commit` is false.
  func writing<T>(commit: Bool = true, _ body: () throws -> T) throws(LocationStoreError) -> T {
    try locked {
      try database.execute("BEGIN IMMEDIATE")
      do {
        let result = try body()
        try database.execute(commit ? "COMMIT" : "ROLLBACK")
        return result
      } catch {
        if database.inTransaction { try? database.execute("ROLLBACK") }
        throw error
      }
    }
  }

  /// The first column of the first row of `sql` as an integer (0 when there is no row). `cached` false
  /// for SQL built from input (a filter), which should not pile up in the statement cache.
  func integer(_ sql: String, _ values: [SQLiteValue], cached: Bool) throws(SQLiteError) -> Int {
    let statement = try cached ? database.cached(sql) : database.fresh(sql)
    defer { cached ? statement.reset() : statement.finalize() }
    try statement.bind(values)
    return try statement.step() ? statement.integer(0) : 0
  }

  /// Throws `invalidPlace` for a place the table cannot hold.
  static func check(_ location: Location) throws(LocationStoreError) {
    guard !location.id.isEmpty else {
      throw LocationStoreError.invalidPlace("a place needs an id; this one has an empty id")
    }
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
  static func values(_ location: Location) -> [SQLiteValue] {
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
  static func location(_ row: SQLiteStatement) -> Location {
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
