import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

/// `mymap tiles info` and `mymap tiles prune`, run as a user would.
final class TilesCommandTests: XCTestCase {
  private let day: TimeInterval = 86_400

  private let description = TileCacheDescription(
    source: "https://tile.example.org/{z}/{x}/{y}.png", attribution: nil, tileSize: 256)

  /// `bytes` bytes that a cache takes for a PNG tile (they start with the PNG signature).
  private func png(_ bytes: Int) -> Data {
    Data([137, 80, 78, 71, 13, 10, 26, 10]) + Data(repeating: 1, count: bytes - 8)
  }

  /// A freshness record of a tile fetched at `fetched`.
  private func record(_ fetched: Date) -> TileFreshness {
    TileFreshness(etag: "\"e\"", expires: fetched.addingTimeInterval(day), fetched: fetched)
  }

  /// `cache.mbtiles`, as `mymap tiles fetch --to cache.mbtiles` writes it: 0/0/0 (100 bytes) and 2/1/3
  /// (20 bytes, TMS row 0) fetched at `old`, 2/1/2 (30 bytes, TMS row 1) fetched at `recent`.
  @discardableResult
  private func makeMBTilesCache(_ sandbox: Sandbox, old: Date, recent: Date) throws -> String {
    let path = sandbox.path("cache.mbtiles")
    let cache = try openTileCache(at: path, for: description)
    XCTAssertTrue(cache is MBTilesTileCache)
    try cache.store(TileID(z: 0, x: 0, y: 0)!, data: png(100), freshness: record(old))
    try cache.store(TileID(z: 2, x: 1, y: 3)!, data: png(20), freshness: record(old))
    try cache.store(TileID(z: 2, x: 1, y: 2)!, data: png(30), freshness: record(recent))
    try cache.commit()
    return path
  }

  /// The `z/x/y` keys of the records in a cache folder's `freshness.sqlite`.
  private func records(_ folder: String) throws -> [String] {
    try sqliteRows(folder + "/freshness.sqlite", "SELECT z || '/' || x || '/' || y FROM freshness ORDER BY 1")
      .map { $0[0] }
  }

  /// Asserts that a prune run started at `started` succeeded and printed exactly `lines`, then
  /// `summary (before CUTOFF)`, where CUTOFF is `age` before the moment it ran.
  private func assertPruneOutput(
    _ result: CLIResult, _ lines: [String], _ summary: String, age: TimeInterval, started: Date,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    assertSucceeded(result, file: file, line: line)
    let text = result.stdoutText
    guard
      let range = text.range(
        of: #" \(before \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\n$"#, options: .regularExpression)
    else {
      XCTFail("no cutoff at the end: \(text.debugDescription)", file: file, line: line)
      return
    }
    let stamp = String(text[range].dropFirst(" (before ".count).dropLast(2))
    let cutoff = ISO8601DateFormatter().date(from: stamp) ?? .distantPast
    XCTAssertTrue(
      (started.addingTimeInterval(-age - 1)...Date().addingTimeInterval(-age)).contains(cutoff),
      "cutoff \(stamp)", file: file, line: line)
    XCTAssertEqual(
      text, (lines + ["\(summary) (before \(stamp))"]).map { $0 + "\n" }.joined(), file: file, line: line)
  }

  /// Writes a tile file (or any file) of `bytes` bytes into the sandbox, last modified `age` seconds ago.
  private func put(_ sandbox: Sandbox, _ name: String, bytes: Int, age: TimeInterval) throws {
    let path = try sandbox.write(Data(repeating: 1, count: bytes), to: name)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
  }

  /// `cache/`: two tiles 60 days old, one 1 day old, and a metadata file.
  private func makeCache(_ sandbox: Sandbox) throws {
    try put(sandbox, "cache/0/0/0.png", bytes: 100, age: 60 * day)
    try put(sandbox, "cache/2/1/3.png", bytes: 20, age: 60 * day)
    try put(sandbox, "cache/2/1/2.jpg", bytes: 30, age: 1 * day)
    try put(sandbox, "cache/metadata.json", bytes: 2, age: 90 * day)
    // Fixed dates, so that the oldest and newest lines are known.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
      ofItemAtPath: sandbox.path("cache/0/0/0.png"))
  }

