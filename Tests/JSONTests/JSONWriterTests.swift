import JSON
import XCTest

final class JSONWriterTests: XCTestCase {
  func testPrettyPrintsInStoredOrder() {
    let value = JSONValue.object([
      .init("z", .number(1)), .init("a", .array([.bool(true), .null])), .init("empty", .object([])),
      .init("none", .array([])),
    ])
    XCTAssertEqual(
      JSONWriter.text(value),
      """
      {
        "z": 1,
        "a": [
          true,
          null
        ],
        "empty": {},
        "none": []
      }

      """)
  }

  func testNumbersAreShortestExact() {
    XCTAssertEqual(JSONWriter.numberText(37.3349), "37.3349")
    XCTAssertEqual(JSONWriter.numberText(-122), "-122")
    XCTAssertEqual(JSONWriter.numberText(-0.0), "0")
    XCTAssertEqual(JSONWriter.numberText(0.1 + 0.2), "0.30000000000000004")
    XCTAssertEqual(JSONWriter.numberText(1e-7), "0.0000001")
    XCTAssertEqual(JSONWriter.numberText(-2.5e-8), "-0.000000025")
    XCTAssertEqual(JSONWriter.numberText(1.5e16), "15000000000000000")
    XCTAssertEqual(JSONWriter.numberText(1e300), "1e+300")
    XCTAssertEqual(JSONWriter.numberText(1e20), "100000000000000000000")
    XCTAssertEqual(JSONWriter.numberText(.nan), "null")
    XCTAssertEqual(JSONWriter.numberText(.infinity), "null")
  }

  func testStringsEscapeOnlyWhatJSONNeeds() {
    XCTAssertEqual(JSONWriter.quoted("Caf\u{E9} \"Central\"\n\\/"), #""Café \"Central\"\n\\/""#)
    XCTAssertEqual(JSONWriter.quoted("\u{1}\u{8}\t"), #""\u0001\b\t""#)
    XCTAssertEqual(JSONWriter.quoted("📍"), "\"📍\"")
  }

  func testWrittenTextParsesBackToTheSameValue() throws {
    let value = JSONValue.object([
      .init("text", .string("line\none \u{1F}\u{7F} 東京 📍")),
      .init(
        "numbers",
        .array([0.1, -0.0001, 1e300, .leastNonzeroMagnitude, 123_456_789.123].map(JSONValue.number))),
      .init("nested", .object([.init("deeper", .array([.array([.null])]))])),
    ])
    XCTAssertEqual(try JSONParser.parse(JSONWriter.text(value)), value)
  }

  func testWritingIntoBytesAtAnIndentIsTheTextIndented() {
    let value = JSONValue.object([
      .init("a", .array([.number(1), .object([.init("b", .string("x\u{1F}"))])])), .init("c", .null),
    ])
    var bytes: [UInt8] = []
    JSONWriter.write(value, indent: 2, into: &bytes)
    // The text of `text(_:)` with every line after the first moved right by two levels (four spaces).
    let lines = JSONWriter.text(value).dropLast().split(separator: "\n", omittingEmptySubsequences: false)
    let shifted = ([String(lines[0])] + lines.dropFirst().map { "    " + $0 }).joined(separator: "\n")
    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), shifted)
    XCTAssertTrue(shifted.contains(#""x\u001f""#))
  }
}
