import XCTest

@testable import Arguments

/// A batch line's options over the command line's: `ParsedArguments.overriding(values:flags:)`.
final class ArgumentOverridesTests: XCTestCase {
  private let command = CommandSpec(
    "render", abstract: "",
    options: [
      .value("out", valueName: "PATH", help: "", default: "map.png"),
      .value("size", valueName: "WxH", help: ""),
      .value("category", valueName: "NAME", help: "", repeatable: true),
      .flag("quiet", help: ""), .flag("route", help: ""),
    ])

  private func parsed(_ arguments: [String]) throws -> ParsedArguments {
    guard case .arguments(let parsed) = try command.parse(arguments) else {
      throw ArgumentError.missingCommand(group: nil, expected: [])
    }
    return parsed
  }

  func testALineReplacesWhatItNamesAndKeepsTheRest() throws {
    let defaults = try parsed(["--out", "a.png", "--size", "200x150", "--category", "Bar", "--quiet"])
    let line = defaults.overriding(
      values: ["category": ["Park", "Club"], "size": ["300x200"]], flags: ["quiet": false, "route": true])
    XCTAssertEqual(line.string("out"), "a.png")
    XCTAssertEqual(line.string("size"), "300x200")
    XCTAssertEqual(line.strings("category"), ["Park", "Club"], "every value replaced, not added to")
    XCTAssertFalse(line.flag("quiet"))
    XCTAssertTrue(line.flag("route"))
    XCTAssertTrue(defaults.flag("quiet"), "the defaults themselves are unchanged")
    XCTAssertEqual(defaults.strings("category"), ["Bar"])
  }

  func testAnEmptyListTakesAnOptionBackToItsDefault() throws {
    let defaults = try parsed(["--out", "a.png", "--size", "200x150"])
    let line = defaults.overriding(values: ["out": [], "size": []], flags: [:])
    XCTAssertEqual(line.string("out"), "map.png")
    XCTAssertFalse(line.isGiven("out"))
    XCTAssertNil(line.string("size"))
  }
}
