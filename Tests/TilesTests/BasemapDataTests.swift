import BasemapBuilding
import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

/// `BasemapData`: opening errors, finding the file, queries from several threads, damaged rows.
final class BasemapDataTests: XCTestCase {
  private func builtFixture() throws -> String {
    let path = try makeTemporaryFolder(self) + "/basemap.sqlite"
    _ = try BasemapBuilder(inputs: basemapFixtureInputs()).build(to: path)
    return path
  }

  private func openingError(_ path: String) -> BasemapDataError? {
    do {
      _ = try BasemapData(path: path)
      return nil
    } catch {
      return error as? BasemapDataError
    }
  }

  /// Runs SQL on a file (creating it) with a writable connection.
  private func execute(_ sql: String, on path: String) throws {
    try sqliteExecute(path, sql)
  }

  // MARK: Errors

  func testOpeningErrorsSayWhatIsWrongInOneLine() throws {
    let folder = try makeTemporaryFolder(self)
    let missing = folder + "/none.sqlite"
    XCTAssertEqual(openingError(missing), .notFound(missing))
    XCTAssertEqual(openingError(folder), .notABasemap(folder, reason: "a directory"))

    let text = folder + "/text.sqlite"
    try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
    XCTAssertEqual(openingError(text), .notABasemap(text, reason: "not an SQLite database"))

    XCTAssertEqual(openingError(worldFixturePath), .notABasemap(worldFixturePath, reason: "no meta table"))

    let noFormat = folder + "/no-format.sqlite"
    try execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)", on: noFormat)
    XCTAssertEqual(
      openingError(noFormat), .notABasemap(noFormat, reason: "no format version in its meta table"))

    let future = folder + "/future.sqlite"
    try execute(
      "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', '2')",
      on: future)
    XCTAssertEqual(openingError(future), .unsupportedFormat(future, version: "2"))

    let noLayers = folder + "/no-layers.sqlite"
    try execute(
      "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', '1')",
      on: noLayers)
    XCTAssertEqual(openingError(noLayers), .notABasemap(noLayers, reason: "no layer codes in its meta table"))

    let noTables = folder + "/no-tables.sqlite"
    try execute(
      """
      CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO meta VALUES ('format', '1'), ('layers', 'land=0');
      """, on: noTables)
    XCTAssertEqual(openingError(noTables), .notABasemap(noTables, reason: "no such table: feature_box"))

