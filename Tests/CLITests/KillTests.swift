import Foundation
import TestSupport
import XCTest

/// `kill -9` at seeded random moments of a render and of an import: every output is either the old file or
/// the complete new one, the store keeps all of its places or gains all of the file's, and the next run
/// leaves nothing behind.
final class KillTests: XCTestCase {
  /// How long `arguments` takes once, so the kills can be spread over the whole run (with a bias to its
  /// end, where the writes happen).
  private func duration(of arguments: [String], in sandbox: Sandbox) throws -> TimeInterval {
    let start = Date()
    assertSucceeded(try sandbox.run(arguments))
    return Date().timeIntervalSince(start)
  }

  /// Starts `arguments` and kills it after `delay` seconds (or lets it finish first).
  private func kill(_ arguments: [String], in sandbox: Sandbox, after delay: TimeInterval) throws {
    let running = try sandbox.start(arguments)
    usleep(useconds_t(delay * 1_000_000))
    if running.process.isRunning { Foundation.kill(running.process.processIdentifier, SIGKILL) }
    running.process.waitUntilExit()
  }

  func testARenderKilledAnywhereLeavesTheOldOrTheNewOutput() throws {
    let sandbox = try Sandbox()
    let arguments = Inputs.renderEurope(
      ["--out", "map.png", "--layout-json", "layout.json", "-q"], size: "800x600")
    _ = try duration(of: arguments, in: sandbox)
    let new = (map: sandbox.contents(of: "map.png"), layout: sandbox.contents(of: "layout.json"))
    let old = Data("the previous map".utf8)
    try sandbox.write(old, to: "map.png")
    try sandbox.write(old, to: "layout.json")
    let reference = try duration(of: arguments, in: sandbox)
    try sandbox.write(old, to: "map.png")
    try sandbox.write(old, to: "layout.json")

    var random = SeededGenerator(seed: 9)
    for round in 0..<16 {
      try kill(arguments, in: sandbox, after: reference * random.double(in: 0.2..<1.1))
      let map = sandbox.contents(of: "map.png")
      let layout = sandbox.contents(of: "layout.json")
      XCTAssertTrue(
        map == old || map == new.map, "round \(round): map.png is neither the old nor the new map")
      XCTAssertTrue(layout == old || layout == new.layout, "round \(round): layout.json is half written")
    }
    assertSucceeded(try sandbox.run(arguments))
    XCTAssertEqual(sandbox.contents(of: "map.png"), new.map)
    XCTAssertEqual(try sandbox.files(), ["layout.json", "map.png"], "nothing is left behind by the next run")
  }

  func testAnImportKilledAnywhereAddsAllOrNothing() throws {
    let sandbox = try Sandbox()
    var rows = "latitude,longitude,description\n"
    for index in 0..<6_000 {
      rows += "\(Double(index % 180) / 2),\(Double(index % 360) / 2 - 90),Place \(index)\n"
    }
    let file = try sandbox.write(rows, to: "places.csv")
    try sandbox.add(["--lat", "1", "--lon", "2", "--description", "Before"])
    try sandbox.add(["--lat", "3", "--lon", "4", "--description", "Before too"])
    let scratch = try Sandbox()
    let reference = try duration(of: ["import", file, "-q"], in: scratch)

    var random = SeededGenerator(seed: 11)
    var completed = false
    for round in 0..<12 {
      try kill(["import", file, "-q"], in: sandbox, after: reference * random.double(in: 0.05..<1.1))
      XCTAssertEqual(try sqliteRows(sandbox.storePath, "PRAGMA integrity_check"), [["ok"]], "round \(round)")
      let count = try sqliteRows(sandbox.storePath, "SELECT count(*) FROM location")[0][0]
      XCTAssertTrue(
        ["2", "6002"].contains(count), "round \(round): \(count) places, neither before nor after")
      if count == "6002" {
        completed = true
        break
      }
    }
    let finish = try sandbox.run(["import", file])
    assertSucceeded(finish)
    XCTAssertEqual(
      finish.stdoutText,
      completed
        ? "imported 0 places (6000 already in the store)\n"
        : "imported 6000 places (0 already in the store)\n")
    XCTAssertEqual(try sandbox.listJSON().count, 6_002)
    let storeFiles = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.home.appendingPathComponent("mymap").path)
    XCTAssertEqual(
      Set(storeFiles).subtracting(["locations.sqlite-wal", "locations.sqlite-shm"]), ["locations.sqlite"])
  }
}
