import Foundation
import SQLite
import TestSupport
import XCTest

@testable import Places

/// Opening stores: new, empty, foreign, from the future, unreachable; the schema's pragmas and migrations.
final class LocationStoreOpeningTests: XCTestCase {
  private var folder: TemporaryDirectory!

  override func setUpWithError() throws {
    folder = try TemporaryDirectory(prefix: "mymap-store-opening")
  }

  override func tearDown() {
    folder = nil
  }

  private func path(_ name: String) -> String { folder.url(name).path }

  /// Runs SQL on a file through a connection of its own (as another program would).
  private func execute(_ sql: String, on path: String) throws {
    let database = try SQLiteConnection(path: path, options: SQLiteOptions(access: .create))
    try database.execute(sql)
  }

  private func text(_ sql: String, on path: String) throws -> String? {
    let database = try SQLiteConnection(path: path, options: SQLiteOptions(access: .readWrite))
    let statement = try database.fresh(sql)
    defer { statement.finalize() }
    return try statement.step() ? statement.optionalString(0) : nil
  }

  func testANewStoreIsCreatedWithItsFoldersAndPragmas() throws {
    let file = path("a/b/c/locations.sqlite")
    let store = try LocationStore(path: file)
    XCTAssertEqual(store.path, file)
    try store.add(storePlace("x"))
    XCTAssertEqual(try text("PRAGMA journal_mode", on: file), "wal")
    XCTAssertEqual(try text("PRAGMA application_id", on: file), String(StoreSchema.applicationID))
    XCTAssertEqual(try text("PRAGMA user_version", on: file), String(StoreSchema.latestVersion))
    XCTAssertEqual(
      try text(
        "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'index'"
          + " AND name LIKE 'location_%' ORDER BY name)", on: file),
      "location_category_date,location_content,location_date")
    // Per-connection settings of the store's own connection.
    let statement = try XCTUnwrap(store.pragma("busy_timeout"))
    XCTAssertEqual(statement, "10000")
    XCTAssertEqual(try store.pragma("synchronous"), "1")  // NORMAL
    XCTAssertEqual(try store.pragma("foreign_keys"), "1")
  }

  func testAnEmptyFileBecomesAStore() throws {
    // A zero-byte file, and an SQLite database with no tables and user_version 0 (schema "v0").
    let empty = path("empty.sqlite")
    XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
    let v0 = path("v0.sqlite")
    try execute("CREATE TABLE scratch (x); DROP TABLE scratch; PRAGMA user_version = 0;", on: v0)
    for file in [empty, v0] {
      let store = try LocationStore(path: file, create: false)
      try store.add(storePlace("x"))
      XCTAssertEqual(try text("PRAGMA user_version", on: file), String(StoreSchema.latestVersion), file)
      XCTAssertEqual(try LocationStore(path: file).count(), 1, file)
    }
  }

