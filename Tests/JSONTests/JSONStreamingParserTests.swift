import JSON
import XCTest

/// `JSONParser.parse(_:maximumHeldBytes:streamingArrays:)`: the top-level object's arrays handed on an
/// element at a time, with the errors `parse` reports, and nothing held past the limit.
final class JSONStreamingParserTests: XCTestCase {
  /// The document and the streamed elements, each checked to end where the parser says.
  private func streamed(
    _ text: String, maximumHeldBytes: Int = 1 << 20
  ) throws(JSONSyntaxError) -> (JSONValue, [(String, JSONValue)]) {
    let bytes = Array(text.utf8)
    var elements: [(String, JSONValue)] = []
    let document = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      try JSONParser.parse(buffer, maximumHeldBytes: maximumHeldBytes) { name, value, range in
        let next = bytes[range.upperBound...].first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }
        XCTAssertTrue(next == UInt8(ascii: ",") || next == UInt8(ascii: "]"), "\(range)")
        // The element's bytes are the element, and nothing around it.
        XCTAssertEqual(try? JSONParser.parse(bytes[range]), value)
        XCTAssertFalse(
          [UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "\n")].contains(bytes[range.lowerBound]))
        elements.append((name, value))
        return true
      }
    }
    XCTAssertNotNil(document)
    return (document ?? .null, elements)
  }

  func testArraysOfTheTopLevelObjectComeAnElementAtATime() throws {
    let text = """
      \u{FEFF}{ "user": {"latitude": 1, "list": [1, 2]}, "locations": [ {"id": "a"}, [3], "x" ],
        "empty": [], "type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null}] }
      """
    let (document, elements) = try streamed(text)
    let whole = try JSONParser.parse(text)
    XCTAssertEqual(
      document,
      .object([
        .init("user", whole["user"]!), .init("locations", .array([])), .init("empty", .array([])),
        .init("type", .string("FeatureCollection")), .init("features", .array([])),
      ]))
    XCTAssertEqual(elements.map(\.0), ["locations", "locations", "locations", "features"])
    guard case .array(let locations) = whole["locations"], case .array(let features) = whole["features"]
    else {
      return XCTFail("arrays expected")
    }
    XCTAssertEqual(elements.map(\.1), locations + features)
  }

  func testAValueThatIsNotAnObjectIsReadWhole() throws {
    for text in ["[1, [2, 3]]", "\"text\"", "12.5", "null"] {
      let (document, elements) = try streamed(text)
      XCTAssertEqual(document, try JSONParser.parse(text), text)
      XCTAssertTrue(elements.isEmpty, text)
    }
  }

  /// Every error is the one the whole-document parser reports, at the same line and column.
  func testErrorsAreTheWholeParsersErrors() {
    let broken = [
      "{\"locations\": [{\"a\": 1 \"b\": 2}]}", "{\"locations\": [1, 2,]}", "{\"locations\": [1 2]}",
      "{\"locations\": [{\"a\": ]}]}", "{\"locations\": [\"open]}", "{\"locations\": [1]",
      "{\"a\": 1, \"a\": [2]}",
      "{\"locations\": [1], \"locations\": [2]}", "{\"x\": [tru]}", "{\"x\": [01]}", "{\"x\": [1e999]}",
      "{\"x\": []} trailing", "{\"x\": [[[[[[1]]]]]]}", "{'x': []}", "{\"x\": [\"\u{1}\"]}", "",
      "{\"locations\": [1],\n  \"tracks\": [{\"a\":\n nul}]}",
    ]
    for text in broken {
      var wholeError: JSONSyntaxError?
      do { _ = try JSONParser.parse(text, maximumDepth: 5) } catch { wholeError = error }
      let bytes = Array(text.utf8)
      var streamedError: JSONSyntaxError?
      do {
        _ = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
          try JSONParser.parse(buffer, maximumHeldBytes: 1 << 20, maximumDepth: 5) { _, _, _ in true }
        }
      } catch { streamedError = error }
      XCTAssertNotNil(wholeError, text)
      XCTAssertEqual(streamedError, wholeError, text)
    }
  }

  /// An element, a member or a top-level value longer than the limit is an error at its start, found
  /// before it is held; arrays of the top-level object are never held, however long.
  func testNothingLargerThanTheLimitIsHeld() throws {
    let long = String(repeating: "x", count: 1_200)
    let digits = "0." + String(repeating: "1", count: 1_198)
    let value = "a value larger than 1000 bytes starts here"
    let topLevel = "the top-level object's members other than arrays pass 1000 bytes here"
    let cases: [(String, column: Int, message: String)] = [
      ("{\"locations\": [1, {\"d\": \"\(long)\"}]}", 19, value),
      ("{\"locations\": [1, [\(digits)]]}", 19, value),
      ("[\"\(long)\"]", 1, value),
      ("{\"user\": {\"d\": \"\(long)\"}}", 10, topLevel),
      ("{\"user\": \"\(long)\"}", 10, topLevel),
      ("{\"n\": \(digits)}", 7, topLevel),
      ("{\"\(long)\": []}", 2, topLevel),
    ]
    for (text, column, message) in cases {
      XCTAssertThrowsError(try streamed(text, maximumHeldBytes: 1_000), text) { error in
        XCTAssertEqual("\(error)", "1:\(column): \(message), more than is read at once", text)
        XCTAssertEqual((error as? JSONSyntaxError)?.offset, column - 1, text)
      }
      XCTAssertNoThrow(try streamed(text, maximumHeldBytes: 2_000), text)
    }
    // Arrays of the top-level object are never held, however long.
    let many = "{\"locations\": [" + Array(repeating: "\"\(long)\"", count: 100).joined(separator: ",") + "]}"
    XCTAssertEqual(try streamed(many, maximumHeldBytes: 2_000).1.count, 100)
  }

  /// The top-level object's names and kept values share one limit, each member costing
  /// `topLevelMemberCost` more: members each under the limit, or many empty arrays, cannot add up past it.
  func testTheTopLevelObjectsMembersShareTheLimit() throws {
    let part = String(repeating: "y", count: 400)
    let three = "{\"a\": \"\(part)\", \"b\": \"\(part)\", \"c\": \"\(part)\"}"
    XCTAssertNoThrow(try streamed(three, maximumHeldBytes: 3 * (400 + 2 + 3 + 256)))
    // At the third value, which starts after `{"a": ` + 402 bytes + `, "b": ` + 402 + `, "c": `.
    let column: Int = 6 + 402 + 7 + 402 + 7 + 1
    XCTAssertThrowsError(try streamed(three, maximumHeldBytes: 2 * (400 + 2 + 3 + 256) + 300), three) {
      XCTAssertTrue("\($0)".hasPrefix("1:\(column): the top-level object's members"), "\($0)")
    }
    let arrays = "{" + (0..<100).map { "\"a\($0)\": []" }.joined(separator: ", ") + "}"
    XCTAssertEqual(try streamed(arrays, maximumHeldBytes: 100 * 300).1.count, 0)
    XCTAssertThrowsError(try streamed(arrays, maximumHeldBytes: 50 * 256), arrays)
  }

  func testTheHandlerStopsTheParse() throws {
    let bytes = Array("{\"a\": [1, 2, 3, 4], \"b\": [5] ]".utf8)  // Broken after the point it stops.
    var seen: [JSONValue] = []
    let document = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      try JSONParser.parse(buffer, maximumHeldBytes: 100) { _, value, _ in
        seen.append(value)
        return seen.count < 2
      }
    }
    XCTAssertNil(document)
    XCTAssertEqual(seen, [.number(1), .number(2)])
  }
}
