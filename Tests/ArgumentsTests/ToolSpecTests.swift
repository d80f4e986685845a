import Arguments
import XCTest

final class ToolSpecTests: XCTestCase {
  private let tool = Fixtures.tool

  private func selectionError(_ argv: [String]) -> ArgumentError? {
    do {
      _ = try tool.select(argv)
      return nil
    } catch {
      return error
    }
  }

  func testSelectsAOneWordCommandAndPassesTheRest() throws {
    XCTAssertEqual(
      try tool.select(["render", "--out", "x.png"]), .command(Fixtures.render, arguments: ["--out", "x.png"]))
    XCTAssertEqual(try tool.select(["delete", "a", "b"]), .command(Fixtures.delete, arguments: ["a", "b"]))
  }

  func testSelectsATwoWordCommand() throws {
    XCTAssertEqual(
      try tool.select(["tiles", "fetch", "--zoom", "3-6"]),
      .command(Fixtures.tilesFetch, arguments: ["--zoom", "3-6"]))
    XCTAssertEqual(try tool.select(["tiles", "info"]), .command(Fixtures.tilesInfo, arguments: []))
  }

  func testLongestPathWins() throws {
    let tiles = CommandSpec(
      "tiles", abstract: "Tiles.", arguments: [.variadic("X", help: "", atLeastOne: false)])
    let tool = ToolSpec(name: "t", abstract: "", commands: [tiles, Fixtures.tilesFetch])
    XCTAssertEqual(
      try tool.select(["tiles", "fetch", "-z", "1"]), .command(Fixtures.tilesFetch, arguments: ["-z", "1"]))
    XCTAssertEqual(try tool.select(["tiles", "other"]), .command(tiles, arguments: ["other"]))
  }

  func testCommandHelpIsLeftToTheCommandsParser() throws {
    guard case .command(let command, let arguments) = try tool.select(["render", "--help"]) else {
      return XCTFail("expected a command")
    }
    XCTAssertEqual(try command.parse(arguments), .helpRequested)
  }

  func testHelpInPlaceOfACommand() throws {
    XCTAssertEqual(try tool.select(["--help"]), .help(group: []))
    XCTAssertEqual(try tool.select(["-h", "render"]), .help(group: []))
    XCTAssertEqual(try tool.select(["tiles", "--help"]), .help(group: ["tiles"]))
    XCTAssertEqual(try tool.select(["tiles", "-h"]), .help(group: ["tiles"]))
  }

  func testUnknownCommandSuggestsTheNearest() {
    let error = selectionError(["rendr", "--out", "x.png"])
    XCTAssertEqual(error, .unknownCommand("rendr", suggestion: "render"))
    XCTAssertEqual(error?.description, "unknown command 'rendr'; did you mean 'render'?")
  }

  func testUnknownCommandWithoutANearName() {
    let error = selectionError(["frobnicate"])
    XCTAssertEqual(error, .unknownCommand("frobnicate", suggestion: nil))
    XCTAssertEqual(error?.description, "unknown command 'frobnicate'")
  }

  func testUnknownSubcommandSuggestsWithinTheGroup() {
    let error = selectionError(["tiles", "fetx", "--zoom", "3"])
    XCTAssertEqual(error, .unknownCommand("tiles fetx", suggestion: "tiles fetch"))
    XCTAssertEqual(error?.description, "unknown command 'tiles fetx'; did you mean 'tiles fetch'?")
  }

  func testMissingCommand() {
    let error = selectionError([])
    XCTAssertEqual(
      error, .missingCommand(group: nil, expected: ["render", "import", "delete", "diff", "list", "tiles"]))
    XCTAssertEqual(
      error?.description, "missing command; expected one of: render, import, delete, diff, list, tiles")
  }

  func testAnOptionInPlaceOfACommandIsAMissingCommand() {
    XCTAssertEqual(
      selectionError(["--out", "x.png"]),
      .missingCommand(group: nil, expected: ["render", "import", "delete", "diff", "list", "tiles"]))
  }

  func testMissingSubcommand() {
    let error = selectionError(["tiles"])
    XCTAssertEqual(error, .missingCommand(group: "tiles", expected: ["fetch", "info", "prune"]))
    XCTAssertEqual(error?.description, "missing command after 'tiles'; expected one of: fetch, info, prune")
    XCTAssertEqual(
      selectionError(["tiles", "--zoom", "3"]),
      .missingCommand(group: "tiles", expected: ["fetch", "info", "prune"]))
  }
}
