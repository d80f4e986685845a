import JSON
import XCTest

@testable import MapStyle

final class FilterTests: XCTestCase {
  private func filter(_ text: String) throws -> StyleFilter {
    StyleFilter(
      try ExpressionCompiler(layer: "roads", property: "filter").compileFilter(try JSONParser.parse(text)))
  }

  private func passes(_ text: String, _ feature: TestFeature, zoom: Double = 14) throws -> Bool {
    try filter(text).matches(feature, atZoom: zoom)
  }

  private func syntax(_ text: String) throws -> FilterSyntax { FilterSyntax(of: try JSONParser.parse(text)) }

  private let primary = TestFeature(
    .lineString, id: .number(7),
    ["class": .string("primary"), "admin_level": .number(2), "name": .string("Aleksi")])

  func testLegacyAndExpressionSyntaxAreToldApartAsMapLibreDoes() throws {
    XCTAssertEqual(try syntax(#"["==", "class", "primary"]"#), .legacy)
    XCTAssertEqual(try syntax(#"["==", ["get", "class"], "primary"]"#), .expression)
    XCTAssertEqual(try syntax(#"["in", "class", "a", "b"]"#), .legacy)
    XCTAssertEqual(try syntax(#"["in", ["get", "class"], ["literal", ["a"]]]"#), .expression)
    XCTAssertEqual(try syntax(#"["in", "class", ["literal", ["a"]]]"#), .expression)
    XCTAssertEqual(try syntax(#"["has", "name"]"#), .either)
    XCTAssertEqual(try syntax(#"["has", "$type"]"#), .legacy)
    XCTAssertEqual(try syntax(#"["!has", "name"]"#), .legacy)
    XCTAssertEqual(try syntax(#"["all", ["has", "name"], ["==", "class", "x"]]"#), .legacy)
    // One legacy child makes a tree legacy (MapLibre GL JS 5 and Native); other children keep their own syntax.
    XCTAssertEqual(try syntax(#"["all", ["==", "class", "x"], ["==", ["get", "a"], 1]]"#), .legacy)
    XCTAssertEqual(try syntax(#"["all", ["==", ["get", "a"], 1], true]"#), .expression)
    XCTAssertEqual(try syntax(#"["all", ["has", "name"], true]"#), .either)
    XCTAssertEqual(try syntax("true"), .either)
    XCTAssertEqual(try syntax(#"["geometry-type"]"#), .expression)
  }

  func testLegacyComparisonsOnKeys() throws {
    XCTAssertTrue(try passes(#"["==", "class", "primary"]"#, primary))
    XCTAssertFalse(try passes(#"["==", "class", "secondary"]"#, primary))
    XCTAssertTrue(try passes(#"["!=", "class", "secondary"]"#, primary))
    XCTAssertTrue(try passes(#"["!=", "missing", "x"]"#, primary), "a missing property is not equal")
    XCTAssertFalse(try passes(#"["==", "admin_level", "2"]"#, primary), "strict types")
    XCTAssertTrue(try passes(#"["==", "admin_level", 2]"#, primary))
    XCTAssertTrue(try passes(#"["<=", "admin_level", 4]"#, primary))
    XCTAssertFalse(try passes(#"[">", "admin_level", 4]"#, primary))
    XCTAssertFalse(try passes(#"["<", "admin_level", "4"]"#, primary), "mismatched types never match")
    XCTAssertFalse(try passes(#"["<", "missing", 4]"#, primary))
    XCTAssertTrue(try passes(#"[">=", "name", "A"]"#, primary))
    XCTAssertFalse(try passes(#"["==", "missing", null]"#, primary), "missing is not null")
    XCTAssertTrue(try passes(#"["==", "n", null]"#, TestFeature(["n": .null])))
  }

  func testLegacyTypeAndIDKeys() throws {
    XCTAssertTrue(try passes(#"["==", "$type", "LineString"]"#, primary))
    XCTAssertFalse(try passes(#"["==", "$type", "Polygon"]"#, primary))
    XCTAssertTrue(try passes(#"["in", "$type", "Point", "LineString"]"#, primary))
    XCTAssertTrue(try passes(#"["==", "$id", 7]"#, primary))
    XCTAssertTrue(try passes(#"["has", "$id"]"#, primary))
    XCTAssertFalse(try passes(#"["has", "$id"]"#, TestFeature()))
    XCTAssertTrue(try passes(#"["has", "$type"]"#, TestFeature()))
  }

  func testLegacyMembershipAndPresence() throws {
    XCTAssertTrue(try passes(#"["in", "class", "primary", "secondary"]"#, primary))
    XCTAssertFalse(try passes(#"["!in", "class", "primary", "secondary"]"#, primary))
    XCTAssertTrue(try passes(#"["!in", "class", "path"]"#, primary))
    XCTAssertTrue(try passes(#"["in", "admin_level", 2, 4]"#, primary), "legacy in on numbers")
    XCTAssertFalse(try passes(#"["in", "admin_level", "2", "4"]"#, primary))
    XCTAssertTrue(try passes(#"["in", "admin_level", 2.0]"#, primary), "2 and 2.0 are the same number")
    XCTAssertFalse(try passes(#"["in", "missing", "a"]"#, primary))
    XCTAssertTrue(try passes(#"["!in", "missing", "a"]"#, primary))
    XCTAssertFalse(try passes(#"["in", "class"]"#, primary), "no values: nothing matches")
    // Long lists are hashed rather than scanned: same answers.
    let many = (1...12).map { "\"c\($0)\"" }.joined(separator: ", ")
    XCTAssertTrue(try passes(#"["in", "class", \#(many), 2]"#, TestFeature(["class": .string("c11")])))
    XCTAssertTrue(try passes(#"["in", "class", \#(many), 2]"#, TestFeature(["class": .number(2)])))
    XCTAssertFalse(try passes(#"["in", "class", \#(many), 2]"#, TestFeature(["class": .string("2")])))
    XCTAssertFalse(try passes(#"["in", "class", \#(many)]"#, TestFeature(["class": .string("c13")])))
    XCTAssertTrue(try passes(#"["has", "name"]"#, primary))
    XCTAssertFalse(try passes(#"["!has", "name"]"#, primary))
    XCTAssertTrue(try passes(#"["!has", "ref"]"#, primary))
  }

  func testLegacyCombinators() throws {
    XCTAssertTrue(try passes(#"["all", ["==", "class", "primary"], ["has", "name"]]"#, primary))
    XCTAssertFalse(try passes(#"["all", ["==", "class", "primary"], ["has", "ref"]]"#, primary))
    XCTAssertTrue(try passes(#"["any", ["==", "class", "x"], ["has", "name"]]"#, primary))
    XCTAssertFalse(try passes(#"["none", ["==", "class", "x"], ["has", "name"]]"#, primary))
    XCTAssertTrue(try passes(#"["none", ["==", "class", "x"], ["has", "ref"]]"#, primary))
    XCTAssertTrue(try passes(#"["all"]"#, primary))
    XCTAssertFalse(try passes(#"["any"]"#, primary))
    XCTAssertTrue(try passes(#"["none"]"#, primary))
    // A mismatched type inside legacy `any` fails only its own test, not the whole filter.
    XCTAssertTrue(try passes(#"["any", [">", "name", 1], ["==", "class", "primary"]]"#, primary))
  }

  func testMixedTreesReadEachChildInItsOwnSyntax() throws {
    let mixed = #"["all", ["!in", "class", "path"], ["==", ["get", "admin_level"], 2], ["has", "name"]]"#
    XCTAssertTrue(try passes(mixed, primary))
    XCTAssertFalse(
      try passes(mixed, TestFeature(["class": .string("path"), "admin_level": .number(2), "name": .null])))
  }

  func testLegacyEdgeCasesFollowMapLibre() throws {
    // A feature without an id has a null `$id`.
    XCTAssertTrue(try passes(#"["in", "$id", 3, null]"#, TestFeature()))
    XCTAssertFalse(try passes(#"["!=", "$id", null]"#, TestFeature()))
    XCTAssertTrue(try passes(#"["!=", "$id", null]"#, primary))
    // Legacy orderings compare any two values of one JavaScript type, nulls and booleans included.
    XCTAssertTrue(try passes(#"[">=", "n", null]"#, TestFeature(["n": .null])))
    XCTAssertFalse(try passes(#"[">", "n", null]"#, TestFeature(["n": .null])))
    XCTAssertTrue(try passes(#"[">", "flag", false]"#, TestFeature(["flag": .bool(true)])))
    XCTAssertFalse(try passes(#"["<", "flag", 1]"#, TestFeature(["flag": .bool(false)])))
  }

  func testExpressionFilters() throws {
    XCTAssertTrue(try passes(#"["==", ["geometry-type"], "LineString"]"#, primary))
    XCTAssertTrue(
      try passes(#"["all", ["==", ["get", "class"], "primary"], ["<=", ["get", "admin_level"], 2]]"#, primary)
    )
    XCTAssertTrue(try passes(#"["match", ["get", "class"], ["primary", "trunk"], true, false]"#, primary))
    XCTAssertTrue(try passes(#"[">=", ["zoom"], 14]"#, primary, zoom: 14))
    XCTAssertFalse(try passes(#"[">=", ["zoom"], 14]"#, primary, zoom: 13.9))
    XCTAssertTrue(try passes("true", primary))
    XCTAssertFalse(try passes("false", primary))
    XCTAssertTrue(try passes("null", primary))
    XCTAssertEqual(try filter(#"[">=", ["zoom"], 14]"#).dependence, .zoom)
  }

  func testAFilterThatFailsOnAFeatureDoesNotPassIt() throws {
    XCTAssertFalse(try passes(#"["<", ["get", "name"], 5]"#, primary))
    XCTAssertFalse(try passes(#"["get", "class"]"#, primary), "a non-boolean result")
    XCTAssertFalse(
      try passes(#"["any", ["<", ["get", "name"], 5], ["has", "name"]]"#, primary),
      "the error ends the whole filter")
  }

  func testBadFiltersAreErrorsNamingTheLayer() {
    func error(_ text: String) -> String {
      do {
        _ = try filter(text)
        return "compiled"
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(
      error(#"["within", {"type": "Polygon", "coordinates": []}]"#),
      #"style layer "roads": unknown expression operator "within""#)
    XCTAssertEqual(
      error(#"["any", ["has", "a"], ["within", {}]]"#),
      #"style layer "roads": unknown expression operator "within""#)
    XCTAssertEqual(
      error(#"[">", "$type", "Point"]"#),
      #"style layer "roads": filter: legacy filter on "$type" takes ==, !=, in or !in with geometry type names"#
    )
    XCTAssertEqual(
      error(#"["in", "$type", "Point", 2]"#),
      #"style layer "roads": filter: legacy filter on "$type" takes ==, !=, in or !in with geometry type names"#
    )

    XCTAssertEqual(
      error(#""class""#),
      #"style layer "roads": filter: a filter must be an array or a boolean, found the string "class""#)
    XCTAssertEqual(error(#"["has", 3]"#), #"style layer "roads": filter: expected string but found number"#)
    XCTAssertEqual(
      error(#"["!has", "a", "b"]"#), #"style layer "roads": filter: legacy filter "!has" takes one key"#)
    XCTAssertEqual(
      error(#"["==", 1, 2]"#), #"style layer "roads": filter: legacy filter "==" needs a property name first"#
    )
    XCTAssertEqual(error(#"["in", 1, 2]"#), #"style layer "roads": filter: expected array but found number"#)
    XCTAssertEqual(
      error(#"["==", "class"]"#), #"style layer "roads": filter: "==" takes 2 arguments, found 1"#)
  }
}
