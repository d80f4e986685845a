import Foundation
import SQLite
import TestSupport
import XCTest

@testable import Places

/// Importing the My Locations app's own Core Data store. The fixtures are made by
/// `Fixtures/coredata/make-fixture.py`, which says what each row tests.
final class CoreDataStoreTests: XCTestCase {
  private let folder = fixtures.appendingPathComponent("coredata")
  private let storeUUID = "5B4E9C2A-3F1D-4E8B-9A6C-7D2E1F0B8C34"
  private let knownCategories =
    "No Category, Apple Store, Bar, Bookstore, Club, Grocery Store, Historic Building, House, Icecream Vendor, "
    + "Landmark, Park"

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  private func readStore(_ name: String = "DataModel.sqlite") throws -> LocationSet {
    try CoreDataStore.read(path: path(name))
  }

  private func errorLine(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
      let set = try CoreDataStore.read(path: path)
      XCTFail("expected an error, read \(set.locations.count) locations", file: file, line: line)
      return ""
    } catch {
      return error.description
    }
  }

  // MARK: Rows and fields

  func testReadsEveryRowInPrimaryKeyOrder() throws {
    let set = try readStore()
    XCTAssertEqual(
      set.locations.map(\.locationDescription),
      [
        "Apple Park Visitor Center", "Infinite Loop", "Memorial Park", "", "Books Inc.",
        "Stevens Creek Reservoir",
      ])
    XCTAssertNil(set.user)
  }

  func testEveryFieldOfAFullRow() throws {
    let place = try readStore().locations[0]
    XCTAssertEqual(place.id, "cd-106abd40781532d5")
    XCTAssertEqual(place.latitude, 37.33264)
    XCTAssertEqual(place.longitude, -122.00577)
    XCTAssertEqual(place.locationDescription, "Apple Park Visitor Center")
    XCTAssertEqual(place.category, "Apple Store")
    XCTAssertEqual(place.date, utc(2024, 5, 14, 9, 30, 0.25))
    XCTAssertEqual(
      place.placemark,
      Placemark(
        subThoroughfare: "10600", thoroughfare: "N Tantau Ave", locality: "Cupertino",
        administrativeArea: "CA",
        postalCode: "95014", country: "United States"))
    XCTAssertEqual(place.fullAddress, "10600 N Tantau Ave, Cupertino, CA 95014, United States")
    XCTAssertEqual(place.photoPath.map { URL(fileURLWithPath: $0).lastPathComponent }, "Photo-3.jpg")
    XCTAssertTrue(
      place.photoPath.map { $0.hasPrefix("/") && FileManager.default.fileExists(atPath: $0) } ?? false)
  }

  func testDatesCountFromTheCoreDataReferenceDate() throws {
    let dates = try readStore().locations.map(\.date)
    XCTAssertEqual(dates[0]?.timeIntervalSinceReferenceDate, 737_371_800.25)
    XCTAssertEqual(dates[0]?.timeIntervalSince1970, 1_715_679_000.25)
    // Whole seconds: SQLite's NUMERIC affinity stores them as INTEGER, and they read the same.
    XCTAssertEqual(dates[1], utc(2023, 11, 2, 17, 5))
    XCTAssertEqual(dates[2], utc(2024, 6, 1, 12, 0, 0.5))
    XCTAssertEqual(dates[4], utc(2024, 7, 4, 16, 20, 0.75))
  }

  func testStreetStandsInForAMissingThoroughfare() throws {
    // An NSMutableDictionary with Street only, City and ZIP as NSMutableString objects.
    let place = try readStore().locations[1]
    XCTAssertEqual(
      place.placemark,
      Placemark(
        thoroughfare: "1 Infinite Loop", locality: "Cupertino", administrativeArea: "CA", postalCode: "95014",
        country: "United States"))
    XCTAssertEqual(place.shortAddress, "1 Infinite Loop, Cupertino")
    XCTAssertEqual(place.category, "Historic Building")
  }

  func testPlacemarkFieldsAsDirectKeys() throws {
    let place = try readStore().locations[2]
    XCTAssertEqual(
      place.placemark,
      Placemark(
        subThoroughfare: "21221", thoroughfare: "Stevens Creek Blvd", locality: "Cupertino",
        administrativeArea: "CA", postalCode: "95014", country: "United States"))
    XCTAssertNil(place.photoPath)
  }

  func testARowWithoutAPlacemarkHasNoAddress() throws {
    let place = try readStore().locations[3]
    XCTAssertNil(place.placemark)
    XCTAssertEqual(place.fullAddress, "No Address Found")
    XCTAssertEqual(place.shortAddress, "Lat: 37.31873000, Long: -122.08926000")
    XCTAssertEqual(place.title, "(No Description)")
    XCTAssertEqual(place.category, "No Category")
  }

  func testUnreadableAddressesAreLeftOutAndCountedInOneWarning() throws {
    let set = try readStore()
    XCTAssertNil(set.locations[4].placemark, "garbage blob")
    XCTAssertNil(set.locations[5].placemark, "an archive with none of the six fields")
    XCTAssertEqual(
      set.warnings,
      [
        "2 addresses could not be read and were left out (rows Z_PK 6, 7)",
        "1 photo is not beside the store and was left out (row Z_PK 2: Photo-7.jpg)",
      ])
  }

  func testAPhotoWhoseFileIsMissingIsLeftOut() throws {
    let set = try readStore()
    XCTAssertEqual(
      set.locations.map { $0.photoPath.map { URL(fileURLWithPath: $0).lastPathComponent } },
      ["Photo-3.jpg", nil, nil, nil, nil, nil])
  }

  // MARK: Ids

  func testIDsAreStableAcrossReadsAndComeFromTheStoreUUIDAndPrimaryKey() throws {
    let first = try readStore().locations.map(\.id)
    let second = try readStore().locations.map(\.id)
    XCTAssertEqual(first, second)
    XCTAssertEqual(
      first,
      [
        "cd-106abd40781532d5", "cd-bbfa1c5fb717a0f5", "cd-2ac191bb6816451f", "cd-fad4be9886d28002",
        "cd-81d99be6ad9c7f27", "cd-d8238f12fb2d8710",
      ])
    XCTAssertEqual(first[0], CoreDataStore.stableID(storeUUID: storeUUID, primaryKey: 1))
    XCTAssertEqual(Set(first.map { $0.prefix(8) }).count, first.count, "the short ids tell places apart")
  }

  func testIDsSurviveAnEditInTheApp() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let copy = scratch.url("DataModel.sqlite").path
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: copy)
    try execute(
      copy, "UPDATE ZLOCATION SET ZLOCATIONDESCRIPTION = 'Visitor Center', ZLATITUDE = 37.3327 WHERE Z_PK = 1"
    )
    let place = try CoreDataStore.read(path: copy).locations[0]
    XCTAssertEqual(place.locationDescription, "Visitor Center")
    XCTAssertEqual(place.id, "cd-106abd40781532d5")
  }

  func testWithoutAStoreUUIDIDsAreDerivedFromThePlace() throws {
    let places = try readStore("no-metadata.sqlite").locations
    XCTAssertEqual(places.count, 6)
    for place in places {
      XCTAssertEqual(
        place.id,
        Location.derivedID(
          latitude: place.latitude, longitude: place.longitude,
          locationDescription: place.locationDescription,
          date: place.date))
    }
  }

  // MARK: Errors

  func testNoSuchFile() {
    XCTAssertEqual(errorLine("/nonexistent/DataModel.sqlite"), "/nonexistent/DataModel.sqlite: no such file")
  }

  func testADirectoryNamesTheStoreInside() {
    XCTAssertEqual(
      errorLine(folder.path),
      "\(folder.path): cannot read the file: it is a directory (the store is \(folder.path)/DataModel.sqlite)"
    )
  }

  func testNotAnSQLiteFile() {
    XCTAssertEqual(
      errorLine(path("not-sqlite.sqlite")),
      "\(path("not-sqlite.sqlite")): not an SQLite file; expected the My Locations app's Core Data store"
        + " (DataModel.sqlite)")
  }

  func testAnEmptyFile() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let empty = try scratch.write(Data(), to: "DataModel.sqlite").path
    XCTAssertEqual(
      errorLine(empty),
      "\(empty): the file is empty; expected the My Locations app's Core Data store (DataModel.sqlite)")
  }

  func testSQLiteWithoutZLOCATIONIsNotAMyLocationsStore() {
    XCTAssertEqual(
      errorLine(path("no-zlocation.sqlite")),
      "\(path("no-zlocation.sqlite")): not a My Locations store: it has no ZLOCATION table"
        + " (its tables: ZITEM, Z_METADATA, Z_MODELCACHE, Z_PRIMARYKEY)")
  }

  func testMissingColumns() {
    XCTAssertEqual(
      errorLine(path("missing-columns.sqlite")),
      "\(path("missing-columns.sqlite")): not a My Locations store: table ZLOCATION has no columns"
        + " ZLATITUDE, ZDATE, ZCATEGORY, ZPLACEMARK")
  }

  func testOutOfRangeLatitudeFailsTheWholeReadNamingTheRow() {
    XCTAssertEqual(
      errorLine(path("bad-latitude.sqlite")),
      "\(path("bad-latitude.sqlite")): row Z_PK 7: latitude 91 is outside -90…90")
  }

  func testNullLongitude() {
    XCTAssertEqual(
      errorLine(path("null-longitude.sqlite")),
      "\(path("null-longitude.sqlite")): row Z_PK 2: longitude is missing (NULL)")
  }

  func testADamagedStore() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let store = try Data(contentsOf: URL(fileURLWithPath: path("DataModel.sqlite")))
    let cut = try scratch.write(store.prefix(16), to: "header-only.sqlite").path
    XCTAssertEqual(
      errorLine(cut), "\(cut): cannot read the file: the database is damaged (SQLite: file is not a database)"
    )
    for length in [100, 4_096, 10_000] {
      let damaged = try scratch.write(store.prefix(length), to: "DataModel-\(length).sqlite").path
      XCTAssertEqual(
        errorLine(damaged),
        "\(damaged): cannot read the file: the database is damaged (SQLite: database disk image is malformed)"
      )
    }
  }

  func testCoordinatesThatAreNotNumbers() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let copy = scratch.url("DataModel.sqlite").path
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: copy)
    try execute(copy, "UPDATE ZLOCATION SET ZLONGITUDE = 'west' WHERE Z_PK = 3")
    XCTAssertEqual(errorLine(copy), "\(copy): row Z_PK 3: longitude must be a number, not \"west\"")
    try execute(copy, "UPDATE ZLOCATION SET ZLONGITUDE = 180.5 WHERE Z_PK = 3")
    XCTAssertEqual(errorLine(copy), "\(copy): row Z_PK 3: longitude 180.5 is outside -180…180")
  }

  func testOddValuesAreWarnedAboutNotFatal() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let copy = scratch.url("DataModel.sqlite").path
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: copy)
    try execute(
      copy,
      "UPDATE ZLOCATION SET ZCATEGORY = 'Cafe', ZDATE = 'yesterday' WHERE Z_PK = 3;"
        + " UPDATE ZLOCATION SET ZCATEGORY = NULL, ZDATE = NULL, ZLOCATIONDESCRIPTION = NULL WHERE Z_PK = 5")
    let set = try CoreDataStore.read(path: copy)
    XCTAssertEqual(set.locations[2].category, "Cafe")
    XCTAssertNil(set.locations[2].date)
    XCTAssertEqual(set.locations[3].category, "No Category")
    XCTAssertNil(set.locations[3].date)
    XCTAssertEqual(set.locations[3].locationDescription, "")
    XCTAssertEqual(
      set.warnings,
      [
        "row Z_PK 3: date \"yesterday\" is not a Core Data timestamp (seconds since 2001-01-01); left out",
        "row Z_PK 3: unknown category \"Cafe\" (kept; known: \(knownCategories))",
        "2 addresses could not be read and were left out (rows Z_PK 6, 7)",
        // The copy has no Photo-3.jpg beside it.
        "2 photos are not beside the store and were left out (rows Z_PK 1: Photo-3.jpg, 2: Photo-7.jpg)",
      ])
  }

  /// A timestamp no calendar can write (±1e308 s) once imported made every later `list --json` and export
  /// trap: it is left out with a warning like any other unreadable date.
  func testTimestampsBeyondAnyWritableYearAreLeftOut() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let copy = scratch.url("DataModel.sqlite").path
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: copy)
    try execute(
      copy,
      "UPDATE ZLOCATION SET ZDATE = 1e308 WHERE Z_PK = 3; UPDATE ZLOCATION SET ZDATE = -1e308 WHERE Z_PK = 6;"
        + " UPDATE ZLOCATION SET ZDATE = 3e11 WHERE Z_PK = 5")
    let set = try CoreDataStore.read(path: copy)
    XCTAssertEqual(set.locations.filter { $0.date == nil }.count, 3)
    let dateWarnings = set.warnings.filter { $0.contains("is not a Core Data timestamp") }
    XCTAssertEqual(
      dateWarnings,
      [
        "row Z_PK 3: date 1e+308 is not a Core Data timestamp (seconds since 2001-01-01); left out",
        "row Z_PK 5: date 300000000000 is not a Core Data timestamp (seconds since 2001-01-01); left out",
        "row Z_PK 6: date -1e+308 is not a Core Data timestamp (seconds since 2001-01-01); left out",
      ])
  }

  func testAStoreFromBeforeThePhotoChapterHasNoPhotoColumn() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let copy = scratch.url("DataModel.sqlite").path
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: copy)
    try execute(copy, "ALTER TABLE ZLOCATION DROP COLUMN ZPHOTOID")
    let set = try CoreDataStore.read(path: copy)
    XCTAssertEqual(set.locations.count, 6)
    XCTAssertEqual(set.locations.compactMap(\.photoPath), [])
    XCTAssertEqual(set.warnings, ["2 addresses could not be read and were left out (rows Z_PK 6, 7)"])
  }

  // MARK: Detection

  func testLooksLikeCoreDataStore() throws {
    let header = try Data(contentsOf: URL(fileURLWithPath: path("DataModel.sqlite"))).prefix(100)
    XCTAssertTrue(CoreDataStore.looksLikeCoreDataStore(header))
    XCTAssertFalse(CoreDataStore.looksLikeCoreDataStore(Data("This is a text file".utf8)))
    XCTAssertFalse(CoreDataStore.looksLikeCoreDataStore(Data()))

    XCTAssertTrue(CoreDataStore.looksLikeCoreDataStore(path: path("DataModel.sqlite")))
    XCTAssertTrue(CoreDataStore.looksLikeCoreDataStore(path: path("bad-latitude.sqlite")))
    XCTAssertFalse(CoreDataStore.looksLikeCoreDataStore(path: path("no-zlocation.sqlite")))
    XCTAssertFalse(CoreDataStore.looksLikeCoreDataStore(path: path("not-sqlite.sqlite")))
    XCTAssertFalse(CoreDataStore.looksLikeCoreDataStore(path: path("nothing-here.sqlite")))
    XCTAssertFalse(CoreDataStore.looksLikeCoreDataStore(path: folder.path))
  }

  // MARK: WAL: the store's folder is never changed

  func testReadingLeavesTheStoresFolderAsItWas() throws {
    // DataModel.sqlite is in WAL mode, as Core Data makes it; a plain read-only open would create
    // -wal and -shm beside it.
    let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let data = try Data(contentsOf: URL(fileURLWithPath: path("DataModel.sqlite")))
    XCTAssertEqual(data[18], 2, "the fixture is in WAL mode")
    _ = try readStore()
    XCTAssertTrue(CoreDataStore.looksLikeCoreDataStore(path: path("DataModel.sqlite")))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("DataModel.sqlite"))), data)
  }

  func testChangesStillInTheWALAreRead() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let store = scratch.url("DataModel.sqlite").path
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: store)
    // The app, still running: its last change is in -wal only.
    let app = try Connection(store)
    try app.execute(
      "PRAGMA wal_autocheckpoint = 0; INSERT INTO ZLOCATION (Z_PK, Z_ENT, Z_OPT, ZDATE, ZLATITUDE, ZLONGITUDE,"
        + " ZCATEGORY, ZLOCATIONDESCRIPTION) VALUES (8, 1, 1, 760000000, 37.3229, -122.0322, 'Grocery Store',"
        + " 'Whole Foods')")
    XCTAssertGreaterThan(try fileSize(store + "-wal"), 0)
    let mainFile = try Data(contentsOf: URL(fileURLWithPath: store))

    // 1. With the app's -shm beside it: read in place.
    let live = try CoreDataStore.read(path: store)
    XCTAssertEqual(live.locations.last?.locationDescription, "Whole Foods")
    XCTAssertEqual(live.locations.last?.date, Date(timeIntervalSinceReferenceDate: 760_000_000))
    XCTAssertEqual(live.locations.count, 7)

    // 2. The .sqlite and its -wal copied without -shm: read through a private copy; nothing is created.
    let copied = try TemporaryDirectory(prefix: "mymap-coredata")
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(
        atPath: store + suffix, toPath: copied.url("DataModel.sqlite" + suffix).path)
    }
    let offline = try CoreDataStore.read(path: copied.url("DataModel.sqlite").path)
    XCTAssertEqual(offline.locations, live.locations)
    XCTAssertEqual(offline.warnings, live.warnings)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: copied.path).sorted(),
      ["DataModel.sqlite", "DataModel.sqlite-wal"])

    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), mainFile, "the reads wrote nothing")
    try app.close()
  }

  func testAPathThatNeedsEscapingInAnSQLiteURI() throws {
    let scratch = try TemporaryDirectory(prefix: "mymap-coredata")
    let store = scratch.url("50% off? #1 ü/DataModel.sqlite").path
    try FileManager.default.createDirectory(
      atPath: (store as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: path("DataModel.sqlite"), toPath: store)
    XCTAssertEqual(try CoreDataStore.read(path: store).locations.count, 6)
  }

  func testARelativePath() throws {
    // Relative to the current directory, without changing it (other tests may run at the same time).
    let depth = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).pathComponents.count - 1
    let relative = String(repeating: "../", count: depth) + path("DataModel.sqlite").dropFirst()
    let set = try CoreDataStore.read(path: relative)
    XCTAssertEqual(set.locations.count, 6)
    XCTAssertEqual(
      set.locations[0].photoPath.map { URL(fileURLWithPath: $0).lastPathComponent }, "Photo-3.jpg")
  }

  // MARK: Keyed archives

  func testGarbageNeverCrashesTheArchiveReader() throws {
    let archive = try blob("SELECT ZPLACEMARK FROM ZLOCATION WHERE Z_PK = 1")
    XCTAssertNotNil(CoreDataStore.archivedPlacemark(archive))
    for length in 0..<archive.count {
      _ = CoreDataStore.archivedPlacemark(Array(archive.prefix(length)))
    }
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<3_000 {
      var damaged = archive
      for _ in 0..<Int(generator.next() % 4 + 1) {
        damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = CoreDataStore.archivedPlacemark(damaged)
    }
  }

  func testBinaryPropertyListValues() throws {
    // The store's metadata plist, written by Python's plistlib: strings, integers, data, arrays, dictionaries.
    let plist = try blob("SELECT Z_PLIST FROM Z_METADATA")
    guard case .dictionary(let members)? = BinaryPropertyList.parse(plist) else {
      return XCTFail("not read")
    }
    XCTAssertEqual(members["NSStoreUUID"], .string(storeUUID))
    XCTAssertEqual(members["NSPersistenceFrameworkVersion"], .integer(1338))
    XCTAssertEqual(members["NSStoreModelVersionIdentifiers"], .array([.string("")]))
    XCTAssertEqual(members["NSStoreModelVersionHashes"], .dictionary(["Location": .data(Array(0..<32))]))
    XCTAssertNil(BinaryPropertyList.parse(Array("bplist00".utf8)))
    XCTAssertNil(KeyedArchive(plist), "a plist, but no keyed archive")
  }

  // MARK: Helpers

  /// The first column of the first row of `sql` on the fixture store.
  private func blob(_ sql: String) throws -> [UInt8] {
    let connection = try Connection(path("DataModel.sqlite"), immutable: true)
    defer { try? connection.close() }
    return try connection.blob(sql)
  }

  private func execute(_ path: String, _ sql: String) throws {
    let connection = try Connection(path)
    try connection.execute(sql)
    try connection.close()
  }

  private func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
  }
}

/// A read-write connection for setting up stores (or, `immutable`, for reading a fixture without touching it).
private final class Connection {
  private var connection: SQLiteConnection?

  init(_ path: String, immutable: Bool = false) throws {
    var options = SQLiteOptions(access: immutable ? .readOnly : .readWrite)
    options.immutable = immutable
    options.probe = false
    connection = try SQLiteConnection(path: path, options: options)
  }

  func execute(_ sql: String) throws {
    try connection?.execute(sql)
  }

  func blob(_ sql: String) throws -> [UInt8] {
    guard let row = try connection?.rows(sql).first, let data = row.first?.blob else {
      throw SQLiteError(kind: .other, code: 0, message: "no blob from \(sql)")
    }
    return [UInt8](data)
  }

  func close() throws {
    connection = nil
  }
}
