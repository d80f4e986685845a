import Foundation
import XCTest

/// Exit 2: the command line is wrong. One clear line on stderr, nothing written.
final class UsageErrorTests: XCTestCase {
  /// Runs `render` of the example with `extra` in a fresh folder and checks the error and that no file appeared.
  private func assertUsageError(
    _ extra: [String], size: String = "200x150", message: String, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(extra, size: size), file: file, line: line)
    assertFailed(result, status: 2, message: message, file: file, line: line)
    XCTAssertEqual(try sandbox.files(), [], "nothing is written", file: file, line: line)
  }

  func testUnknownOptionSuggestsTheClosestOne() throws {
    try assertUsageError(
      ["--sizee", "300x200"], message: "unknown option '--sizee'; did you mean --size?")
    try assertUsageError(
      ["--ofline"], message: "unknown option '--ofline'; did you mean --offline?")
  }

  func testBadSize() throws {
    try assertUsageError(
      [], size: "0x600", message: "invalid value '0x600' for --size: width and height must be at least 1")
    try assertUsageError(
      [], size: "abc",
      message: "invalid value 'abc' for --size: expected WIDTHxHEIGHT in points, like 800x600")
    try assertUsageError(
      [], size: "800x",
      message: "invalid value '800x' for --size: expected WIDTHxHEIGHT in points, like 800x600")
    try assertUsageError(
      [], size: "20000x20000", message: "a 20000×20000 image is over the limit of 100 megapixels")
    try assertUsageError(
      ["--scale", "2"], size: "8000x8000",
      message: "a 16000×16000 image is over the limit of 100 megapixels")
  }

  func testBadValuesAreUsageErrorsEvenWhenTheLocationsFileIsMissing() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--locations", "missing.json", "--size", "abc", "--out", "m.png"])
    assertFailed(
      result, status: 2,
      message: "invalid value 'abc' for --size: expected WIDTHxHEIGHT in points, like 800x600")
  }

  func testBadScale() throws {
    try assertUsageError(["--scale", "4"], message: "invalid value '4' for --scale: expected 1, 2 or 3")
    try assertUsageError(["--scale", "1.5"], message: "invalid value '1.5' for --scale: expected 1, 2 or 3")
  }

  func testBadCoordinates() throws {
    try assertUsageError(
      ["--user", "91,0"], message: "invalid value '91,0' for --user: latitude must be between -90 and 90")
    try assertUsageError(
      ["--user", "48.8,2.3,-5"],
      message: "invalid value '48.8,2.3,-5' for --user: the accuracy must be between 0 and 20000000 metres")
    try assertUsageError(
      ["--center", "0,181"],
      message: "invalid value '0,181' for --center: longitude must be between -180 and 180")
    try assertUsageError(
      ["--center", "48.8"],
      message: "invalid value '48.8' for --center: expected LAT,LON in degrees, like 48.8566,2.3522")
  }

  func testBadUserWithoutLocations() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--user", "91,0"])
    assertFailed(
      result, status: 2, message: "invalid value '91,0' for --user: latitude must be between -90 and 90")
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testBadZoomAndOtherNumbers() throws {
    try assertUsageError(
      ["--zoom", "30"], message: "invalid value '30' for --zoom: expected a zoom from 0 to 22")
    try assertUsageError(
      ["--span-meters", "0"], message: "invalid value '0' for --span-meters: expected a number above 0")
    try assertUsageError(
      ["--padding", "-1"], message: "invalid value '-1' for --padding: expected a number ≥ 0")
    try assertUsageError(
      ["--callouts", "some"], message: "invalid value 'some' for --callouts: expected all or none")
  }

  func testBadDates() throws {
    try assertUsageError(
      ["--since", "2025-13-01"],
      message:
        "invalid value '2025-13-01' for --since: expected an ISO 8601 date like 2026-11-29 or 2026-11-29T10:00:00Z"
    )
    try assertUsageError(
      ["--until", "yesterday"],
      message:
        "invalid value 'yesterday' for --until: expected an ISO 8601 date like 2026-11-29 or 2026-11-29T10:00:00Z"
    )
  }

  func testBadFormat() throws {
    try assertUsageError(
      ["--format", "jpg"], message: "invalid value 'jpg' for --format: expected png, svg or pdf")
    try assertUsageError(
      ["--out", "map.jpg"],
      message: "invalid value 'map.jpg' for --out: cannot tell the format from the name; "
        + "end it in .png, .svg or .pdf or give --format")
  }

  func testMissingValue() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out"]))
    assertFailed(result, status: 2, prefix: "", containing: ["--out"])
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testNoPlacesToDraw() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--tiles", Inputs.europeTiles, "--size", "200x150"])
    // Without --locations, render reads the store; there is none yet.
    assertFailed(
      result, status: 2,
      message:
        "no places stored yet (\(sandbox.storePath) does not exist); add some with 'mymap add' or 'mymap import'"
    )
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testImageAndLayoutCannotBothGoToStdout() throws {
    try assertUsageError(
      ["--out", "-", "--layout-json", "-"],
      message: "--out - and --layout-json - cannot both write to standard output")
  }

  func testUnknownCommandSuggestsRender() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["rendr", "--locations", Inputs.europeTrip])
    assertFailed(
      result, status: 2, message: "unknown command 'rendr'; did you mean 'render'? (see 'mymap help')")
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testNoCommand() throws {
    let result = try Sandbox().run([])
    assertFailed(result, status: 2, prefix: "missing command", containing: ["render"])
  }

  func testHelpForAnUnknownCommand() throws {
    let result = try Sandbox().run(["help", "rendr"])
    assertFailed(result, status: 2, prefix: "unknown command 'rendr'", containing: ["did you mean 'render'?"])
  }
}