  func testATextFileIsNotADatabase() throws {
    let file = try folder.write("latitude,longitude\n1,2\n", to: "places.csv").path
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: file) },
      .wrongFile(path: file, reason: "it is not an SQLite database"))
    XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "latitude,longitude\n1,2\n")
  }

  func testAnotherProgramsDatabaseIsNotAStore() throws {
    let tables = path("other.sqlite")
    try execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');", on: tables)
    let otherApplication = path("other-app.sqlite")
    try execute("PRAGMA application_id = 1234; PRAGMA user_version = 1;", on: otherApplication)
    for file in [tables, otherApplication] {
      XCTAssertEqual(storeError { _ = try LocationStore(path: file) }, .notAStore(path: file))
    }
    // Left as it was: not switched to WAL, no table added.
    XCTAssertEqual(try text("PRAGMA journal_mode", on: tables), "delete")
    XCTAssertEqual(try text("SELECT group_concat(name) FROM sqlite_master", on: tables), "notes")
  }

  func testAStoreFromTheFutureIsRefused() throws {
    let file = path("future.sqlite")
    _ = try LocationStore(path: file)
    try execute("PRAGMA user_version = 99", on: file)
    XCTAssertEqual(storeError { _ = try LocationStore(path: file) }, .newerSchema(path: file, version: 99))
    XCTAssertEqual(try text("PRAGMA user_version", on: file), "99")
  }

  func testFoldersThatCannotHoldAStore() throws {
    // Tests run as root, which may write anywhere: a folder under a regular file fails for everyone.
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: "/etc/hostname/locations.sqlite") },
      .cannotOpen(path: "/etc/hostname/locations.sqlite", reason: "'/etc/hostname' is a file, not a folder"))
    let underFile = try folder.write("x", to: "file").path + "/deeper/locations.sqlite"
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: underFile) },
      .cannotOpen(path: underFile, reason: "'\(folder.url("file").path)' is a file, not a folder"))
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: folder.path) },
      .wrongFile(path: folder.path, reason: "it is a folder, not a file"))
    let missing = path("missing.sqlite")
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: missing, create: false) },
      .cannotOpen(path: missing, reason: "the file does not exist"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: "") }, .cannotOpen(path: "", reason: "the path is empty"))
  }

  // MARK: Migrations

  private static let futureVersion = StoreMigration(
    version: StoreSchema.latestVersion + 1,
    sql: """
      ALTER TABLE location ADD COLUMN altitude REAL;
      UPDATE location SET altitude = 0;
      CREATE INDEX location_altitude ON location (altitude);
      """)

  func testTheMigrationListIsNumberedInOrder() {
    XCTAssertEqual(StoreSchema.migrations.map(\.version), Array(1...StoreSchema.latestVersion))
  }

  func testAStoreMigratesToAFutureVersion() throws {
    let file = path("latest.sqlite")
    let future = StoreSchema.latestVersion + 1
    try LocationStore(path: file).add(storePlace("kept", "Eiffel Tower"))
    let migrated = try LocationStore(
      path: file, create: false, migrations: StoreSchema.migrations + [Self.futureVersion])
    XCTAssertEqual(try text("PRAGMA user_version", on: file), String(future))
    XCTAssertEqual(try text("SELECT altitude FROM location WHERE id = 'kept'", on: file), "0.0")
    XCTAssertEqual(try migrated.location(id: "kept")?.locationDescription, "Eiffel Tower")
    // And this version, which does not know it, now refuses it.
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: file) }, .newerSchema(path: file, version: future))
  }

  /// A store of schema 2 is read as it is by a read-only open (only imports use the content index), and
  /// gets the content index with the description when opened to write; finding the same place then looks
  /// up all four columns in it instead of visiting every place at one position.
  func testAVersion2StoreGetsTheContentIndexWithTheDescription() throws {
    let file = path("v2.sqlite")
    try LocationStore(path: file).add(storePlace("kept", "Eiffel Tower"))
    try execute(
      "DROP INDEX location_content; CREATE INDEX location_content ON location (latitude, longitude, date);"
        + " PRAGMA user_version = 2;", on: file)
    let reader = try LocationStore(path: file, create: false, access: .readOnly)
    XCTAssertEqual(try reader.location(id: "kept")?.locationDescription, "Eiffel Tower")
    XCTAssertEqual(try text("PRAGMA user_version", on: file), "2")
    let store = try LocationStore(path: file, create: false)
    XCTAssertEqual(try text("PRAGMA user_version", on: file), "3")
    XCTAssertEqual(
      try text("SELECT group_concat(name) FROM pragma_index_info('location_content')", on: file),
      "latitude,longitude,date,description")
    XCTAssertEqual(try store.location(id: "kept")?.locationDescription, "Eiffel Tower")
    let database = try SQLiteConnection(path: file, options: SQLiteOptions(access: .readOnly))
    let explained = try database.fresh("EXPLAIN QUERY PLAN " + LocationStore.sameContentSQL)
    defer { explained.finalize() }
    var plan = ""
    while try explained.step() { plan += explained.string(3) + "\n" }
    XCTAssertTrue(
      plan.contains("location_content (latitude=? AND longitude=? AND date=? AND description=?)"), plan)
  }

  /// A schema 1 store still needs the upgrade to be read (it has no track table); a store whose content
  /// index was removed by hand migrates all the same.
  func testOnlyTheNewestReadCompatibleStepsMayBeMissingToRead() throws {
    let v1 = path("v1.sqlite")
    try LocationStore(path: v1).add(storePlace("kept"))
    try execute("DROP TABLE track; PRAGMA user_version = 1;", on: v1)
    XCTAssertEqual(
      storeError { _ = try LocationStore(path: v1, create: false, access: .readOnly) },
      .needsUpgrade(path: v1, version: 1))
    let bare = path("bare.sqlite")
    try LocationStore(path: bare).add(storePlace("kept"))
    try execute("DROP INDEX location_content; PRAGMA user_version = 2;", on: bare)
    XCTAssertEqual(try LocationStore(path: bare, create: false).locations().map(\.id), ["kept"])
    XCTAssertEqual(try text("PRAGMA user_version", on: bare), "3")
    XCTAssertEqual(
      try text("SELECT group_concat(name) FROM pragma_index_info('location_content')", on: bare),
      "latitude,longitude,date,description")
  }

  func testAFailedMigrationLeavesTheStoreAsItWas() throws {
    let file = path("latest.sqlite")
    let latest = StoreSchema.latestVersion
    try LocationStore(path: file).add(storePlace("kept"))
    let broken = StoreMigration(
      version: latest + 1, sql: "ALTER TABLE location ADD COLUMN x REAL; SELECT nonsense(")
    let error = storeError {
      _ = try LocationStore(path: file, create: false, migrations: StoreSchema.migrations + [broken])
    }
    guard case .failed(let message)? = error else { return XCTFail("got \(String(describing: error))") }
    XCTAssertTrue(message.hasPrefix("migrating to schema version \(latest + 1) failed: "), message)
    XCTAssertEqual(try text("PRAGMA user_version", on: file), String(latest))
    XCTAssertNil(try text("SELECT name FROM pragma_table_info('location') WHERE name = 'x'", on: file))
    XCTAssertEqual(try LocationStore(path: file).locations().map(\.id), ["kept"])
  }
}

extension LocationStore {
  /// A pragma's value on this store's connection (tests only).
  fileprivate func pragma(_ name: String) throws -> String? {
    try withDatabase { database in
      let statement = try database.fresh("PRAGMA \(name)")
      defer { statement.finalize() }
      return try statement.step() ? statement.optionalString(0) : nil
    }
  }
}
