import Foundation
import XCTest

@testable import Rendering

final class StyleTests: XCTestCase {
  private func style(_ json: String, path: String = "test.json") throws -> Style {
    try Style(json: Data(json.utf8), path: path)
  }

  private func styleError(_ json: String, path: String = "test.json") -> StyleError? {
    do {
      _ = try style(json, path: path)
      return nil
    } catch let error as StyleError {
      return error
    } catch {
      XCTFail("unexpected error \(error)")
      return nil
    }
  }

  // MARK: The default look

  func testStandardPinIsTheSeedGreen() {
    let color = Style.standard.pin.color
    XCTAssertEqual(color.red, 0.32)
    XCTAssertEqual(color.green, 0.82)
    XCTAssertEqual(color.blue, 0.40)
    XCTAssertEqual(color.alpha, 1)
    XCTAssertEqual(color.description, "#52D166")
  }

  func testStandardCalloutsAreWhiteAndTheUserDotIsBlue() {
    XCTAssertEqual(Style.standard.callout.background, .white)
    XCTAssertEqual(Style.standard.name, "default")
    let blue = Style.standard.userDot.color
    XCTAssertGreaterThan(blue.blue, blue.red + 0.5)
    XCTAssertGreaterThan(blue.blue, blue.green + 0.3)
  }

  func testTheDefaultStyleFileIsExactlyTheStandardStyle() throws {
    let url = RenderKit.root.appendingPathComponent("Styles/default.json")
    let loaded = try Style.load(contentsOf: url)
    XCTAssertEqual(loaded, Style.standard)
    // Field by field, so that a drift names the part that drifted.
    XCTAssertEqual(loaded.pin, Style.standard.pin)
    XCTAssertEqual(loaded.callout, Style.standard.callout)
    XCTAssertEqual(loaded.cluster, Style.standard.cluster)
    XCTAssertEqual(loaded.userDot, Style.standard.userDot)
    XCTAssertEqual(loaded.attribution, Style.standard.attribution)
    XCTAssertEqual(loaded.basemap, Style.standard.basemap)
    XCTAssertEqual(loaded.fontFamily, Style.standard.fontFamily)
  }

  func testTheDefaultStyleFileNamesEveryField() throws {
    // The file documents the style: every field a style file may set is in it.
    let url = RenderKit.root.appendingPathComponent("Styles/default.json")
    let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var names: Set<String> = []
    for (key, value) in root {
      if let nested = value as? [String: Any] {
        for inner in nested.keys { names.insert(key + "." + inner) }
      } else {
        names.insert(key)
      }
    }
    let known = Set(Style.colorFields.keys).union(Style.numberFields.keys).union(Style.textFields.keys)
      .union(Style.optionalTextFields.keys).union(Style.optionalColorFields.keys)
    XCTAssertEqual(names, known)
  }

