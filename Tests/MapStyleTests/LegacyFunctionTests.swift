import XCTest

@testable import MapStyle

/// Legacy `{"stops": …}` functions, read through layers as a style author writes them.
final class LegacyFunctionTests: XCTestCase {
  func testZoomStopsInterpolateLinearlyByDefault() throws {
    let width = try lineStyle(paint: #"{"line-width": {"stops": [[10, 1], [14, 5]]}}"#).width
    XCTAssertEqual(width.dependence, .zoom)
    XCTAssertEqual(width.value(atZoom: 9), 1)
    XCTAssertEqual(width.value(atZoom: 12), 3)
    XCTAssertEqual(width.value(atZoom: 15), 5)
  }

  func testZoomStopsWithABaseInterpolateExponentially() throws {
    let width = try lineStyle(paint: #"{"line-width": {"base": 1.4, "stops": [[10, 1], [20, 10]]}}"#).width
    let fraction: Double = (pow(1.4, 5) - 1) / (pow(1.4, 10) - 1)
    XCTAssertEqual(width.value(atZoom: 15), 1 + 9 * fraction, accuracy: 1e-12)
  }

  func testColourStopsInterpolateColours() throws {
    let color = try fillStyle(paint: ##"{"fill-color": {"stops": [[5, "#000"], [15, "#fff"]]}}"##).color
    XCTAssertEqual(color.value(atZoom: 10).bytes, [128, 128, 128, 1])
    XCTAssertEqual(color.value(atZoom: 20).bytes, [255, 255, 255, 1])
  }

  func testStopsOfPropertiesThatDoNotInterpolateStepInstead() throws {
    let cap = try lineStyle(layout: #"{"line-cap": {"stops": [[10, "butt"], [14, "round"]]}}"#).cap
    XCTAssertEqual(cap.value(atZoom: 13.9), .butt)
    XCTAssertEqual(cap.value(atZoom: 14), .round)
    let width = try lineStyle(paint: #"{"line-width": {"type": "interval", "stops": [[10, 1], [14, 5]]}}"#)
      .width
    XCTAssertEqual(width.value(atZoom: 13), 1)
    XCTAssertEqual(width.value(atZoom: 14), 5)
  }

  func testPropertyFunctionsReadTheFeature() throws {
    let width = try lineStyle(paint: #"{"line-width": {"property": "rank", "stops": [[1, 10], [5, 2]]}}"#)
      .width
    XCTAssertEqual(width.dependence, .feature)
    XCTAssertEqual(width.value(atZoom: 10, for: TestFeature(["rank": .number(3)])), 6)
    XCTAssertEqual(width.value(atZoom: 10, for: TestFeature(["rank": .number(9)])), 2)
    XCTAssertEqual(
      width.value(atZoom: 10, for: TestFeature(["rank": .string("3")])), 1, "not a number: default")
    XCTAssertEqual(width.value(atZoom: 10, for: TestFeature()), 1, "missing: the property's default")
  }

  func testCategoricalFunctionsMatchExactlyAndFallBackToTheirDefault() throws {
    let color = try fillStyle(
      paint: #"""
        {"fill-color": {"property": "class", "type": "categorical", "default": "#0000ff",
         "stops": [["park", "#00ff00"], ["water", "#00ffff"], [1, "#ff0000"]]}}
        """#
    ).color
    XCTAssertEqual(
      color.value(atZoom: 0, for: TestFeature(["class": .string("park")])).bytes, [0, 255, 0, 1])
    XCTAssertEqual(color.value(atZoom: 0, for: TestFeature(["class": .number(1)])).bytes, [255, 0, 0, 1])
    XCTAssertEqual(color.value(atZoom: 0, for: TestFeature(["class": .string("1")])).bytes, [0, 0, 255, 1])
    XCTAssertEqual(color.value(atZoom: 0, for: TestFeature()).bytes, [0, 0, 255, 1])
    let noDefault = try fillStyle(
      paint: #"{"fill-color": {"property": "c", "type": "categorical", "stops": [["a", "red"]]}}"#)
    XCTAssertEqual(
      noDefault.color.value(atZoom: 0, for: TestFeature(["c": .string("b")])), .black, "the spec default")
  }

  func testIdentityFunctionsUseTheFeatureValue() throws {
    let color = try fillStyle(paint: #"{"fill-color": {"property": "colour", "type": "identity"}}"#).color
    XCTAssertEqual(
      color.value(atZoom: 0, for: TestFeature(["colour": .string("#123456")])).bytes, [18, 52, 86, 1])
    XCTAssertEqual(color.value(atZoom: 0, for: TestFeature(["colour": .string("mud")])), .black)
    let width = try lineStyle(paint: #"{"line-width": {"property": "w", "type": "identity", "default": 3}}"#)
      .width
    XCTAssertEqual(width.value(atZoom: 0, for: TestFeature(["w": .number(7)])), 7)
    XCTAssertEqual(width.value(atZoom: 0, for: TestFeature(["w": .string("7")])), 3)
  }

  func testZoomAndPropertyFunctionsBlendAcrossZooms() throws {
    let width = try lineStyle(
      paint: #"""
        {"line-width": {"property": "rank", "stops": [
          [{"zoom": 10, "value": 1}, 2], [{"zoom": 10, "value": 5}, 4],
          [{"zoom": 20, "value": 1}, 10], [{"zoom": 20, "value": 5}, 20]]}}
        """#
    ).width
    XCTAssertEqual(width.dependence, .feature)
    XCTAssertEqual(width.value(atZoom: 15, for: TestFeature(["rank": .number(1)])), 6)
    XCTAssertEqual(width.value(atZoom: 15, for: TestFeature(["rank": .number(5)])), 12)
    XCTAssertEqual(width.value(atZoom: 15, for: TestFeature(["rank": .number(3)])), 9)
    XCTAssertEqual(width.value(atZoom: 25, for: TestFeature(["rank": .number(3)])), 15)
  }

  func testMalformedFunctionsAreErrorsNamingLayerAndProperty() {
    XCTAssertEqual(
      styleError(styleText(#"{"id": "r", "type": "line", "paint": {"line-width": {"stops": []}}}"#)),
      #"style layer "r": line-width: a function needs a non-empty "stops" array"#)
    XCTAssertEqual(
      styleError(
        styleText(#"{"id": "r", "type": "line", "paint": {"line-width": {"stops": [[14, 1], [10, 2]]}}}"#)),
      #"style layer "r": line-width: function stops must be in ascending order"#)
    XCTAssertEqual(
      styleError(
        styleText(#"{"id": "r", "type": "line", "paint": {"line-width": {"base": -1, "stops": [[1, 1]]}}}"#)),
      #"style layer "r": line-width: a function's "base" must be a number of at least 0"#)
    XCTAssertEqual(
      styleError(
        styleText(
          #"{"id": "r", "type": "line", "paint": {"line-width": {"type": "cubic", "stops": [[1, 1]]}}}"#)),
      #"style layer "r": line-width: unknown function type the string "cubic""#)
    XCTAssertEqual(
      styleError(
        styleText(##"{"id": "r", "type": "line", "paint": {"line-color": {"stops": [[1, "#12"]]}}}"##)),
      ##"style layer "r": line-color: "#12" is not a colour"##)
    XCTAssertEqual(
      styleError(
        styleText(
          #"{"id": "s", "type": "symbol", "layout": {"symbol-spacing": {"property": "x", "stops": [[1, 1]]}}}"#
        )),
      #"style layer "s": symbol-spacing: this property cannot depend on feature properties"#)
  }
}