    let messages = [
      BasemapDataError.notFound(missing), .notABasemap(text, reason: "not an SQLite database"),
      .unsupportedFormat(future, version: "2"), .unreadable(missing, reason: "permission denied"),
    ].map(\.description)
    XCTAssertEqual(
      messages,
      [
        "basemap data not found: \(missing)",
        "\(text) is not a mymap basemap file (not an SQLite database)",
        "\(future) has basemap format version 2; this mymap reads version 1",
        "cannot read basemap data \(missing): permission denied",
      ])
    XCTAssertTrue(messages.allSatisfy { !$0.contains("\n") })
  }

  func testADamagedGeometryIsAnErrorNotATrap() throws {
    let path = try builtFixture()
    try execute("UPDATE feature SET geometry = x'FFFF' WHERE name = 'Paris'", on: path)
    let data = try BasemapData(path: path)
    XCTAssertThrowsError(
      try data.features(.cityLabel, band: 4, from: WorldPoint(x: 0, y: 0), to: WorldPoint(x: 1, y: 1))
    ) { error in
      guard case .unreadable(let errorPath, let reason) = error as? BasemapDataError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(errorPath, path)
      XCTAssertTrue(reason.hasSuffix("has a damaged geometry"), reason)
    }
    // Other kinds still read.
    XCTAssertFalse(
      try data.features(.land, band: 0, from: WorldPoint(x: 0, y: 0), to: WorldPoint(x: 1, y: 1)).isEmpty)
  }

  func testOpensAFileWhosePathNeedsEscapingInAURI() throws {
    let folder = try makeTemporaryFolder(self) + "/odd ?#%& é"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: try builtFixture(), toPath: folder + "/basemap.sqlite")
    let data = try BasemapData(path: folder + "/basemap.sqlite")
    XCTAssertEqual(data.metadata["format"], "1")
    XCTAssertEqual(
      try data.features(.cityLabel, band: 0, from: WorldPoint(x: 0, y: 0), to: WorldPoint(x: 1, y: 1)).count,
      1)
  }

  func testEmptyOrInvalidWindowsFindNothing() throws {
    let data = try BasemapData(path: try builtFixture())
    XCTAssertEqual(
      try data.features(.land, band: 0, from: WorldPoint(x: 0.6, y: 0), to: WorldPoint(x: 0.4, y: 1)), [])
    XCTAssertEqual(
      try data.features(.land, band: 0, from: WorldPoint(x: .nan, y: 0), to: WorldPoint(x: 1, y: 1)), [])
    XCTAssertEqual(
      try data.features(.land, band: 0, from: WorldPoint(x: 2, y: 0), to: WorldPoint(x: 3, y: 1)), [])
  }

  // MARK: Threads

  func testQueriesFromSeveralThreadsAgree() throws {
    let data = try BasemapData(path: try builtFixture())
    let windows = (0..<16).map { index -> (WorldPoint, WorldPoint) in
      let x = Double(index % 4) / 4
      let y = Double(index / 4) / 4
      return (WorldPoint(x: x, y: y), WorldPoint(x: x + 0.3, y: y + 0.3))
    }
    @Sendable func read(_ index: Int) -> [BasemapFeature] {
      let (low, high) = windows[index % windows.count]
      let kind = BasemapKind.allCases[index % BasemapKind.allCases.count]
      return (try? data.features(kind, band: index % BasemapBand.count, from: low, to: high)) ?? []
    }
    let expected = (0..<64).map(read)
    let results = Results(count: 64)
    DispatchQueue.concurrentPerform(iterations: 64 * 4) { iteration in
      results.set(iteration % 64, read(iteration % 64))
    }
    XCTAssertEqual(results.values, expected)
  }

  // MARK: Finding the file

  func testLocateUsesTheEnvironmentVariableAsGiven() {
    XCTAssertEqual(
      BasemapData.locate(
        environment: ["MYMAP_BASEMAP": "/no/such/basemap.sqlite"], executablePath: "/usr/bin/mymap"),
      "/no/such/basemap.sqlite", "a wrong path is reported when opened, not silently replaced")
    XCTAssertNil(BasemapData.locate(environment: ["MYMAP_BASEMAP": ""], executablePath: "/no/such/bin/mymap"))
    XCTAssertNil(BasemapData.locate(environment: [:], executablePath: nil))
  }

  func testLocateFindsAnInstalledCopyBesideTheExecutable() throws {
    let prefix = try makeTemporaryFolder(self)
    let installed = prefix + "/share/mymap/basemap.sqlite"
    try FileManager.default.createDirectory(
      atPath: prefix + "/share/mymap", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: installed, contents: Data())
    _ = FileManager.default.createFile(atPath: prefix + "/bin/mymap", contents: Data())
    XCTAssertEqual(BasemapData.locate(environment: [:], executablePath: prefix + "/bin/mymap"), installed)
    // The installed copy wins over a Data/ folder; a symbolic link to the executable is followed.
    try FileManager.default.createDirectory(atPath: prefix + "/Data", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: prefix + "/Data/basemap.sqlite", contents: Data())
    XCTAssertEqual(BasemapData.locate(environment: [:], executablePath: prefix + "/bin/mymap"), installed)
    let elsewhere = try makeTemporaryFolder(self)
    try FileManager.default.createSymbolicLink(
      atPath: elsewhere + "/mymap", withDestinationPath: prefix + "/bin/mymap")
    XCTAssertEqual(BasemapData.locate(environment: [:], executablePath: elsewhere + "/mymap"), installed)
    // The environment variable still comes first.
    XCTAssertEqual(
      BasemapData.locate(environment: ["MYMAP_BASEMAP": "/x.sqlite"], executablePath: prefix + "/bin/mymap"),
      "/x.sqlite")
  }

  func testLocateFindsTheRepositorysDataUpToFourFoldersAbove() throws {
    let repository = try makeTemporaryFolder(self)
    try FileManager.default.createDirectory(atPath: repository + "/Data", withIntermediateDirectories: true)
    let data = repository + "/Data/basemap.sqlite"
    _ = FileManager.default.createFile(atPath: data, contents: Data())
    for (depth, executable) in [
      (0, "/mymap"), (2, "/.build/release/mymap"), (3, "/.build/x86_64-unknown-linux-gnu/release/mymap"),
      (4, "/a/b/c/d/mymap"),
    ] {
      XCTAssertEqual(
        BasemapData.locate(environment: [:], executablePath: repository + executable), data, "\(depth) up")
    }
    XCTAssertNil(
      BasemapData.locate(environment: [:], executablePath: repository + "/a/b/c/d/e/mymap"), "5 up")
    // A folder named like the file is not the file.
    let other = try makeTemporaryFolder(self)
    try FileManager.default.createDirectory(
      atPath: other + "/Data/basemap.sqlite", withIntermediateDirectories: true)
    XCTAssertNil(BasemapData.locate(environment: [:], executablePath: other + "/bin/mymap"))
  }
}

/// Results written from several threads, one slot each.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [[BasemapFeature]]

  init(count: Int) { slots = Array(repeating: [], count: count) }

  func set(_ index: Int, _ value: [BasemapFeature]) {
    lock.lock()
    slots[index] = value
    lock.unlock()
  }

  var values: [[BasemapFeature]] {
    lock.lock()
    defer { lock.unlock() }
    return slots
  }
}
