import Foundation
import XCTest

/// `mymap tiles info` and `mymap tiles prune`, run as a user would.
final class TilesCommandTests: XCTestCase {
  private let day: TimeInterval = 86_400

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

  func testPruneOfAnMBTilesFileIsNotSupported() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["tiles", "prune", Inputs.europeTiles, "--older-than", "1d"])
    assertFailed(
      result, status: 2,
      message:
        "pruning an MBTiles file is not supported yet (\(Inputs.europeTiles)); it keeps no date per tile")
  }

  func testUsageErrors() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["tiles"]), status: 2,
      message: "missing command after 'tiles'; expected one of: fetch, info, prune (see 'mymap help')")
    assertFailed(
      try sandbox.run(["tiles", "info"]), status: 2, message: "missing argument PATH (see 'mymap help')")
    let help = try sandbox.run(["tiles", "--help"])
    assertSucceeded(help)
    XCTAssertTrue(help.stdoutText.hasPrefix("USAGE: mymap tiles COMMAND"), help.stdoutText)
    XCTAssertTrue(help.stdoutText.contains("\n  info "), help.stdoutText)
    XCTAssertTrue(help.stdoutText.contains("\n  prune "), help.stdoutText)
  }
}