  func testInfoOnATileFolder() throws {
    let sandbox = try Sandbox()
    try makeCache(sandbox)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_800_000_000)],
      ofItemAtPath: sandbox.path("cache/2/1/2.jpg"))
    let result = try sandbox.run(["tiles", "info", "cache"])
    assertSucceeded(result)
    XCTAssertEqual(
      result.stdoutText,
      """
      cache (tile folder)
      zoom   tiles  bytes
      0          1    100
      2          2     50
      total      3    150
      oldest  2023-11-14T22:13:20Z
      newest  2027-01-15T08:00:00Z

      """)
  }

  func testInfoOnAnMBTilesFile() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["tiles", "info", Inputs.europeTiles])
    assertSucceeded(result)
    let lines = result.stdoutText.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "\(Inputs.europeTiles) (MBTiles file)")
    XCTAssertEqual(lines[1].split(separator: " "), ["zoom", "tiles", "bytes"])
    XCTAssertEqual(lines[2].split(separator: " ").prefix(2), ["0", "1"])
    XCTAssertEqual(lines[3].split(separator: " ").prefix(2), ["1", "4"])
    XCTAssertTrue(
      lines.contains { $0.hasPrefix("total") && $0.split(separator: " ")[1] == "288" }, result.stdoutText)
    XCTAssertTrue(lines.last!.hasSuffix("(the MBTiles file's modification date)"), result.stdoutText)
  }

  func testInfoOnAnEmptyFolder() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
    let result = try sandbox.run(["tiles", "info", "empty"])
    assertSucceeded(result)
    XCTAssertEqual(
      result.stdoutText,
      "empty (tile folder)\nzoom   tiles  bytes\ntotal      0      0\noldest  -\nnewest  -\n")
  }

  func testPruneRemovesOnlyOldTiles() throws {
    let sandbox = try Sandbox()
    try makeCache(sandbox)
    let result = try sandbox.run(["tiles", "prune", "cache", "--older-than", "30d"])
    assertSucceeded(result)
    XCTAssertTrue(
      result.stdoutText.hasPrefix("removed 2 tiles (120 bytes) older than 30d (before 20"), result.stdoutText)
    XCTAssertEqual(result.stdoutText.split(separator: "\n").count, 1)
    XCTAssertEqual(try sandbox.files(in: "cache"), ["2", "metadata.json"])
    XCTAssertEqual(try sandbox.files(in: "cache/2/1"), ["2.jpg"])
  }

  func testDryRunRemovesNothing() throws {
    let sandbox = try Sandbox()
    try makeCache(sandbox)
    let result = try sandbox.run(["tiles", "prune", "cache", "--older-than", "2w", "--dry-run"])
    assertSucceeded(result)
    let lines = result.stdoutText.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.prefix(2), ["0/0/0.png", "2/1/3.png"])
    XCTAssertEqual(lines.count, 3)
    XCTAssertTrue(lines[2].hasPrefix("would remove 2 tiles (120 bytes) older than 2w (before "), lines[2])
    XCTAssertEqual(try sandbox.files(in: "cache"), ["0", "2", "metadata.json"])
    XCTAssertEqual(try sandbox.files(in: "cache/2/1"), ["2.jpg", "3.png"])
  }

  func testPruneWithNothingOldEnough() throws {
    let sandbox = try Sandbox()
    try makeCache(sandbox)
    let result = try sandbox.run(["tiles", "prune", "cache", "--older-than", "1000w"])
    assertSucceeded(result)
    XCTAssertTrue(
      result.stdoutText.hasPrefix("removed 0 tiles (0 bytes) older than 1000w"), result.stdoutText)
    XCTAssertEqual(try sandbox.files(in: "cache/2/1"), ["2.jpg", "3.png"])
  }

  func testDurationErrors() throws {
    let sandbox = try Sandbox()
    try makeCache(sandbox)
    let expected = "expected a whole number and a unit (m, h, d or w), like 30d, 12h, 90m or 2w"
    for bad in ["30", "d", "30y", "-3d", "1.5h", "thirty"] {
      let result = try sandbox.run(["tiles", "prune", "cache", "--older-than", bad])
      assertFailed(result, status: 2, message: "invalid value '\(bad)' for --older-than: \(expected)")
    }
    assertFailed(
      try sandbox.run(["tiles", "prune", "cache", "--older-than", "0d"]), status: 2,
      message: "invalid value '0d' for --older-than: the age must be at least 1")
    assertFailed(
      try sandbox.run(["tiles", "prune", "cache"]), status: 2,
      message: "missing --older-than DURATION (like 30d, 12h, 90m or 2w)")
    XCTAssertEqual(try sandbox.files(in: "cache"), ["0", "2", "metadata.json"])
  }

  func testNotATileCache() throws {
    let sandbox = try Sandbox()
    try sandbox.write("hello", to: "notes/readme.txt")
    try sandbox.write("hello", to: "notes.txt")
    for command in [["tiles", "info"], ["tiles", "prune", "--older-than", "1d"]] {
      assertFailed(
        try sandbox.run(command + ["missing"]), status: 3, message: "tile source missing does not exist")
      assertFailed(
        try sandbox.run(command + ["notes"]), status: 3,
        message: "notes is not a tile source (expected a tile directory {z}/{x}/{y}.png or an .mbtiles file)")
      assertFailed(
        try sandbox.run(command + ["notes.txt"]), status: 3,
        message:
          "notes.txt is not a tile source (expected a tile directory {z}/{x}/{y}.png or an .mbtiles file)")
    }
    XCTAssertEqual(try sandbox.files(in: "notes"), ["readme.txt"])
  }

  func testPruneOfAnMBTilesFileWithoutFetchDatesIsRefused() throws {
    let sandbox = try Sandbox()
    let original = try Data(contentsOf: URL(fileURLWithPath: Inputs.europeTiles))
    try sandbox.write(original, to: "europe.mbtiles")
    for extra in [[], ["--dry-run"]] {
      assertFailed(
        try sandbox.run(["tiles", "prune", "europe.mbtiles", "--older-than", "1d"] + extra), status: 2,
        message:
          "cannot prune europe.mbtiles: the MBTiles file has no fetch dates "
          + "(it was not written by 'mymap tiles fetch')")
    }
    XCTAssertEqual(sandbox.contents(of: "europe.mbtiles"), original, "the file is not changed")
    XCTAssertEqual(try sandbox.files(), ["europe.mbtiles"], "nor is anything written beside it")
  }

  func testInfoOnAnMBTilesCacheShowsTheFetchDates() throws {
    let sandbox = try Sandbox()
    let path = try makeMBTilesCache(
      sandbox, old: Date(timeIntervalSince1970: 1_700_000_000),
      recent: Date(timeIntervalSince1970: 1_800_000_000))
    // The file's own date is not used when every tile has a fetch date.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: path)
    let result = try sandbox.run(["tiles", "info", "cache.mbtiles"])
    assertSucceeded(result)
    XCTAssertEqual(
      result.stdoutText,
      """
      cache.mbtiles (MBTiles file)
      zoom   tiles  bytes
      0          1    100
      2          2     50
      total      3    150
      oldest  2023-11-14T22:13:20Z
      newest  2027-01-15T08:00:00Z

      """)
  }

  func testInfoMarksTheFileDateStandingInForTilesWithoutAFetchDate() throws {
    let sandbox = try Sandbox()
    let path = try makeMBTilesCache(
      sandbox, old: Date(timeIntervalSince1970: 1_700_000_000),
      recent: Date(timeIntervalSince1970: 1_800_000_000))
    // 2/1/3 (TMS row 0) loses its record, as if written by another tool.
    try sqliteRows(
      path, "DELETE FROM mymap_freshness WHERE zoom_level = 2 AND tile_column = 1 AND tile_row = 0")
    let note = " (the MBTiles file's modification date, for 1 tile without a fetch date)"
    for (modified, oldest, newest) in [
      (1_600_000_000, "2020-09-13T12:26:40Z" + note, "2027-01-15T08:00:00Z"),
      (1_750_000_000, "2023-11-14T22:13:20Z", "2027-01-15T08:00:00Z"),
      (1_900_000_000, "2023-11-14T22:13:20Z", "2030-03-17T17:46:40Z" + note),
    ] {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: TimeInterval(modified))], ofItemAtPath: path)
      let result = try sandbox.run(["tiles", "info", "cache.mbtiles"])
      assertSucceeded(result)
      XCTAssertEqual(
        result.stdoutText.split(separator: "\n").suffix(2), ["oldest  " + oldest, "newest  " + newest],
        result.stdoutText)
    }
  }

  func testPruneOfAnMBTilesCacheRemovesTheOldTilesAndTheirRecords() throws {
    let sandbox = try Sandbox()
    let path = try makeMBTilesCache(
      sandbox, old: Date().addingTimeInterval(-60 * day), recent: Date().addingTimeInterval(-1 * day))
    XCTAssertEqual(try mbtilesKeys(path).tiles, ["0/0/0", "2/1/0", "2/1/1"])
    XCTAssertEqual(try mbtilesKeys(path).records, ["0/0/0", "2/1/0", "2/1/1"])
    let started = Date()
    let result = try sandbox.run(["tiles", "prune", "cache.mbtiles", "--older-than", "30d"])
    assertPruneOutput(
      result, [], "removed 2 tiles (120 bytes) older than 30d", age: 30 * day, started: started)
    XCTAssertEqual(try mbtilesKeys(path).tiles, ["2/1/1"])
    XCTAssertEqual(try mbtilesKeys(path).records, ["2/1/1"])
    XCTAssertEqual(try sqliteRows(path, "SELECT length(tile_data) FROM tiles"), [["30"]])
    XCTAssertEqual(try sandbox.files(), ["cache.mbtiles"], "no journal is left beside the file")

    let again = try sandbox.run(["tiles", "prune", "cache.mbtiles", "--older-than", "30d"])
    assertPruneOutput(again, [], "removed 0 tiles (0 bytes) older than 30d", age: 30 * day, started: started)
    let info = try sandbox.run(["tiles", "info", "cache.mbtiles"])
    assertSucceeded(info)
    XCTAssertTrue(info.stdoutText.contains("\n2          1     30\ntotal      1     30\n"), info.stdoutText)
  }

  func testDryRunOfAnMBTilesCacheListsTheTilesAndChangesNothing() throws {
    let sandbox = try Sandbox()
    let path = try makeMBTilesCache(
      sandbox, old: Date().addingTimeInterval(-60 * day), recent: Date().addingTimeInterval(-1 * day))
    let before = try XCTUnwrap(sandbox.contents(of: "cache.mbtiles"))
    let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    let started = Date()
    let result = try sandbox.run(["tiles", "prune", "cache.mbtiles", "--older-than", "2w", "--dry-run"])
    // XYZ rows, as the folder's listing names its files.
    assertPruneOutput(
      result, ["0/0/0", "2/1/3"], "would remove 2 tiles (120 bytes) older than 2w", age: 14 * day,
      started: started)
    XCTAssertEqual(sandbox.contents(of: "cache.mbtiles"), before)
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified)
    XCTAssertEqual(try mbtilesKeys(path).records, ["0/0/0", "2/1/0", "2/1/1"])
    XCTAssertEqual(try sandbox.files(), ["cache.mbtiles"])
  }

  func testPruneOfAFetchedFolderRemovesTheRecordsOfTheTilesItRemoves() throws {
    let sandbox = try Sandbox()
    let folder = sandbox.path("cache")
    do {
      let cache = try openTileCache(at: folder, for: description)
      XCTAssertTrue(cache is DirectoryTileCache)
      // Records fetched long ago: the files' dates are the rule for a folder, not the records'.
      let longAgo = record(Date().addingTimeInterval(-100 * day))
      try cache.store(TileID(z: 0, x: 0, y: 0)!, data: png(100), freshness: longAgo)
      try cache.store(TileID(z: 2, x: 1, y: 3)!, data: png(20), freshness: longAgo)
      try cache.store(TileID(z: 2, x: 1, y: 2)!, data: png(30), freshness: longAgo)
      try cache.commit()
    }
    for name in ["cache/0/0/0.png", "cache/2/1/3.png"] {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-60 * day)], ofItemAtPath: sandbox.path(name))
    }
    XCTAssertEqual(try records(folder), ["0/0/0", "2/1/2", "2/1/3"])
    let started = Date()

    let dryRun = try sandbox.run(["tiles", "prune", "cache", "--older-than", "30d", "--dry-run"])
    assertPruneOutput(
      dryRun, ["0/0/0.png", "2/1/3.png"], "would remove 2 tiles (120 bytes) older than 30d", age: 30 * day,
      started: started)
    XCTAssertEqual(try records(folder), ["0/0/0", "2/1/2", "2/1/3"])
    XCTAssertEqual(try sandbox.files(in: "cache/2/1"), ["2.png", "3.png"])

    let result = try sandbox.run(["tiles", "prune", "cache", "--older-than", "30d"])
    assertPruneOutput(
      result, [], "removed 2 tiles (120 bytes) older than 30d", age: 30 * day, started: started)
    XCTAssertEqual(try records(folder), ["2/1/2"])
    XCTAssertEqual(
      try sandbox.files(in: "cache").filter { !$0.hasPrefix("freshness.sqlite") }, ["2", "metadata.json"])
    XCTAssertEqual(try sandbox.files(in: "cache/2/1"), ["2.png"])
  }

  func testUsageErrors() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["tiles"]), status: 2,
      message: "missing command after 'tiles'; expected one of: fetch, info, prune (see 'mymap help')")
    assertFailed(
      try sandbox.run(["tiles", "info"]), status: 2, message: "missing argument PATH")
    let help = try sandbox.run(["tiles", "--help"])
    assertSucceeded(help)
    XCTAssertTrue(help.stdoutText.hasPrefix("USAGE: mymap tiles COMMAND"), help.stdoutText)
    XCTAssertTrue(help.stdoutText.contains("\n  info "), help.stdoutText)
    XCTAssertTrue(help.stdoutText.contains("\n  prune "), help.stdoutText)
  }
}
