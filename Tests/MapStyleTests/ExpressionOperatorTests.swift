import XCTest

@testable import MapStyle

final class ExpressionOperatorTests: XCTestCase {
  private let road = TestFeature(
    .lineString, id: .number(42),
    [
      "class": .string("primary"), "lanes": .number(4), "oneway": .bool(true),
      "name": .string("Mannerheimintie"),
      "empty": .null,
    ])

  func testGetHasIDGeometryTypeAndZoomReadTheFeatureAndCamera() throws {
    XCTAssertEqual(try value(#"["get", "class"]"#, road), .string("primary"))
    XCTAssertEqual(try value(#"["get", "missing"]"#, road), .null)
    XCTAssertEqual(try value(#"["get", "class"]"#), .null, "no feature: null")
    XCTAssertEqual(try value(#"["get", ["concat", "la", "nes"]]"#, road), .number(4))
    XCTAssertEqual(try value(#"["get", "b", ["literal", {"a": 1, "b": 2}]]"#), .number(2))
    XCTAssertEqual(try value(#"["has", "name"]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["has", "empty"]"#, road), .bool(true), "a present null counts")
    XCTAssertEqual(try value(#"["has", "missing"]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["has", "a", ["literal", {"a": 1}]]"#), .bool(true))
    XCTAssertEqual(try value(#"["id"]"#, road), .number(42))
    XCTAssertEqual(try value(#"["id"]"#, TestFeature()), .null)
    XCTAssertEqual(try value(#"["geometry-type"]"#, road), .string("LineString"))
    XCTAssertEqual(try value(#"["geometry-type"]"#, TestFeature(.polygon)), .string("Polygon"))
    XCTAssertEqual(try value(#"["zoom"]"#, zoom: 13.5), .number(13.5))
    XCTAssertEqual(try value(#"["feature-state", "hover"]"#, road), .null, "a static map has no state")
  }

  func testEqualityIsStrictAndFalseAcrossTypes() throws {
    XCTAssertEqual(try value(#"["==", ["get", "class"], "primary"]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["==", ["get", "lanes"], 4]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["==", ["get", "lanes"], "4"]"#, road), .bool(false), "number vs string")
    XCTAssertEqual(try value(#"["!=", ["get", "lanes"], "4"]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["==", ["get", "missing"], null]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["==", ["get", "oneway"], true]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["==", 1, 1.0]"#), .bool(true))
    XCTAssertEqual(
      compileError(#"["==", 1, "1"]"#), #"style layer "test": p: "==" cannot compare number with string"#)
    XCTAssertEqual(
      compileError(#"["==", ["to-color", "red"], "red"]"#),
      #"style layer "test": p: "==" cannot compare values of type color"#)
  }

  func testOrderingComparesNumbersOrStringsAndFailsAcrossTypes() throws {
    XCTAssertEqual(try value(#"["<", ["get", "lanes"], 5]"#, road), .bool(true))
    XCTAssertEqual(try value(#"[">=", ["get", "lanes"], 4]"#, road), .bool(true))
    XCTAssertEqual(try value(#"[">", ["get", "lanes"], 4]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["<=", ["get", "lanes"], 3]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["<", "apple", "banana"]"#), .bool(true))
    XCTAssertEqual(try value(#"["<", "Zebra", "apple"]"#), .bool(true), "code-unit order: Z before a")
    XCTAssertEqual(try value(#"[">", ["get", "name"], ["get", "class"]]"#, road), .bool(false))
    XCTAssertEqual(
      try evaluationFailure(#"["<", ["get", "name"], 5]"#, road), "expected number but found string")
    XCTAssertEqual(
      try evaluationFailure(#"["<", ["get", "name"], ["get", "lanes"]]"#, road),
      "ordering needs two numbers or two strings, found string and number")
    XCTAssertEqual(
      compileError(#"["<", true, false]"#),
      #"style layer "test": p: "<" cannot compare values of type boolean"#)
  }

  func testBooleanOperatorsNeedBooleans() throws {
    XCTAssertEqual(try value(#"["!", ["has", "name"]]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["all", ["has", "name"], ["==", ["get", "lanes"], 4]]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["all", ["has", "name"], ["has", "ref"]]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["any", ["has", "ref"], ["has", "name"]]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["all"]"#), .bool(true))
    XCTAssertEqual(try value(#"["any"]"#), .bool(false))
    XCTAssertEqual(
      try evaluationFailure(#"["!", ["get", "name"]]"#, road), "expected boolean but found string")
    XCTAssertEqual(try value(#"["!", ["get", "oneway"]]"#, road), .bool(false))
    XCTAssertEqual(compileError(#"["!", 1]"#), #"style layer "test": p: expected boolean but found number"#)
    // `any` stops at the first true: the failing second operand is never evaluated.
    XCTAssertEqual(try value(#"["any", true, ["<", ["get", "name"], 1]]"#, road), .bool(true))
  }

  func testInFindsItemsInArraysAndTextInStrings() throws {
    XCTAssertEqual(
      try value(#"["in", ["get", "class"], ["literal", ["primary", "secondary"]]]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["in", ["get", "lanes"], ["literal", ["4", 2]]]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["in", ["get", "lanes"], ["literal", [2, 4]]]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["in", "heim", ["get", "name"]]"#, road), .bool(true))
    XCTAssertEqual(try value(#"["in", "Heim", ["get", "name"]]"#, road), .bool(false))
    XCTAssertEqual(try value(#"["in", 4, "1234"]"#), .bool(true), "the needle is matched as text")
    XCTAssertEqual(try value(#"["in", "x", ["get", "missing"]]"#, road), .bool(false), "no haystack")
    XCTAssertEqual(try value(#"["in", "", "abc"]"#), .bool(true))
    XCTAssertEqual(
      try evaluationFailure(#"["in", "x", ["get", "lanes"]]"#, road), "expected array but found number")
  }

  func testMatchPicksTheOutputOfTheFirstMatchingLabel() throws {
    let match = #"["match", ["get", "class"], ["motorway", "trunk"], 1, "primary", 2, 0]"#
    XCTAssertEqual(try value(match, road), .number(2))
    XCTAssertEqual(try value(match, TestFeature(["class": .string("trunk")])), .number(1))
    XCTAssertEqual(try value(match, TestFeature(["class": .string("path")])), .number(0))
    XCTAssertEqual(try value(match, TestFeature(["class": .number(1)])), .number(0), "other type: fallback")
    let long =
      #"["match", ["get", "lanes"], \#((1...10).map { "\($0), \"l\($0)\"" }.joined(separator: ", ")), "none"]"#
    XCTAssertEqual(try value(long, road), .string("l4"), "a long table is hashed, with the same answers")
    XCTAssertEqual(try value(long, TestFeature(["lanes": .number(11)])), .string("none"))
    let numeric = #"["match", ["get", "lanes"], [1, 2], "narrow", 4, "wide", "other"]"#
    XCTAssertEqual(try value(numeric, road), .string("wide"))
    XCTAssertEqual(try value(numeric, TestFeature(["lanes": .string("4")])), .string("other"))
    XCTAssertEqual(
      compileError(#"["match", ["get", "x"], "a", 1, 2, 3, 0]"#),
      #"style layer "test": p: "match" labels must all be numbers or all strings"#)
    XCTAssertEqual(
      compileError(#"["match", ["get", "x"], 1.5, 1, 0]"#),
      #"style layer "test": p: "match" number labels must be integers"#)
    XCTAssertEqual(
      compileError(#"["match", ["get", "x"], "a", 1, "a", 2, 0]"#),
      #"style layer "test": p: "match" label a appears twice"#)
    XCTAssertEqual(
      compileError(#"["match", 3, "a", 1, 0]"#),
      #"style layer "test": p: "match" input is number but its labels are strings"#)
    XCTAssertEqual(
      compileError(#"["match", ["get", "x"], "a", 1]"#),
      #"style layer "test": p: "match" takes an input, label/output pairs and a fallback"#)
  }

  func testCaseTakesTheFirstTrueCondition() throws {
    let expression =
      #"["case", ["<", ["get", "lanes"], 2], "narrow", ["<", ["get", "lanes"], 5], "medium", "wide"]"#
    XCTAssertEqual(try value(expression, road), .string("medium"))
    XCTAssertEqual(try value(expression, TestFeature(["lanes": .number(1)])), .string("narrow"))
    XCTAssertEqual(try value(expression, TestFeature(["lanes": .number(9)])), .string("wide"))
    XCTAssertEqual(
      compileError(#"["case", true, 1, "x"]"#), #"style layer "test": p: expected number but found string"#)
  }

  func testCoalesceReturnsTheFirstNonNull() throws {
    let name = #"["coalesce", ["get", "name:latin"], ["get", "name"], "unnamed"]"#
    XCTAssertEqual(try value(name, road), .string("Mannerheimintie"))
    XCTAssertEqual(try value(name, TestFeature(["name:latin": .string("Helsinki")])), .string("Helsinki"))
    XCTAssertEqual(try value(name, TestFeature()), .string("unnamed"))
    XCTAssertEqual(try value(#"["coalesce", ["get", "a"], ["get", "b"]]"#, TestFeature()), .null)
    // With an expected colour, the conversion applies to the coalesced value, not to each argument.
    XCTAssertEqual(
      try value(#"["coalesce", ["get", "colour"], "red"]"#, TestFeature(), expected: .color).colorBytes,
      [255, 0, 0, 1])
  }

  func testConcatAndToStringWriteValuesAsJavaScriptDoes() throws {
    XCTAssertEqual(
      try value(#"["concat", ["get", "name"], " (", ["get", "lanes"], ")"]"#, road),
      .string("Mannerheimintie (4)"))
    XCTAssertEqual(try value(#"["concat", "a", ["get", "missing"], true, 1.5]"#, road), .string("atrue1.5"))
    XCTAssertEqual(try value(#"["to-string", 3]"#), .string("3"))
    XCTAssertEqual(try value(#"["to-string", 0.1]"#), .string("0.1"))
    XCTAssertEqual(try value(#"["to-string", 1e-7]"#), .string("1e-7"))
    XCTAssertEqual(try value(#"["to-string", 1e21]"#), .string("1e+21"))
    XCTAssertEqual(try value(#"["to-string", 123456789012]"#), .string("123456789012"))
    XCTAssertEqual(try value(#"["to-string", -0.5]"#), .string("-0.5"))
    XCTAssertEqual(try value(#"["to-string", null]"#), .string(""))
    XCTAssertEqual(try value(#"["to-string", false]"#), .string("false"))
    XCTAssertEqual(try value(##"["to-string", ["to-color", "#ff8000"]]"##), .string("rgba(255,128,0,1)"))
    XCTAssertEqual(try value(#"["to-string", ["rgba", 10, 20, 30, 0.5]]"#), .string("rgba(10,20,30,0.5)"))
    XCTAssertEqual(try value(#"["to-string", ["literal", [1, "a", null]]]"#), .string(#"[1,"a",null]"#))
    XCTAssertEqual(
      try value(#"["to-string", ["literal", {"b": 1, "a": [true]}]]"#), .string(#"{"a":[true],"b":1}"#))
  }

  func testToNumberToBooleanAndAssertions() throws {
    XCTAssertEqual(try value(#"["to-number", "12.5"]"#), .number(12.5))
    XCTAssertEqual(try value(#"["to-number", " 7 "]"#), .number(7))
    XCTAssertEqual(try value(#"["to-number", ""]"#), .number(0))
    XCTAssertEqual(try value(#"["to-number", "0x1A"]"#), .number(26))
    XCTAssertEqual(try value(#"["to-number", "1e3"]"#), .number(1000))
    XCTAssertEqual(try value(#"["to-number", true]"#), .number(1))
    XCTAssertEqual(try value(#"["to-number", null]"#), .number(0))
    XCTAssertEqual(
      try value(#"["to-number", ["get", "name"], ["get", "lanes"]]"#, road), .number(4), "first that converts"
    )
    XCTAssertEqual(
      try evaluationFailure(#"["to-number", ["get", "name"]]"#, road),
      #"cannot convert "Mannerheimintie" to a number"#)
    XCTAssertEqual(
      compileError(#"["to-number", "nan"]"#), #"style layer "test": p: cannot convert "nan" to a number"#)
    for (input, expected) in [("0", false), ("1", true), (#""""#, false), (#""0""#, true), ("null", false)] {
      XCTAssertEqual(try value("[\"to-boolean\", \(input)]"), .bool(expected), input)
    }
    XCTAssertEqual(try value(#"["number", ["get", "name"], ["get", "lanes"]]"#, road), .number(4))
    XCTAssertEqual(try value(#"["string", ["get", "name"]]"#, road), .string("Mannerheimintie"))
    XCTAssertEqual(
      try evaluationFailure(#"["boolean", ["get", "name"]]"#, road), "expected boolean but found string")
    XCTAssertEqual(
      try value(#"["array", "number", 2, ["literal", [1, 2]]]"#), .array([.number(1), .number(2)]))
    XCTAssertEqual(
      compileError(#"["array", "number", 3, ["literal", [1, 2]]]"#),
      #"style layer "test": p: expected array<number, 3> but found array<number, 2>"#)
    XCTAssertEqual(try value(#"["typeof", ["get", "lanes"]]"#, road), .string("number"))
    XCTAssertEqual(try value(#"["typeof", ["literal", [1, "a"]]]"#), .string("array<value, 2>"))
  }

  func testLiteralKeepsArraysAndObjectsAsValues() throws {
    XCTAssertEqual(try value(#"["literal", ["get", "x"]]"#), .array([.string("get"), .string("x")]))
    XCTAssertEqual(try value(#"["literal", {"k": "v"}]"#), .object(["k": .string("v")]))
    XCTAssertEqual(
      compileError(#"[1, 2]"#),
      #"style layer "test": p: an expression must start with an operator name; write ["literal", [...]] for an array value"#
    )
    XCTAssertEqual(
      compileError(#"{"a": 1}"#),
      #"style layer "test": p: an object is not an expression; write ["literal", {...}] for an object value"#)
  }

  func testStringOperators() throws {
    XCTAssertEqual(try value(#"["upcase", ["get", "name"]]"#, road), .string("MANNERHEIMINTIE"))
    XCTAssertEqual(try value(#"["downcase", "Straße"]"#), .string("straße"))
    XCTAssertEqual(try value(#"["upcase", "Straße"]"#), .string("STRASSE"))
    XCTAssertEqual(
      try evaluationFailure(#"["upcase", ["get", "lanes"]]"#, road), "expected string but found number")
    XCTAssertEqual(try value(#"["length", "Töölö"]"#), .number(5))
    XCTAssertEqual(try value(#"["length", ["literal", [1, 2, 3]]]"#), .number(3))
    XCTAssertEqual(try value(#"["at", 1, ["literal", ["a", "b"]]]"#), .string("b"))
    let list = TestFeature(["list": .array([.string("a"), .string("b")])])
    XCTAssertEqual(try value(#"["at", 0, ["get", "list"]]"#, list), .string("a"))
    XCTAssertEqual(
      try evaluationFailure(#"["at", 2, ["get", "list"]]"#, list), "array index 2 is outside 0..<2")
    XCTAssertEqual(
      try evaluationFailure(#"["at", 0.5, ["get", "list"]]"#, list), "array index 0.5 is not a whole number")
    XCTAssertEqual(
      compileError(#"["at", 2, ["literal", ["a", "b"]]]"#),
      #"style layer "test": p: array index 2 is outside 0..<2"#)
    XCTAssertEqual(
      try value(#"["format", ["get", "name"], {"font-scale": 1.2}, " ", ["get", "lanes"], {}]"#, road),
      .string("Mannerheimintie 4"))
  }

  func testIndexOfAndSliceUseJavaScriptIndicesInCharacters() throws {
    XCTAssertEqual(try value(#"["index-of", "b", "abcb"]"#), .number(1))
    XCTAssertEqual(try value(#"["index-of", "b", "abcb", 2]"#), .number(3))
    XCTAssertEqual(try value(#"["index-of", "z", "abc"]"#), .number(-1))
    XCTAssertEqual(try value(#"["index-of", "b", "a😀b"]"#), .number(2), "the emoji is one character")
    XCTAssertEqual(try value(#"["index-of", 1, ["literal", [3, 1, 1]], -1]"#), .number(2))
    XCTAssertEqual(try value(#"["index-of", null, "a null"]"#), .number(2))
    XCTAssertEqual(try value(#"["slice", "Helsinki", 3]"#), .string("sinki"))
    XCTAssertEqual(try value(#"["slice", "Helsinki", -5, -1]"#), .string("sink"))
    XCTAssertEqual(try value(#"["slice", "a😀b", 1, 2]"#), .string("😀"))
    XCTAssertEqual(try value(#"["slice", ["literal", [1, 2, 3]], 1.9]"#), .array([.number(2), .number(3)]))
    XCTAssertEqual(try value(#"["slice", "abc", 2, 1]"#), .string(""))
    XCTAssertEqual(
      try evaluationFailure(#"["slice", ["get", "lanes"], 1]"#, road), "expected array but found number")
    XCTAssertEqual(try value(#"["is-supported-script", ["get", "name"]]"#, road), .bool(true))
  }

  func testArithmetic() throws {
    XCTAssertEqual(try value(#"["+", 1, 2, 3]"#), .number(6))
    XCTAssertEqual(try value(#"["-", 10, 4]"#), .number(6))
    XCTAssertEqual(try value(#"["-", 3]"#), .number(-3))
    XCTAssertEqual(try value(#"["*", ["get", "lanes"], 2.5]"#, road), .number(10))
    XCTAssertEqual(try value(#"["/", 7, 2]"#), .number(3.5))
    XCTAssertEqual(try value(#"["%", -7, 3]"#), .number(-1), "sign of the dividend, as in JavaScript")
    XCTAssertEqual(try value(#"["^", 2, 10]"#), .number(1024))
    XCTAssertEqual(try value(#"["min", 3, 1, 2]"#), .number(1))
    XCTAssertEqual(try value(#"["max", 3, 1, 2]"#), .number(3))
    XCTAssertEqual(try value(#"["round", 2.5]"#), .number(3))
    XCTAssertEqual(try value(#"["round", -2.5]"#), .number(-3), "halves away from zero")
    XCTAssertEqual(try value(#"["floor", -1.5]"#), .number(-2))
    XCTAssertEqual(try value(#"["ceil", 1.2]"#), .number(2))
    XCTAssertEqual(try value(#"["abs", -4]"#), .number(4))
    XCTAssertEqual(try value(#"["sqrt", 16]"#), .number(4))
    XCTAssertEqual(try value(#"["log10", 1000]"#), .number(3))
    XCTAssertEqual(try value(#"["log2", 8]"#), .number(3))
    XCTAssertEqual(try value(#"["pi"]"#), .number(Double.pi))
    XCTAssertEqual(
      try evaluationFailure(#"["+", 1, ["get", "name"]]"#, road), "expected number but found string")
    XCTAssertEqual(compileError(#"["/", 1]"#), #"style layer "test": p: "/" takes 2 arguments, found 1"#)
  }

  func testLetAndVarBindValues() throws {
    XCTAssertEqual(
      try value(#"["let", "w", ["get", "lanes"], ["*", ["var", "w"], ["var", "w"]]]"#, road), .number(16))
    XCTAssertEqual(
      try value(#"["let", "a", 1, ["let", "b", 2, ["+", ["var", "a"], ["var", "b"]]]]"#), .number(3))
    XCTAssertEqual(
      compileError(#"["var", "nope"]"#),
      #"style layer "test": p: "var" names a variable no enclosing "let" binds"#)
    XCTAssertEqual(
      compileError(#"["let", "a-b", 1, 2]"#),
      #"style layer "test": p: "let" variable names must be letters, digits and '_'"#)
  }

  func testUnknownOperatorsNameTheLayer() {
    XCTAssertEqual(
      compileError(#"["within", {"type": "Polygon"}]"#),
      #"style layer "test": unknown expression operator "within""#)
    XCTAssertEqual(
      compileError(#"["all", ["==", ["get", "a"], 1], ["distance", {}]]"#),
      #"style layer "test": unknown expression operator "distance""#)
    XCTAssertEqual(
      compileError(#"["==", ["get", "a"], "b", ["collator", {}]]"#),
      #"style layer "test": unknown expression operator "collator""#)
  }

  func testConstantSubexpressionsAreFoldedAtCompileTime() throws {
    let folded = try compiled(#"["+", 1, ["*", 2, 3]]"#)
    guard case .literal(.number(7)) = folded.expression else {
      return XCTFail("not folded: \(folded.expression)")
    }
    let zoomed = try compiled(#"["+", ["zoom"], ["*", 2, 3]]"#)
    XCTAssertEqual(zoomed.dependence, .zoom)
    guard case .arithmetic(.add, let operands) = zoomed.expression, case .literal(.number(6)) = operands[1]
    else {
      return XCTFail("inner constant not folded: \(zoomed.expression)")
    }
  }
}
