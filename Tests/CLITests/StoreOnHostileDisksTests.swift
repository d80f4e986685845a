import Foundation
import TestSupport
import XCTest

/// A store must stay readable where it cannot be written (a read-only mount, a full disk), must survive
/// values an older mymap let in, and a file that cannot be a store is bad input (exit 3), never a hang.
final class StoreOnHostileDisksTests: XCTestCase {
  private func addTwoPlaces(_ sandbox: Sandbox, store: String) throws {
    for (lat, description) in [("48.8584", "Tour Eiffel"), ("48.8606", "Louvre")] {
      try sandbox.add(["--store", store, "--lat", lat, "--lon", "2.33", "--description", description])
    }
  }

  /// Every command that only reads works; one that writes says why it cannot.
  private func assertReadableNotWritable(
    _ sandbox: Sandbox, store: String, reason: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let listed = try sandbox.listJSON(["--store", store], file: file, line: line)
    XCTAssertEqual(
      listed.compactMap { $0["description"] as? String }, ["Tour Eiffel", "Louvre"], file: file, line: line)
    let list = try sandbox.run(["list", "--store", store])
    assertSucceeded(list, file: file, line: line)
    XCTAssertTrue(list.stdoutText.contains("Louvre"), list.transcript, file: file, line: line)
    let id = try XCTUnwrap(listed.first?["id"] as? String)
    assertSucceeded(
      try sandbox.run(["show", String(id.prefix(8)), "--store", store]), file: file, line: line)
    let export = try sandbox.run(["export", "--store", store, "--format", "csv"])
    assertSucceeded(export, file: file, line: line)
    XCTAssertEqual(export.stdoutText.split(separator: "\n").count, 3, file: file, line: line)
    let render = try sandbox.run(["render", "--store", store, "--size", "200x150", "--out", "map.png", "-q"])
    assertSucceeded(render, file: file, line: line)
    assertPNG(sandbox.contents(of: "map.png"), width: 200, height: 150, file: file, line: line)
    let add = try sandbox.run(["add", "--store", store, "--lat", "1", "--lon", "2"])
    XCTAssertEqual(add.status, 1, add.transcript, file: file, line: line)
    XCTAssertTrue(
      add.stderr.hasPrefix("mymap: error: ") && add.stderr.contains(reason), add.transcript,
      file: file, line: line)
    XCTAssertEqual(add.stderrLines.count, 1, add.transcript, file: file, line: line)
  }

  func testAStoreOnAReadOnlyMountCanBeRead() throws {
    let mount = try ScratchMount(kilobytes: 1024)
    let sandbox = try Sandbox()
    let store = mount.path("locations.sqlite")
    try addTwoPlaces(sandbox, store: store)
    try mount.remountReadOnly()
    try assertReadableNotWritable(
      sandbox, store: store,
      reason: "cannot open the places store '\(store)': it is on a read-only file system")
  }

  func testAStoreOnAFullDiskCanBeRead() throws {
    let mount = try ScratchMount(kilobytes: 1024)
    let sandbox = try Sandbox()
    let store = mount.path("locations.sqlite")
    try addTwoPlaces(sandbox, store: store)
    try mount.fill()
    try assertReadableNotWritable(sandbox, store: store, reason: "full")
    XCTAssertEqual(try sandbox.listJSON(["--store", store]).count, 2)
  }

  /// An earlier mymap imported Core Data timestamps like 1e308; listing and exporting such a store used to
  /// trap. The store still reads, with the date written as the nearest one the format can hold.
  func testAStoreWithADateBeyondAnyCalendarStillListsAndExports() throws {
    let sandbox = try Sandbox()
    try addTwoPlaces(sandbox, store: sandbox.storePath)
    try sqliteRows(sandbox.storePath, "UPDATE location SET date = 1e308 WHERE description = 'Louvre'")
    let listed = try sandbox.listJSON()
    XCTAssertEqual(listed.compactMap { $0["date"] as? String }.last, "9999-12-31T23:59:59Z")
    for format in ["json", "geojson", "gpx", "csv"] {
      let result = try sandbox.run(["export", "--format", format])
      assertSucceeded(result)
      XCTAssertTrue(result.stdoutText.contains("9999-12-31T23:59:59Z"), format)
    }
    assertSucceeded(try sandbox.run(["list"]))
  }

  func testWhatCannotBeAStoreIsBadInputAndNeverHangs() throws {
    let sandbox = try Sandbox()
    let text = try sandbox.write("not a database", to: "notes.txt")
    try FileManager.default.createDirectory(
      atPath: sandbox.path("folder"), withIntermediateDirectories: false)
    let fifo = sandbox.path("pipe.sqlite")
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    let cases = [
      (text, "it is not an SQLite database"), (sandbox.path("folder"), "it is a folder, not a file"),
      (fifo, "it is not a regular file"), ("/dev/zero", "it is not a regular file"),
    ]
    for (path, reason) in cases {
      for command in [["list"], ["add", "--lat", "1", "--lon", "2"], ["render", "--out", "map.png"]] {
        let result = try sandbox.run(command + ["--store", path])
        assertFailed(result, status: 3, message: "cannot open the places store '\(path)': \(reason)")
      }
    }
    let tiles = try sandbox.run(["list", "--store", Inputs.europeTiles])
    assertFailed(
      tiles, status: 3,
      message: "'\(Inputs.europeTiles)' is an SQLite database but not a mymap places store; give another path"
    )
    XCTAssertEqual(try sandbox.files(), ["folder", "notes.txt", "pipe.sqlite"])
  }
}