  func testClusterColourFollowsThePinUnlessGiven() throws {
    XCTAssertNil(try style(#"{"cluster": {"color": null}}"#).cluster.color)
    XCTAssertEqual(
      try style(##"{"cluster": {"color": "#FF0000"}}"##).cluster.color, Color(red: 1, green: 0, blue: 0))
    XCTAssertThrowsError(try style(#"{"cluster": {"color": 3}}"#)) { error in
      XCTAssertEqual(
        "\(error)",
        ##"style test.json: field "cluster.color" must be a colour like "#52D166" or [0.32, 0.82, 0.4], or null"##
      )
    }
  }

  func testAnEmptyStyleIsTheStandardStyle() throws {
    XCTAssertEqual(try style("{}"), Style.standard)
  }

  // MARK: Overriding

  func testOverridingOneFieldKeepsEveryOtherDefault() throws {
    var expected = Style.standard
    expected.pin.headRadius = 10
    XCTAssertEqual(try style(#"{"pin": {"headRadius": 10}}"#), expected)

    expected = Style.standard
    expected.callout.background = Color(red: 1, green: 0, blue: 0)
    XCTAssertEqual(try style(##"{"callout": {"background": "#FF0000"}}"##), expected)

    expected = Style.standard
    expected.basemap.attribution = "Made by me"
    XCTAssertEqual(try style(#"{"basemap": {"attribution": "Made by me"}}"#), expected)
  }

  func testAStyleFileIsNamedAfterItsFileUnlessItSaysOtherwise() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("mymap-style-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let unnamed = folder.appendingPathComponent("night.json")
    try Data(##"{"pin": {"color": "#FF8800"}}"##.utf8).write(to: unnamed)
    let loaded = try Style.load(contentsOf: unnamed)
    XCTAssertEqual(loaded.name, "night")
    var expected = Style.standard
    expected.name = "night"
    expected.pin.color = Color(red: 1, green: 136.0 / 255, blue: 0)
    XCTAssertEqual(loaded, expected)

    let named = folder.appendingPathComponent("file.json")
    try Data(#"{"name": "Evening"}"#.utf8).write(to: named)
    XCTAssertEqual(try Style.load(contentsOf: named).name, "Evening")
  }

  func testHexAndArrayColours() throws {
    let loaded = try style(
      """
      {"pin": {"color": "#52D166", "needleColor": "#52d16680"},
       "callout": {"background": [0.1, 0.2, 0.3], "titleColor": [0.1, 0.2, 0.3, 0.5], "subtitleColor": [1, 0, 1]}}
      """)
    XCTAssertEqual(loaded.pin.color, Color(red: 82.0 / 255, green: 209.0 / 255, blue: 102.0 / 255))
    XCTAssertEqual(
      loaded.pin.needleColor,
      Color(red: 82.0 / 255, green: 209.0 / 255, blue: 102.0 / 255, alpha: 128.0 / 255))
    XCTAssertEqual(loaded.callout.background, Color(red: 0.1, green: 0.2, blue: 0.3))
    XCTAssertEqual(loaded.callout.titleColor, Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5))
    XCTAssertEqual(loaded.callout.subtitleColor, Color(red: 1, green: 0, blue: 1))
  }

  func testOptionalTextFieldsTakeNull() throws {
    let loaded = try style(#"{"basemap": {"tiles": null, "attribution": null}}"#)
    XCTAssertNil(loaded.basemap.tiles)
    XCTAssertNil(loaded.basemap.attribution)
  }

  // MARK: Errors, with the words the user reads

  func testUnknownField() {
    let error = styleError(##"{"pin": {"colour": "#FFFFFF"}}"##)
    XCTAssertEqual(error, .unknownField(path: "test.json", field: "pin.colour"))
    XCTAssertEqual(error?.description, #"style test.json: unknown field "pin.colour""#)

    XCTAssertEqual(
      styleError(##"{"pins": {"color": "#FFFFFF"}}"##)?.description,
      ##"style test.json: unknown field "pins.color""##)
    XCTAssertEqual(styleError(#"{"pin": 3}"#)?.description, #"style test.json: unknown field "pin""#)
  }

  func testAnUnknownFieldIsQuotedOnOneLineAndShort() {
    // A member name is any JSON string: a line break in it made a message of two lines, and a long one a
    // message as long (found by Fuzz/Harnesses/style.swift).
    XCTAssertEqual(
      styleError(#"{"callout": {"a\nb": 1}}"#)?.description, #"style test.json: unknown field "callout.a\nb""#
    )
    let long = String(repeating: "x", count: 100_000)
    XCTAssertEqual(
      styleError("{\"\(long)\": 1}")?.description,
      "style test.json: unknown field \"\(String(repeating: "x", count: 80))…\" (100000 bytes)")
  }

  func testBadColour() {
    let message =
      ##"style test.json: field "pin.color" must be a colour like "#52D166" or [0.32, 0.82, 0.4]"##
    for bad in [
      ##""green""##, ##""52D166""##, ##""#52D16""##, ##""#52D1666""##, ##""#GG0000""##, ##""#+1+2+3""##,
      ##""#-0-0-0""##,
      "[0.1, 0.2]", "[0.1, 0.2, 0.3, 0.4, 0.5]", "[1, 2, 3]", "[-0.1, 0, 0]", #"[0, 0, "1"]"#, "[true, 0, 0]",
      "0.5", "null",
    ] {
      let error = styleError(#"{"pin": {"color": \#(bad)}}"#)
      XCTAssertEqual(
        error,
        .badValue(
          path: "test.json", field: "pin.color", expected: ##"a colour like "#52D166" or [0.32, 0.82, 0.4]"##),
        bad)
      XCTAssertEqual(error?.description, message, bad)
    }
  }

  func testSizesAndOpacitiesHaveAnUpperBound() {
    // A style cannot ask for a drawing that cannot be made (a pin head 10 billion points wide).
    XCTAssertEqual(
      styleError(#"{"pin": {"headRadius": 1e10}}"#)?.description,
      #"style test.json: field "pin.headRadius" must be a number from 0 to 1000"#)
    XCTAssertEqual(
      styleError(#"{"pin": {"shadowOpacity": 1.5}}"#)?.description,
      #"style test.json: field "pin.shadowOpacity" must be a number from 0 to 1"#)
  }

  func testNegativeNumber() {
    let error = styleError(#"{"pin": {"headRadius": -1}}"#)
    XCTAssertEqual(
      error, .badValue(path: "test.json", field: "pin.headRadius", expected: "a number from 0 to 1000"))
    XCTAssertEqual(
      error?.description, #"style test.json: field "pin.headRadius" must be a number from 0 to 1000"#)
  }

  func testBooleanWhereANumberGoes() {
    for value in ["true", "false"] {
      let error = styleError(#"{"attribution": {"size": \#(value)}}"#)
      XCTAssertEqual(
        error?.description, #"style test.json: field "attribution.size" must be a number from 0 to 1000"#,
        value)
    }
    // 1 and 0 are numbers, not booleans.
    XCTAssertEqual(try style(#"{"attribution": {"size": 1}}"#).attribution.size, 1)
    XCTAssertEqual(try style(#"{"pin": {"shadowOpacity": 0}}"#).pin.shadowOpacity, 0)
  }

  func testOtherWrongTypes() {
    XCTAssertEqual(
      styleError(#"{"pin": {"headRadius": "7"}}"#)?.description,
      #"style test.json: field "pin.headRadius" must be a number from 0 to 1000"#)
    XCTAssertEqual(
      styleError(#"{"fontFamily": ""}"#)?.description,
      #"style test.json: field "fontFamily" must be a non-empty string"#)
    XCTAssertEqual(
      styleError(#"{"name": 3}"#)?.description, #"style test.json: field "name" must be a non-empty string"#)
    XCTAssertEqual(
      styleError(#"{"basemap": {"tiles": 3}}"#)?.description,
      #"style test.json: field "basemap.tiles" must be a string or null"#)
  }

  func testMalformedJSONSaysWhere() {
    let cases: [(String, String)] = [
      (#"{"pin": "#, "style test.json:1:9: "),
      ("", "style test.json:1:1: "),
      ("{pin: 1}", "style test.json:1:2: "),
      (
        "{\n  \"pin\": {\"color\": [0, 0 0]}\n}",
        "style test.json:2:26: expected ',' or ']' after an array element"
      ),
      ("{\"pin\": 01}", "style test.json:1:9: "),
      (#"{"pin": {"headRadius": 3,}}"#, "style test.json:1:25: "),
    ]
    for (text, prefix) in cases {
      guard case .syntax(let path, _, _, let message)? = styleError(text) else {
        XCTFail("\(text): expected a syntax error, got \(String(describing: styleError(text)))")
        continue
      }
      XCTAssertEqual(path, "test.json")
      XCTAssertFalse(message.isEmpty, text)
      let description = styleError(text)?.description ?? ""
      XCTAssertTrue(description.hasPrefix(prefix), "\(text): \(description)")
    }
  }

  func testTheTopLevelMustBeAnObject() {
    for text in ["[1, 2]", "[]", #"[{"pin": {}}]"#] {
      let error = styleError(text, path: "/styles/list.json")
      XCTAssertEqual(
        error, .malformed(path: "/styles/list.json", reason: "the top level must be an object"), text)
      XCTAssertEqual(
        error?.description, "style /styles/list.json is not valid JSON: the top level must be an object", text
      )
    }
  }

  func testTheFirstErrorIsReportedInNameOrder() {
    // Several bad fields: the report does not depend on dictionary order.
    let text = #"{"userDot": {"radius": -1}, "callout": {"zzz": 1}, "pin": {"color": "red"}}"#
    for _ in 0..<5 {
      XCTAssertEqual(styleError(text), .unknownField(path: "test.json", field: "callout.zzz"))
    }
  }

  func testAnUnreadableFile() {
    let url = URL(fileURLWithPath: "/nonexistent/mymap/styles/none.json")
    do {
      _ = try Style.load(contentsOf: url)
      XCTFail("expected an error")
    } catch let error as StyleError {
      guard case .unreadable(let path, let reason) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, url.path)
      XCTAssertEqual(error.description, "cannot read style \(url.path): \(reason)")
    } catch {
      XCTFail("unexpected \(error)")
    }
  }

  func testNotFoundMessage() {
    XCTAssertEqual(
      StyleError.notFound(name: "night", searched: ["/a/Styles", "/b/styles"]).description,
      #"no style named "night" (looked in /a/Styles, /b/styles)"#)
  }
}
