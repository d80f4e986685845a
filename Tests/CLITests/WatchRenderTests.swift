import Foundation
import XCTest

/// `mymap render --watch`: draws, then draws again when the store or the places file changes, until
/// Ctrl-C or SIGTERM. Redraws wait for 50 ms of quiet here (`MYMAP_WATCH_QUIET_MS`) instead of 300 ms.
final class WatchRenderTests: XCTestCase {
  private let quick = ["MYMAP_WATCH_QUIET_MS": "50"]

  /// The lines the running watch has written to standard error so far.
  private func stderrLines(_ running: RunningMymap) -> [String] {
    let data = (try? Data(contentsOf: running.capture.url("stderr"))) ?? Data()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Waits (20 s at most, failing the test) until the watch has written a line that starts with `prefix`
  /// after its first `after` lines; returns all lines.
  @discardableResult
  private func waitForLine(
    _ prefix: String, after: Int = 0, _ running: RunningMymap, file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> [String] {
    try FetchTesting.waitUntil("a line \"\(prefix)…\"", running, file: file, line: line) {
      stderrLines(running).dropFirst(after).contains { $0.hasPrefix(prefix) }
    }
    return stderrLines(running)
  }

  func testRedrawsWhenAPlaceIsAddedAndStopsCleanlyOnCtrlC() throws {
    let sandbox = try Sandbox()
    try sandbox.add(["--here", "60.1699,24.9384", "-d", "Regatta", "-c", "Park"])
    let running = try sandbox.start(
      ["render", "--watch", "--out", "map.png", "--size", "400x300", "--tiles", "none"], environment: quick)
    let first = try waitForLine("mymap: drew map.png (1 place) in ", running)
    XCTAssertTrue(
      first[0].hasSuffix(" s; watching \(sandbox.storePath) for changes (Ctrl-C to stop)"), first[0])
    let before = try XCTUnwrap(sandbox.contents(of: "map.png"))
    assertPNG(before, width: 400, height: 300)
    // Its own reading of the store is no change: nothing is drawn again while nothing changes.
    usleep(500_000)
    XCTAssertEqual(stderrLines(running).count, 1, "\(stderrLines(running))")

    try sandbox.add(["--here", "60.1841,24.9525", "-d", "Kallio", "-c", "Bar"])
    try waitForLine("mymap: redrew map.png (2 places) in ", running)
    let after = try XCTUnwrap(sandbox.contents(of: "map.png"))
    XCTAssertNotEqual(after, before, "the map shows the new place")
    assertPNG(after, width: 400, height: 300)

    kill(running.process.processIdentifier, SIGINT)
    let result = running.wait()
    XCTAssertEqual(result.status, 0, result.transcript)
    XCTAssertEqual(result.stdoutText, "")
    // One redraw for one added place, however the writer's opening, commit and checkpoint were spread out
    // in time: wake-ups that change nothing drawn are not redraws.
    let lines = stderrLines(running)
    XCTAssertEqual(lines.count, 2, "\(lines)")
    XCTAssertTrue(lines.last?.hasPrefix("mymap: redrew map.png (2 places) in ") == true, "\(lines)")
    XCTAssertEqual(try sandbox.files(), ["map.png"], "no temporary file is left")
  }

  /// A places file saved again with the same places (here: other spacing) wakes the watch, but nothing
  /// drawn changes: no line, and the map file is not replaced.
  func testASaveThatChangesNothingDrawnIsNotARedraw() throws {
    let sandbox = try Sandbox()
    let places = try sandbox.write(
      "{ \"locations\": [ { \"latitude\": 60.1699, \"longitude\": 24.9384, \"description\": \"Regatta\" } ] }",
      to: "places.json")
    let running = try sandbox.start(
      [
        "render", "--watch", "--locations", "places.json", "--out", "map.png", "--size", "400x300", "--tiles",
        "none",
      ],
      environment: quick)
    try waitForLine("mymap: drew map.png (1 place) in ", running)
    let drawn = try FileManager.default.attributesOfItem(atPath: sandbox.path("map.png"))
    let drawnFile = try XCTUnwrap(drawn[.systemFileNumber] as? Int)

    try Data(
      "{\n  \"locations\": [\n    { \"latitude\": 60.1699, \"longitude\": 24.9384, \"description\": \"Regatta\" }\n  ]\n}\n"
        .utf8
    ).write(to: URL(fileURLWithPath: places))
    usleep(300_000)  // six quiet periods: the watch has woken and drawn the same map
    let same = try FileManager.default.attributesOfItem(atPath: sandbox.path("map.png"))
    XCTAssertEqual(same[.systemFileNumber] as? Int, drawnFile, "the map file was not replaced")
    XCTAssertEqual(stderrLines(running).count, 1, "\(stderrLines(running))")
    try Data(
      "{ \"locations\": [ { \"latitude\": 60.1841, \"longitude\": 24.9525, \"description\": \"Kallio\" } ] }"
        .utf8
    ).write(to: URL(fileURLWithPath: places))
    try waitForLine("mymap: redrew map.png (1 place) in ", running)
    let redrawn = try FileManager.default.attributesOfItem(atPath: sandbox.path("map.png"))
    XCTAssertNotEqual(redrawn[.systemFileNumber] as? Int, drawnFile, "the new map replaced the old one")
    kill(running.process.processIdentifier, SIGINT)
    XCTAssertEqual(running.wait().status, 0)
    XCTAssertEqual(stderrLines(running).count, 2, "\(stderrLines(running))")
  }

  func testABrokenPlacesFileIsReportedAndTheNextFixRedraws() throws {
    let sandbox = try Sandbox()
    let one = """
      { "locations": [ { "latitude": 60.1699, "longitude": 24.9384, "description": "Regatta" } ] }
      """
    let two = """
      { "locations": [ { "latitude": 60.1699, "longitude": 24.9384, "description": "Regatta" },
                       { "latitude": 60.1841, "longitude": 24.9525, "description": "Kallio" } ] }
      """
    let places = try sandbox.write(one, to: "places.json")
    let running = try sandbox.start(
      [
        "render", "--watch", "--locations", "places.json", "--out", "map.png", "--size", "400x300",
        "--tiles", "none", "--layout-json", "map.json",
      ], environment: quick)
    try waitForLine("mymap: drew map.png (1 place) in ", running)

    // Saved half-edited, in place: the redraw fails, the watch goes on and the last good map stays.
    try Data(one.dropLast(8).utf8).write(to: URL(fileURLWithPath: places))
    let broken = try waitForLine("mymap: error: ", after: 1, running)
    XCTAssertTrue(broken[1].hasPrefix("mymap: error: places.json:1:"), broken[1])
    XCTAssertEqual(try Layout(try XCTUnwrap(sandbox.contents(of: "map.json"))).annotations.count, 1)

    // Fixed, saved the way editors often do: a new file renamed over the old one.
    try sandbox.write(two, to: "places.json.new")
    XCTAssertEqual(rename(sandbox.path("places.json.new"), places), 0)
    let fixed = try waitForLine("mymap: redrew map.png (2 places) in ", after: 2, running)
    XCTAssertTrue(fixed.dropFirst().dropLast().allSatisfy { $0.hasPrefix("mymap: error: ") }, "\(fixed)")
    XCTAssertEqual(try Layout(try XCTUnwrap(sandbox.contents(of: "map.json"))).annotations.count, 2)

    kill(running.process.processIdentifier, SIGTERM)
    let result = running.wait()
    XCTAssertEqual(result.status, 0, result.transcript)
    XCTAssertEqual(try sandbox.files(), ["map.json", "map.png", "places.json"])
  }

  /// A wall display started before the first place of its category: the watch says so and waits.
  func testAFirstMapWithNothingToDrawKeepsWatching() throws {
    let sandbox = try Sandbox()
    try sandbox.add(["--here", "60.1699,24.9384", "-d", "Regatta", "-c", "Park"])
    let running = try sandbox.start(
      [
        "render", "--watch", "--category", "Club", "--out", "map.png", "--size", "400x300", "--tiles", "none",
      ],
      environment: quick)
    let first = try waitForLine("mymap: error: ", running)
    XCTAssertEqual(
      first[0],
      "mymap: error: nothing to draw: no places in \"Club\"; give --center (and --span-meters) to draw the"
        + " region anyway; watching \(sandbox.storePath) for changes (Ctrl-C to stop)")
    XCTAssertNil(sandbox.contents(of: "map.png"))
    try sandbox.add(["--here", "60.1841,24.9525", "-d", "Kallio", "-c", "Club"])
    try waitForLine("mymap: redrew map.png (1 place) in ", running)
    assertPNG(sandbox.contents(of: "map.png"), width: 400, height: 300)
    kill(running.process.processIdentifier, SIGINT)
    XCTAssertEqual(running.wait().status, 0)
  }

  func testQuietWatchPrintsOnlyErrors() throws {
    let sandbox = try Sandbox()
    let places = try sandbox.write(
      "{ \"locations\": [ { \"latitude\": 1, \"longitude\": 2 } ] }", to: "p.json")
    let running = try sandbox.start(
      ["render", "--watch", "-q", "--locations", places, "--out", "map.png", "--tiles", "none"],
      environment: quick)
    try FetchTesting.waitUntil("the first map", running) { sandbox.contents(of: "map.png") != nil }
    try sandbox.write("{ \"locations\": [ { \"latitude\": 91, \"longitude\": 2 } ] }", to: "p.json")
    try waitForLine("mymap: error: ", running)
    kill(running.process.processIdentifier, SIGINT)
    let result = running.wait()
    XCTAssertEqual(result.status, 0, result.transcript)
    XCTAssertFalse(result.stderrLines.isEmpty, result.transcript)
    for line in result.stderrLines {
      XCTAssertEqual(line, "mymap: error: \(places): location 1: latitude 91.0 is outside -90…90")
    }
  }

  func testWatchUsageErrors() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["render", "--watch", "--out", "-"]), status: 2,
      message: "--out - cannot be used with --watch: each change rewrites the file; give --out FILE")
    assertFailed(
      try sandbox.run(["render", "--watch", "--locations", "-"]), status: 2,
      message: "--locations - cannot be watched (standard input is read once); give --locations FILE")
    assertFailed(
      try sandbox.run(["render", "--watch", "--size", "0x0", "--tiles", "none"]), status: 2,
      message:
        "no places stored yet (\(sandbox.storePath) does not exist); add some with 'mymap add' or 'mymap"
        + " import' before watching")
    try sandbox.add(["--here", "1,2"])
    assertFailed(
      try sandbox.run(["render", "--watch", "--size", "0x0", "--tiles", "none"], environment: quick),
      status: 2, message: "invalid value '0x0' for --size: width and height must be at least 1")
    XCTAssertEqual(try sandbox.files(), [])
  }
}
