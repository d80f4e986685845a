import Arguments
import XCTest

private struct Size: Equatable {
  var width: Int
  var height: Int
}

private func parseSize(_ text: String) throws -> Size {
  let parts = text.split(separator: "x", omittingEmptySubsequences: false)
  guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
    throw InvalidValue("expected WIDTHxHEIGHT, e.g. 800x600")
  }
  guard width > 0 && height > 0 else { throw InvalidValue("width and height must be above zero") }
  return Size(width: width, height: height)
}

private func parseInt(_ text: String) throws -> Int {
  guard let value = Int(text) else { throw InvalidValue("not a whole number") }
  return value
}

private struct OtherError: Error, CustomStringConvertible {
  var description: String { "the store is locked" }
}

final class ParsedArgumentsTests: XCTestCase {
  func testValueConvertsTheGivenValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--size", "400x300"])
    XCTAssertEqual(try parsed.value("size", as: parseSize), Size(width: 400, height: 300))
  }

  func testValueConvertsTheDefault() throws {
    let parsed = try Fixtures.parse(Fixtures.render, [])
    XCTAssertEqual(try parsed.value("size", as: parseSize), Size(width: 800, height: 600))
  }

  func testValueIsNilWhenAbsentWithoutDefault() throws {
    let parsed = try Fixtures.parse(Fixtures.render, [])
    XCTAssertNil(try parsed.value("zoom", as: parseInt))
  }

  func testRejectedValueBecomesInvalidValueForTheOption() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--size", "0x600"])
    XCTAssertThrowsError(try parsed.value("size", as: parseSize)) { error in
      XCTAssertEqual(
        error as? ArgumentError,
        .invalidValue(option: "--size", value: "0x600", reason: "width and height must be above zero"))
      XCTAssertEqual(
        "\(error)", "invalid value '0x600' for --size: width and height must be above zero")
    }
  }

  func testRejectedDefaultNamesTheOptionAndTheDefault() throws {
    let command = CommandSpec(
      "x", abstract: "", options: [.value("scale", valueName: "N", help: "", default: "one")])
    let parsed = try Fixtures.parse(command, [])
    XCTAssertThrowsError(try parsed.value("scale", as: parseInt)) { error in
      XCTAssertEqual("\(error)", "invalid value 'one' for --scale: not a whole number")
    }
  }

  func testOtherErrorsBecomeInvalidValueWithTheirDescription() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--zoom", "3"])
    XCTAssertThrowsError(try parsed.value("zoom", as: { _ -> Int in throw OtherError() })) { error in
      XCTAssertEqual("\(error)", "invalid value '3' for --zoom: the store is locked")
    }
  }

  func testArgumentErrorsFromTheClosurePassThrough() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--zoom", "3"])
    XCTAssertThrowsError(
      try parsed.value("zoom", as: { _ -> Int in throw ArgumentError.duplicateOption("--zoom") })
    ) { error in
      XCTAssertEqual(error as? ArgumentError, .duplicateOption("--zoom"))
    }
  }

  func testValuesConvertsEveryRepeatedValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--category", "bar", "--category", "park"])
    XCTAssertEqual(try parsed.values("category", as: { $0.uppercased() }), ["BAR", "PARK"])
    XCTAssertEqual(try Fixtures.parse(Fixtures.render, []).values("category", as: parseInt), [])
  }

  func testValuesStopsAtTheFirstRejectedValue() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--category", "1", "--category", "two"])
    XCTAssertThrowsError(try parsed.values("category", as: parseInt)) { error in
      XCTAssertEqual("\(error)", "invalid value 'two' for --category: not a whole number")
    }
  }

  func testPositionalConversion() throws {
    let parsed = try Fixtures.parse(Fixtures.delete, ["3", "5"])
    XCTAssertEqual(try parsed.positionals("ID", as: parseInt), [3, 5])
    XCTAssertEqual(try parsed.positional("ID", as: parseInt), 3)
    let diff = try Fixtures.parse(Fixtures.diff, ["a", "b"])
    XCTAssertNil(try diff.positional("DIFF", as: parseInt))
  }

  func testRejectedPositionalNamesTheArgument() throws {
    let parsed = try Fixtures.parse(Fixtures.delete, ["3", "abc"])
    XCTAssertThrowsError(try parsed.positionals("ID", as: parseInt)) { error in
      XCTAssertEqual(
        error as? ArgumentError, .invalidValue(option: "ID", value: "abc", reason: "not a whole number"))
      XCTAssertEqual("\(error)", "invalid value 'abc' for ID: not a whole number")
    }
    let diff = try Fixtures.parse(Fixtures.diff, ["x", "b"])
    XCTAssertThrowsError(try diff.positional("A", as: parseInt)) { error in
      XCTAssertEqual("\(error)", "invalid value 'x' for A: not a whole number")
    }
  }

  func testIsGivenDistinguishesDefaultsFromGivenValues() throws {
    let parsed = try Fixtures.parse(Fixtures.render, ["--out", "map.png", "-q"])
    XCTAssertTrue(parsed.isGiven("out"))
    XCTAssertFalse(parsed.isGiven("size"))
    XCTAssertTrue(parsed.isGiven("quiet"))
    XCTAssertFalse(parsed.isGiven("fractional-zoom"))
  }

  func testEqualParsesAreEqual() throws {
    XCTAssertEqual(
      try Fixtures.parse(Fixtures.render, ["-o", "a", "-q"]),
      try Fixtures.parse(Fixtures.render, ["--quiet", "--out=a"]))
  }
}
