import Foundation
import XCTest

/// `mymap render --batch FILE`: many maps in one process, one JSON result line each, in the file's order.
final class BatchRenderTests: XCTestCase {
  /// Three places in three months of 2026, in the sandbox's store.
  private func storeOfThreeMonths(_ sandbox: Sandbox) throws {
    try sandbox.add(["--here", "60.1699,24.9384", "-d", "Regatta", "-c", "Park", "--date", "2026-09-10"])
    try sandbox.add(["--here", "60.1841,24.9525", "-d", "Kallio", "-c", "Bar", "--date", "2026-10-02"])
    try sandbox.add(["--here", "60.1550,24.9500", "-d", "Ruoholahti", "-c", "Park", "--date", "2026-11-20"])
  }

  /// The result lines on standard output, parsed.
  private func results(_ result: CLIResult, file: StaticString = #filePath, line: UInt = #line) throws
    -> [[String: Any]]
  {
    XCTAssertTrue(result.stdoutText.hasSuffix("\n"), result.transcript, file: file, line: line)
    return try result.stdoutText.split(separator: "\n").map { text in
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
      return try XCTUnwrap(
        object as? [String: Any], "a result line is an object: \(text)", file: file, line: line)
    }
  }

  func testResultsInInputOrderWithBadLinesAmongGoodOnes() throws {
    let sandbox = try Sandbox()
    try storeOfThreeMonths(sandbox)
    try sandbox.write(
      """
      {"out": "2026-09.png", "month": "2026-09", "title": "September"}
      {"out": "2026-10.png", "month": "2026-10", "size": "600"}

      {"out": "2026-11.png", "month": "2026-11", "tittle": "November"}
      {"out": "2026-11.png", "month": "2026-11", "size": "320x240"}
      not json
      {"out": "all.png", "quiet": "yes"}
      {"out": "autumn.png", "category": ["park", "BAR"], "scale": 2}

      """, to: "months.jsonl")
    let result = try sandbox.run(
      ["render", "--batch", "months.jsonl", "--size", "200x150", "--tiles", "none"])

    let lines = try results(result)
    XCTAssertEqual(
      lines.map { $0["line"] as? Int }, [1, 2, 4, 5, 6, 7, 8], "file order, blank lines skipped")
    XCTAssertEqual(lines.map { $0["exit"] as? Int }, [0, 2, 2, 0, 2, 2, 0])
    XCTAssertEqual(
      lines.map { $0["out"] as? String },
      ["2026-09.png", "2026-10.png", nil, "2026-11.png", nil, nil, "autumn.png"])
    XCTAssertEqual(
      lines.map { $0["error"] as? String },
      [
        nil, "invalid value '600' for --size: expected WIDTHxHEIGHT in points, like 800x600",
        "unknown key \"tittle\"; did you mean \"title\"?", nil,
        "not JSON: column 1: expected a value, found 'not'",
        "\"quiet\" is a flag: give true or false, not the string \"yes\"", nil,
      ])
    XCTAssertEqual(lines.map { $0["places"] as? Int }, [1, nil, nil, 1, nil, nil, 3])
    for line in lines {
      XCTAssertNotNil(line["warnings"] as? [String], "\(line)")
      XCTAssertNotNil(number(line["seconds"]), "\(line)")
    }
    XCTAssertEqual(lines[0]["warnings"] as? [String], [])
    XCTAssertEqual(
      lines[6]["warnings"] as? [String],
      [
        "3 callouts did not fit; their places are numbered and named in the legend",
        "the legend names 0 of the 3 numbered places (the image has no room for more rows); the layout lists"
          + " every number",
      ])
    XCTAssertEqual(result.status, 2, "the worst of 0 and 2")
    XCTAssertEqual(
      result.stderr,
      "mymap: error: 4 of 7 maps failed (lines 2, 4, 6, 7); their result lines say why"
        + " (see 'mymap render --help')\n")
    assertPNG(sandbox.contents(of: "2026-09.png"), width: 200, height: 150)
    assertPNG(sandbox.contents(of: "2026-11.png"), width: 320, height: 240)
    assertPNG(sandbox.contents(of: "autumn.png"), width: 400, height: 300)
    XCTAssertEqual(try sandbox.files(), ["2026-09.png", "2026-11.png", "autumn.png", "months.jsonl"])
  }

  /// The exit status is the highest exit code of the maps: here 4 (an empty month) over 3 (a broken
  /// places file) and 2 (a bad value).
  func testExitStatusIsTheHighestOfTheMaps() throws {
    let sandbox = try Sandbox()
    try storeOfThreeMonths(sandbox)
    try sandbox.write("{ \"locations\": [ { \"latitude\": 91, \"longitude\": 0 } ] }", to: "broken.json")
    try sandbox.write(
      """
      {"out": "broken.png", "locations": "broken.json"}
      {"out": "empty.png", "month": "2025-01"}
      {"out": "bad.png", "scale": 7}
      {"out": "good.png"}
      """, to: "batch.jsonl")
    let result = try sandbox.run(["render", "--batch", "batch.jsonl", "--size", "200x150", "--tiles", "none"])
    XCTAssertEqual(try results(result).map { $0["exit"] as? Int }, [3, 4, 2, 0])
    XCTAssertEqual(result.status, 4, result.transcript)
    XCTAssertEqual(
      result.stderr,
      "mymap: error: 3 of 4 maps failed (lines 1, 2, 3); their result lines say why\n")
    XCTAssertEqual(try sandbox.files(), ["batch.jsonl", "broken.json", "good.png"])

    // All made: exit 0, nothing on stderr.
    try sandbox.write(
      "{\"out\": \"a.png\"}\n{\"out\": \"b.png\", \"month\": \"2026-10\"}\n", to: "good.jsonl")
    let good = try sandbox.run(["render", "--batch", "good.jsonl", "--tiles", "none", "--size", "200x150"])
    assertSucceeded(good)
    XCTAssertEqual(good.stderr, "")
    XCTAssertEqual(try results(good).map { $0["places"] as? Int }, [3, 1])
  }

  /// The command line's options are every line's defaults; a line's key replaces one (a flag set to false
  /// clears it, null takes an option back to its own default).
  func testCommandLineOptionsAreDefaults() throws {
    let sandbox = try Sandbox()
    try storeOfThreeMonths(sandbox)
    try sandbox.write(
      """
      {"out": "a.png"}
      {"out": "b.png", "size": "240x180", "layout-json": "b.json"}
      {"out": "c.png", "size": null, "title": null, "layout-json": "c.json"}
      {"out": "d.svg", "route": false, "scale": 1}
      """, to: "batch.jsonl")
    let result = try sandbox.run([
      "render", "--batch", "batch.jsonl", "--size", "200x150", "--scale", "2", "--tiles", "none", "--title",
      "Autumn", "--route",
    ])
    XCTAssertEqual(try results(result).map { $0["exit"] as? Int }, [0, 0, 0, 0], result.transcript)
    assertPNG(sandbox.contents(of: "a.png"), width: 400, height: 300)
    assertPNG(sandbox.contents(of: "b.png"), width: 480, height: 360)
    assertPNG(sandbox.contents(of: "c.png"), width: 1600, height: 1200)
    let titled = try Layout(try XCTUnwrap(sandbox.contents(of: "b.json")))
    let plates = titled.json["plates"] as? [[String: Any]] ?? []
    XCTAssertEqual(plates.first { $0["kind"] as? String == "title" }?["text"] as? String, "Autumn")
    XCTAssertEqual((titled.json["tracks"] as? [[String: Any]])?.count, 1, "the route of --route")
    let untitled = try Layout(try XCTUnwrap(sandbox.contents(of: "c.json")))
    XCTAssertFalse(
      (untitled.json["plates"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "title" })
    let svg = String(decoding: try XCTUnwrap(sandbox.contents(of: "d.svg")), as: UTF8.self)
    XCTAssertTrue(svg.contains("width=\"200"), "scale 1 over the command line's 2")
  }

  func testTwoLinesWritingOneFileAreRefusedBeforeAnyWork() throws {
    let sandbox = try Sandbox()
    try storeOfThreeMonths(sandbox)
    try FileManager.default.createDirectory(
      atPath: sandbox.path("maps"), withIntermediateDirectories: true)
    try sandbox.write(
      """
      {"out": "maps/a.png"}
      {"out": "b.png"}
      {"out": "./maps/../maps/a.png", "month": "2026-10"}
      """, to: "batch.jsonl")
    let result = try sandbox.run(["render", "--batch", "batch.jsonl", "--tiles", "none"])
    assertFailed(
      result, status: 2,
      message:
        "lines 1 and 3 of the batch both write ./maps/../maps/a.png; give each map its own files")
    XCTAssertEqual(try sandbox.files(in: "maps"), [])
    XCTAssertFalse(try sandbox.files().contains("b.png"))

    // A layout JSON counts too, and so does the batch file itself.
    try sandbox.write(
      "{\"out\": \"x.png\", \"layout-json\": \"y.json\"}\n{\"out\": \"y.json\"}\n", to: "two.jsonl")
    assertFailed(
      try sandbox.run(["render", "--batch", "two.jsonl", "--tiles", "none"]), status: 2,
      message: "lines 1 and 2 of the batch both write y.json; give each map its own files")
    try sandbox.write("{\"out\": \"self.jsonl\", \"format\": \"png\"}\n", to: "self.jsonl")
    let overwrite = try sandbox.run(["render", "--batch", "self.jsonl", "--tiles", "none"])
    XCTAssertEqual(overwrite.status, 2)
    XCTAssertEqual(
      try results(overwrite).first?["error"] as? String,
      "--out self.jsonl is the batch file (self.jsonl), which this command reads; writing there would destroy"
        + " it: choose another path")
  }

  func testBatchFromStandardInput() throws {
    let sandbox = try Sandbox()
    try storeOfThreeMonths(sandbox)
    let months = ["2026-09", "2026-10", "2026-11"]
    let lines = months.map { "{\"out\": \"\($0).png\", \"month\": \"\($0)\"}" }
    let result = try sandbox.run(
      ["render", "--batch", "-", "--tiles", "none", "--size", "200x150"],
      stdin: Data(lines.joined(separator: "\n").utf8))
    assertSucceeded(result)
    XCTAssertEqual(try results(result).map { $0["out"] as? String }, months.map { $0 + ".png" })
    for month in months { assertPNG(sandbox.contents(of: month + ".png"), width: 200, height: 150) }
  }

  /// Maps made at once, sharing the basemap, the tile source and the decoded tiles, are the same bytes as
  /// each made alone.
  func testBatchMapsAreTheBytesOfSingleRenders() throws {
    let sandbox = try Sandbox()
    let options: [[String]] = [
      ["--tiles", Inputs.europeTiles, "--size", "300x200"],
      ["--tiles", Inputs.europeTiles, "--size", "300x200", "--scale", "2"],
      ["--size", "300x200"],
      ["--size", "320x240", "--style", "dark"],
      ["--tiles", Inputs.europeTiles, "--size", "320x240", "--category", "Landmark"],
    ]
    var batch = ""
    for (index, option) in options.enumerated() {
      let single = try sandbox.run(
        ["render", "--locations", Inputs.europeTrip, "--out", "single-\(index).png"] + option)
      assertSucceeded(single)
      var members = ["\"out\": \"batch-\(index).png\""]
      for pair in stride(from: 0, to: option.count, by: 2) {
        // Paths and values without quotes or backslashes: quoted as they are.
        members.append("\"\(option[pair].dropFirst(2))\": \"\(option[pair + 1])\"")
      }
      batch += "{" + members.joined(separator: ", ") + "}\n"
    }
    try sandbox.write(batch, to: "batch.jsonl")
    let result = try sandbox.run(["render", "--batch", "batch.jsonl", "--locations", Inputs.europeTrip])
    XCTAssertEqual(result.status, 0, result.transcript)
    for index in options.indices {
      let single = try XCTUnwrap(sandbox.contents(of: "single-\(index).png"))
      XCTAssertEqual(sandbox.contents(of: "batch-\(index).png"), single, "map \(index): \(options[index])")
    }
  }

  func testHostileBatchFiles() throws {
    let sandbox = try Sandbox()
    try storeOfThreeMonths(sandbox)
    let long = "{\"out\": \"long.png\", \"title\": \"" + String(repeating: "a", count: 70_000) + "\"}"
    try sandbox.write(
      [
        long, "{\"out\": \"-\"}", "{\"out\": \"deep.png\", \"category\": [[\"Park\"]]}",
        "{\"out\": \"in.png\", \"locations\": \"-\"}", "{\"out\": \"w.png\", \"watch\": true}",
        "{\"out\": \"t.png\", \"size\": true}", "{\"out\": \"ok.png\"}",
      ].joined(separator: "\r\n"), to: "hostile.jsonl")
    let result = try sandbox.run([
      "render", "--batch", "hostile.jsonl", "--tiles", "none", "--size", "200x150",
    ])
    let lines = try results(result)
    XCTAssertEqual(
      lines.map { $0["error"] as? String },
      [
        "the line is longer than 64 KiB",
        "--out - cannot be used with --batch: standard output carries the result lines; give a file",
        "\"category\" takes a NAME as a string (or an array of them), not an array",
        "--locations - cannot be used with --batch; give each map a file",
        "unknown key \"watch\"", "\"size\" takes a WxH as a string, not true", nil,
      ])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(try sandbox.files(), ["hostile.jsonl", "ok.png"])

    // A file of more than 10,000 maps, or one that is not there, is refused whole (exit 3).
    try sandbox.write(String(repeating: "{}\n", count: 10_001), to: "many.jsonl")
    let refused: [(arguments: [String], status: Int32, message: String)] = [
      (["many.jsonl"], 3, "the batch file many.jsonl holds more than 10000 maps (line 10001); split it"),
      (["missing.jsonl"], 3, "cannot read the batch file missing.jsonl: No such file or directory"),
      (
        ["many.jsonl", "--watch"], 2,
        "--batch and --watch cannot be used together; watch one map at a time"
      ),
      (
        ["-", "--out", "-"], 2,
        "--out - cannot be used with --batch: standard output carries the result lines; give a file"
      ),
    ]
    for (arguments, status, message) in refused {
      assertFailed(try sandbox.run(["render", "--batch"] + arguments), status: status, message: message)
    }
  }
}
