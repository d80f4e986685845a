import JSON
import XCTest

final class JSONParserTests: XCTestCase {
  private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

  /// `line:column: message` for text that must fail.
  private func failure(_ text: String, maximumDepth: Int = 256, line: UInt = #line) -> String {
    do {
      let value = try JSONParser.parse(text, maximumDepth: maximumDepth)
      XCTFail("parsed \(value)", line: line)
      return ""
    } catch {
      return error.description
    }
  }

  func testScalars() throws {
    XCTAssertEqual(try parse("null"), .null)
    XCTAssertEqual(try parse("true"), .bool(true))
    XCTAssertEqual(try parse(" false\n"), .bool(false))
    XCTAssertEqual(try parse("0"), .number(0))
    XCTAssertEqual(try parse("-122.0312"), .number(-122.0312))
    XCTAssertEqual(try parse("6.02e23"), .number(6.02e23))
    XCTAssertEqual(try parse("1E-7"), .number(1e-7))
    XCTAssertEqual(try parse("-0.5e+2"), .number(-50))
    XCTAssertEqual(try parse("\"Apple Park\""), .string("Apple Park"))
  }

  func testNestedValuesKeepMemberOrder() throws {
    let value = try parse(#"{"b": [1, {"c": null}], "a": {}, "d": []}"#)
    XCTAssertEqual(
      value,
      .object([
        .init("b", .array([.number(1), .object([.init("c", .null)])])), .init("a", .object([])),
        .init("d", .array([])),
      ]))
    XCTAssertEqual(value.memberNames, ["b", "a", "d"])
    XCTAssertEqual(value["d"], .array([]))
    XCTAssertNil(value["e"])
  }

  func testStringEscapes() throws {
    XCTAssertEqual(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#), .string("a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti"))
    XCTAssertEqual(try parse(#""Caf\u00e9 \u00C9""#), .string("Café É"))
    XCTAssertEqual(try parse(#""\u0000""#), .string("\u{0}"))
  }

  func testSurrogatePairs() throws {
    XCTAssertEqual(try parse(#""\ud83d\uDCCD pin""#), .string("📍 pin"))
    XCTAssertEqual(try parse(#""\uD834\uDD1E""#), .string("𝄞"))
  }

  func testRawUnicodeAndByteOrderMark() throws {
    XCTAssertEqual(try parse("\"東京タワー\""), .string("東京タワー"))
    XCTAssertEqual(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), .array([.number(1)]))
  }

  func testMissingCommaBetweenMembers() {
    let text = """
      {
        "id": "apple-park",
        "latitude": 37.3349 "longitude": -122.009
      }
      """
    XCTAssertEqual(failure(text), "3:23: expected ',' or '}' after an object member")
  }

  func testMissingCommaBetweenElements() {
    XCTAssertEqual(failure("[1, 2\n 3]"), "2:2: expected ',' or ']' after an array element")
  }

  func testTrailingCommas() {
    XCTAssertEqual(failure("{\"a\": 1,\n}"), "1:8: trailing comma before '}'")
    XCTAssertEqual(failure("[1, 2, ]"), "1:6: trailing comma before ']'")
  }

  func testMemberNames() {
    XCTAssertEqual(failure("{latitude: 1}"), "1:2: expected a member name in double quotes or '}'")
    XCTAssertEqual(failure("{\"a\": 1, b: 2}"), "1:10: expected a member name in double quotes")
    XCTAssertEqual(failure("{\"a\" 1}"), "1:6: expected ':' after the member name \"a\"")
    XCTAssertEqual(failure("{\"a\": 1, \"a\": 2}"), "1:10: duplicate member \"a\" in an object")
    // Past the members compared one by one, names go into a set: a repeat is found there too.
    let many = (0..<40).map { "\"m\($0)\": \($0)" }.joined(separator: ",")
    XCTAssertEqual(try JSONParser.parse(Array("{\(many)}".utf8)).memberNames.count, 40)
    for repeated in [3, 17, 39] {
      let text = "{\(many),\"m\(repeated)\": 0}"
      let column = text.count - "\"m\(repeated)\": 0}".count + 1
      XCTAssertEqual(failure(text), "1:\(column): duplicate member \"m\(repeated)\" in an object")
    }
  }

  func testBadValues() {
    XCTAssertEqual(failure("{\"latitude\": NaN}"), "1:14: expected a value, found 'NaN'")
    XCTAssertEqual(failure("[Infinity]"), "1:2: expected a value, found 'Infinity'")
    XCTAssertEqual(failure("[tru]"), "1:2: expected a value, found 'tru'")
    XCTAssertEqual(failure("[trueish]"), "1:2: expected a value, found 'trueish'")
    XCTAssertEqual(failure("{\"a\": }"), "1:7: expected a value, found '}'")
    XCTAssertEqual(failure("['x']"), "1:2: strings must be in double quotes, not single quotes")
    XCTAssertEqual(failure("[+1]"), "1:2: expected a value, found '+1'")
    XCTAssertEqual(failure("[.5]"), "1:2: expected a value, found '.5'")
  }

  func testNumbers() {
    XCTAssertEqual(failure("[01]"), "1:2: numbers must not start with 0 (leading zeros are not allowed)")
    XCTAssertEqual(failure("[1.]"), "1:4: expected a digit after '.'")
    XCTAssertEqual(failure("[1e]"), "1:4: expected a digit in the exponent")
    XCTAssertEqual(failure("[-]"), "1:3: expected a digit after '-'")
    XCTAssertEqual(failure("[1e400]"), "1:2: number 1e400 is too large")
    XCTAssertEqual(failure("[-1e400]"), "1:2: number -1e400 is too large")
    XCTAssertEqual(failure("[1.2.3]"), "1:5: expected ',' or ']' after an array element")
  }

  func testUnterminatedStringsPointAtTheOpeningQuote() {
    XCTAssertEqual(
      failure("{\"description\": \"Apple Park}"), "1:17: string is not closed before the end of the file")
    XCTAssertEqual(
      failure("{\"description\": \"Apple Park,\n\"category\": \"Landmark\"}"),
      "1:17: string is not closed before the end of the line")
  }

  func testBadEscapes() {
    XCTAssertEqual(failure(#"["a\x"]"#), #"1:4: invalid escape \x in a string"#)
    XCTAssertEqual(failure(#"["\u12G4"]"#), #"1:3: \u must be followed by 4 hexadecimal digits"#)
    XCTAssertEqual(failure(#"["ab\ud83d"]"#), #"1:5: unpaired UTF-16 surrogate \uD83D in a string"#)
    XCTAssertEqual(failure(#"["\ud83d\u0041"]"#), #"1:3: unpaired UTF-16 surrogate \uD83D in a string"#)
    XCTAssertEqual(failure(#"["\udccd"]"#), #"1:3: unpaired UTF-16 surrogate \uDCCD in a string"#)
  }

  func testControlCharactersAndInvalidUTF8() {
    XCTAssertEqual(failure("[\"a\tb\"]"), "1:4: control character U+0009 in a string must be escaped")
    XCTAssertThrowsError(try JSONParser.parse([0x22, 0xC3, 0x28, 0x22])) { error in
      XCTAssertEqual((error as? JSONSyntaxError)?.description, "1:1: string is not valid UTF-8")
    }
  }

  func testAnUnexpectedCharacterIsQuotedAlone() {
    XCTAssertEqual(failure("[é]"), "1:2: expected a value, found 'é'")
    XCTAssertEqual(failure("[東京]"), "1:2: expected a value, found '東'")
    // A million stray UTF-8 continuation bytes once became a three-megabyte message.
    let stray = Array("[".utf8) + [UInt8](repeating: 0xB4, count: 1_000_000) + Array("]".utf8)
    XCTAssertThrowsError(try JSONParser.parse(stray)) { error in
      XCTAssertEqual((error as? JSONSyntaxError)?.description, "1:2: expected a value, found '\u{FFFD}'")
    }
  }

  func testEndOfFile() {
    XCTAssertEqual(
      failure("{\"a\": 1"), "1:8: unexpected end of file; expected ',' or '}' after an object member")
    XCTAssertEqual(failure("[1,\n"), "2:1: unexpected end of file; expected a value")
    XCTAssertEqual(failure("{\"a\""), "1:5: unexpected end of file; expected ':' after the member name \"a\"")
  }

  func testTrailingGarbage() {
    XCTAssertEqual(failure("{}\n}"), "2:1: unexpected '}' after the end of the JSON value")
    XCTAssertEqual(failure("[1] [2]"), "1:5: unexpected '[' after the end of the JSON value")
  }

  func testColumnsCountCharactersNotBytes() {
    XCTAssertEqual(failure("[\"東京\" 1]"), "1:7: expected ',' or ']' after an array element")
    XCTAssertEqual(failure("\t[1 2]"), "1:5: expected ',' or ']' after an array element")
  }

  func testByteOrderMarkIsNotAColumn() {
    XCTAssertThrowsError(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1 2]".utf8))) { error in
      XCTAssertEqual(
        (error as? JSONSyntaxError)?.description, "1:4: expected ',' or ']' after an array element")
    }
  }

  func testCarriageReturnLineEndings() {
    XCTAssertEqual(failure("{\r\n\"a\": 1\r\n\"b\": 2}"), "3:1: expected ',' or '}' after an object member")
  }

  func testNestingLimit() throws {
    XCTAssertEqual(
      failure("[[[1]]]", maximumDepth: 2), "1:3: arrays and objects are nested deeper than 2 levels")
    XCTAssertNoThrow(try JSONParser.parse("[[1]]", maximumDepth: 2))
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    XCTAssertEqual(failure(deep), "1:257: arrays and objects are nested deeper than 256 levels")
  }

  func testErrorCarriesOffset() {
    XCTAssertThrowsError(try JSONParser.parse("[1 2]")) { error in
      let syntax = error as? JSONSyntaxError
      XCTAssertEqual(syntax?.offset, 3)
      XCTAssertEqual(syntax?.line, 1)
      XCTAssertEqual(syntax?.column, 4)
      XCTAssertEqual(syntax?.message, "expected ',' or ']' after an array element")
    }
  }
}
