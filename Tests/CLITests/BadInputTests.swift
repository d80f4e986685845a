import Foundation
import XCTest

/// Exit 3: the command line is fine but a file it names is not (locations, tiles, style).
final class BadInputTests: XCTestCase {
  /// Renders `locations` (a file written into the sandbox) and returns the result; checks nothing was written.
  private func renderFile(
    named name: String, _ contents: String, _ extra: [String] = [], file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> CLIResult {
    let sandbox = try Sandbox()
    try sandbox.write(contents, to: name)
    let result = try sandbox.run(
      ["render", "--locations", name, "--tiles", Inputs.europeTiles, "--size", "200x150"] + extra, file: file,
      line: line)
    XCTAssertEqual(try sandbox.files(), [name], "nothing is written", file: file, line: line)
    return result
  }

  func testMalformedJSONGivesFileLineAndColumn() throws {
    let text = """
      { "locations": [
        { "latitude": 1, "longitude": 2 },
        { "latitude": 3 "longitude": 4 }
      ] }
      """
    let result = try renderFile(named: "broken.json", text)
    assertFailed(result, status: 3, prefix: "broken.json:3:19: ")
  }

  func testTruncatedJSON() throws {
    let result = try renderFile(named: "cut.json", "{ \"locations\": [\n  { \"latitude\": 1,")
    assertFailed(result, status: 3, prefix: "cut.json:2:")
  }

  func testLatitudeOutOfRange() throws {
    let result = try renderFile(
      named: "pole.json",
      #"{ "locations": [ { "latitude": 48.1, "longitude": 2 }, { "latitude": 91, "longitude": 2 } ] }"#)
    assertFailed(result, status: 3, message: "pole.json: location 2: latitude 91.0 is outside -90…90")
  }

  func testNaNAsAString() throws {
    let result = try renderFile(
      named: "nan.json", #"{ "locations": [ { "latitude": "NaN", "longitude": 2 } ] }"#)
    assertFailed(result, status: 3, message: #"nan.json: location 1: latitude "NaN" is not a finite number"#)
  }

  func testMissingLocationsFile() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--locations", "nowhere.json"])
    assertFailed(result, status: 3, message: "nowhere.json: no such file")
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testNotATileSource() throws {
    let sandbox = try Sandbox()
    try sandbox.write("these are my notes\n", to: "notes.txt")
    let result = try sandbox.run(Inputs.renderEurope([], tiles: "notes.txt"))
    assertFailed(
      result, status: 3,
      message:
        "notes.txt is not a tile source (expected a tile directory {z}/{x}/{y}.png or an .mbtiles file)")
    XCTAssertEqual(try sandbox.files(), ["notes.txt"])
  }

  func testNotAnMBTilesFile() throws {
    let sandbox = try Sandbox()
    try sandbox.write("not sqlite", to: "fake.mbtiles")
    let result = try sandbox.run(Inputs.renderEurope([], tiles: "fake.mbtiles"))
    assertFailed(result, status: 3, prefix: "", containing: ["fake.mbtiles"])
    XCTAssertEqual(try sandbox.files(), ["fake.mbtiles"])
  }

  func testMissingTiles() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope([], tiles: "nowhere.mbtiles"))
    assertFailed(result, status: 3, message: "tile source nowhere.mbtiles does not exist")
    let folder = try sandbox.run(Inputs.renderEurope([], tiles: "no-tiles/"))
    assertFailed(folder, status: 3, message: "tile source no-tiles/ does not exist")
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testStyleWithAnUnknownField() throws {
    let sandbox = try Sandbox()
    let style = try sandbox.write(#"{ "name": "mine", "bogus": 1 }"#, to: "mine.json")
    let result = try sandbox.run(Inputs.renderEurope(["--style", "mine.json"]))
    assertFailed(result, status: 3, message: "style \(style): unknown field \"bogus\"")
    XCTAssertEqual(try sandbox.files(), ["mine.json"])
  }

  func testStyleThatIsNotJSON() throws {
    let sandbox = try Sandbox()
    try sandbox.write("name = mine", to: "mine.json")
    let result = try sandbox.run(Inputs.renderEurope(["--style", "mine.json"]))
    assertFailed(result, status: 3, prefix: "", containing: ["mine.json"])
  }

  func testMissingStyleFile() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--style", "styles/none.json"]))
    assertFailed(result, status: 3, message: "no style file \(sandbox.path("styles/none.json"))")
  }

  func testUnknownStyleName() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(
      atPath: sandbox.path("styles"), withIntermediateDirectories: false)
    let result = try sandbox.run(
      Inputs.renderEurope(["--style", "nosuch"]), environment: ["MYMAP_STYLES": sandbox.path("styles")])
    assertFailed(
      result, status: 3, prefix: "no style named \"nosuch\" (looked in ", containing: [sandbox.path("styles")]
    )
    XCTAssertEqual(try sandbox.files(), ["styles"])
  }
}
