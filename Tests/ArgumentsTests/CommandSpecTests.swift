import XCTest

@testable import Arguments

final class CommandSpecTests: XCTestCase {
  func testPathIsSplitIntoWords() {
    let command = CommandSpec("tiles  fetch", abstract: "")
    XCTAssertEqual(command.path, ["tiles", "fetch"])
    XCTAssertEqual(command.name, "tiles fetch")
  }

  func testFixturesAreWellFormed() {
    for command in Fixtures.tool.commands {
      XCTAssertEqual(
        CommandSpec.problems(path: command.path, arguments: command.arguments, options: command.options), [],
        command.name)
    }
  }

  func testOptionFactories() {
    let out = OptionSpec.value("out", short: "o", valueName: "PATH", help: "h", default: "map.png")
    XCTAssertTrue(out.takesValue)
    XCTAssertFalse(out.isRepeatable)
    XCTAssertEqual(out.longForm, "--out")
    XCTAssertEqual(out.defaultValue, "map.png")
    let quiet = OptionSpec.flag("quiet", short: "q", help: "h")
    XCTAssertFalse(quiet.takesValue)
    XCTAssertNil(quiet.valueName)
    XCTAssertEqual(PositionalSpec.variadic("ID", help: "").arity, .oneOrMore)
    XCTAssertEqual(PositionalSpec.variadic("ID", help: "", atLeastOne: false).arity, .zeroOrMore)
    XCTAssertEqual(PositionalSpec.optional("F", help: "").arity, .optional)
    XCTAssertEqual(PositionalSpec.required("F", help: "").arity, .required)
  }

  /// `CommandSpec.init` stops on these problems, so they are checked before a spec is made.
  private func problems(options: [OptionSpec] = [], arguments: [PositionalSpec] = []) -> [String] {
    CommandSpec.problems(path: ["x"], arguments: arguments, options: options)
  }

  func testProblemsAreFound() {
    XCTAssertEqual(
      problems(options: [.flag("quiet", help: ""), .flag("quiet", help: "")]),
      ["option 'quiet' declared twice or reserved"])
    XCTAssertEqual(problems(options: [.flag("help", help: "")]), ["option 'help' declared twice or reserved"])
    XCTAssertEqual(
      problems(options: [.flag("v", short: "h", help: "")]), ["short name 'h' declared twice or reserved"])
    XCTAssertEqual(problems(options: [.flag("one", short: "1", help: "")]), ["bad short name '1'"])
    XCTAssertEqual(problems(options: [.flag("--out", help: "")]), ["bad option name '--out'"])
    XCTAssertEqual(
      problems(arguments: [.optional("A", help: ""), .required("B", help: "")]),
      ["required argument 'B' after an optional one"])
    XCTAssertEqual(
      problems(arguments: [.variadic("A", help: ""), .optional("B", help: "")]),
      ["variadic argument 'A' is not last"])
    XCTAssertEqual(
      problems(arguments: [.required("A", help: ""), .required("A", help: "")]),
      ["argument 'A' declared twice"])
    XCTAssertEqual(
      CommandSpec.problems(path: [], arguments: [], options: []), ["empty command path"])
  }
}
