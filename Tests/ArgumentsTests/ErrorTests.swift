import Arguments
import XCTest

/// Every error case, and its exact one-line message.
final class ErrorTests: XCTestCase {
  private func assertError(
    _ command: CommandSpec, _ argv: [String], _ expected: ArgumentError, _ message: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let error = Fixtures.error(command, argv)
    XCTAssertEqual(error, expected, file: file, line: line)
    XCTAssertEqual(error?.description, message, file: file, line: line)
  }

  func testUnknownOptionSuggestsTheNearestByEditDistance() {
    assertError(
      Fixtures.render, ["--categry", "Bar"], .unknownOption("--categry", suggestion: "--category"),
      "unknown option '--categry'; did you mean --category?")
    assertError(
      Fixtures.render, ["--qiuet"], .unknownOption("--qiuet", suggestion: "--quiet"),
      "unknown option '--qiuet'; did you mean --quiet?")
  }

  func testUnknownOptionSuggestsAUniquePrefixMatch() {
    assertError(
      Fixtures.render, ["--frac"], .unknownOption("--frac", suggestion: "--fractional-zoom"),
      "unknown option '--frac'; did you mean --fractional-zoom?")
  }

  func testUnknownOptionWithoutANearName() {
    assertError(
      Fixtures.render, ["--verbose"], .unknownOption("--verbose", suggestion: nil),
      "unknown option '--verbose'")
  }

  func testUnknownOptionWithAnEqualsValueNamesOnlyTheOption() {
    assertError(
      Fixtures.render, ["--categry=Bar"], .unknownOption("--categry", suggestion: "--category"),
      "unknown option '--categry'; did you mean --category?")
  }

  func testUnknownShortOption() {
    assertError(Fixtures.render, ["-x"], .unknownOption("-x", suggestion: nil), "unknown option '-x'")
    assertError(
      Fixtures.render, ["-qo", "x"], .unknownOption("-qo", suggestion: nil), "unknown option '-qo'")
  }

  func testLongNameWithOneDashSuggestsTwoDashes() {
    assertError(
      Fixtures.render, ["-out", "x.png"], .unknownOption("-out", suggestion: "--out"),
      "unknown option '-out'; did you mean --out?")
  }

  func testMissingValueAtTheEnd() {
    assertError(
      Fixtures.render, ["--out"], .missingValue(option: "--out", valueName: "PATH"),
      "missing value for --out (expected PATH)")
    assertError(
      Fixtures.render, ["-o"], .missingValue(option: "--out", valueName: "PATH"),
      "missing value for --out (expected PATH)")
  }

  func testMissingValueBeforeAnotherOptionOrDoubleDash() {
    assertError(
      Fixtures.render, ["--out", "--quiet"], .missingValue(option: "--out", valueName: "PATH"),
      "missing value for --out (expected PATH)")
    assertError(
      Fixtures.render, ["--size", "--", "x"], .missingValue(option: "--size", valueName: "WxH"),
      "missing value for --size (expected WxH)")
  }

  func testFlagGivenAValue() {
    assertError(
      Fixtures.render, ["--quiet=yes"], .unexpectedValue(option: "--quiet", value: "yes"),
      "--quiet does not take a value (got 'yes')")
  }

  func testShortFlagGivenAValue() {
    assertError(
      Fixtures.render, ["-q=no"], .unexpectedValue(option: "--quiet", value: "no"),
      "--quiet does not take a value (got 'no')")
  }

  func testOptionGivenTwice() {
    assertError(
      Fixtures.render, ["--out", "a.png", "--out", "b.png"], .duplicateOption("--out"),
      "--out can be given only once")
    assertError(
      Fixtures.render, ["-o", "a.png", "--out=b.png"], .duplicateOption("--out"),
      "--out can be given only once")
  }

  func testFlagGivenTwice() {
    assertError(
      Fixtures.render, ["--quiet", "-q"], .duplicateOption("--quiet"), "--quiet can be given only once")
  }

  func testUnexpectedPositional() {
    assertError(
      Fixtures.render, ["extra"], .unexpectedPositional("extra"), "unexpected argument 'extra'")
    assertError(
      Fixtures.importCommand, ["a.json", "b.json"], .unexpectedPositional("b.json"),
      "unexpected argument 'b.json'")
  }

  func testMissingRequiredPositional() {
    assertError(Fixtures.importCommand, ["--dry-run"], .missingPositional("FILE"), "missing argument FILE")
    assertError(Fixtures.delete, [], .missingPositional("ID"), "missing argument ID")
    assertError(Fixtures.diff, ["a.png"], .missingPositional("B"), "missing argument B")
  }

  func testOptionErrorsComeBeforePositionalErrors() {
    XCTAssertEqual(
      Fixtures.error(Fixtures.importCommand, ["--bogus"]), .unknownOption("--bogus", suggestion: nil))
  }

  func testInvalidValueMessage() {
    let error = ArgumentError.invalidValue(
      option: "--size", value: "0x600", reason: "width and height must be above zero")
    XCTAssertEqual(error.description, "invalid value '0x600' for --size: width and height must be above zero")
  }

  func testUnknownCommandMessages() {
    XCTAssertEqual(
      ArgumentError.unknownCommand("rendr", suggestion: "render").description,
      "unknown command 'rendr'; did you mean 'render'?")
    XCTAssertEqual(
      ArgumentError.unknownCommand("frobnicate", suggestion: nil).description, "unknown command 'frobnicate'")
  }

  func testMissingCommandMessages() {
    XCTAssertEqual(
      ArgumentError.missingCommand(group: nil, expected: ["render", "tiles"]).description,
      "missing command; expected one of: render, tiles")
    XCTAssertEqual(
      ArgumentError.missingCommand(group: "tiles", expected: ["fetch", "info"]).description,
      "missing command after 'tiles'; expected one of: fetch, info")
  }
}
