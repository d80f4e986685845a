import XCTest

@testable import MapStyle

final class StylePropertyTests: XCTestCase {
  private func layer(_ json: String) throws -> StyleLayer { try readStyle(styleText(json)).layers[0] }

  func testUnsetPropertiesHaveTheSpecificationDefaults() throws {
    let text = try symbolStyle()
    let zoom = 12.0
    XCTAssertEqual(text.placement.value(atZoom: zoom), .point)
    XCTAssertEqual(text.spacing.value(atZoom: zoom), 250)
    XCTAssertNil(text.sortKey.value(atZoom: zoom))
    XCTAssertEqual(text.textField.value(atZoom: zoom), "")
    XCTAssertEqual(text.textFont.value(atZoom: zoom), ["Open Sans Regular", "Arial Unicode MS Regular"])
    XCTAssertEqual(text.textSize.value(atZoom: zoom), 16)
    XCTAssertEqual(text.textMaxWidth.value(atZoom: zoom), 10)
    XCTAssertEqual(text.textLineHeight.value(atZoom: zoom), 1.2)
    XCTAssertEqual(text.textLetterSpacing.value(atZoom: zoom), 0)
    XCTAssertEqual(text.textJustify.value(atZoom: zoom), .center)
    XCTAssertEqual(text.textAnchor.value(atZoom: zoom), .center)
    XCTAssertEqual(text.textMaxAngle.value(atZoom: zoom), 45)
    XCTAssertEqual(text.textPadding.value(atZoom: zoom), 2)
    XCTAssertEqual(text.textTransform.value(atZoom: zoom), TextTransform.none)
    XCTAssertEqual(text.textOffset.value(atZoom: zoom), [0, 0])
    XCTAssertEqual(text.textAllowOverlap.value(atZoom: zoom), false)
    XCTAssertEqual(text.textIgnorePlacement.value(atZoom: zoom), false)
    XCTAssertEqual(text.textColor.value(atZoom: zoom), .black)
    XCTAssertEqual(text.textHaloColor.value(atZoom: zoom), .transparent)
    XCTAssertEqual(text.textHaloWidth.value(atZoom: zoom), 0)
    XCTAssertEqual(text.textHaloBlur.value(atZoom: zoom), 0)
    XCTAssertEqual(text.textOpacity.value(atZoom: zoom), 1)
    XCTAssertFalse(text.textSize.isSet)
    let road = try lineStyle()
    XCTAssertEqual(road.color.value(atZoom: zoom), .black)
    XCTAssertEqual(road.width.value(atZoom: zoom), 1)
    XCTAssertEqual(road.opacity.value(atZoom: zoom), 1)
    XCTAssertEqual(road.gapWidth.value(atZoom: zoom), 0)
    XCTAssertNil(road.dashArray.value(atZoom: zoom))
    XCTAssertEqual(road.cap.value(atZoom: zoom), .butt)
    XCTAssertEqual(road.join.value(atZoom: zoom), .miter)
    XCTAssertEqual(road.miterLimit.value(atZoom: zoom), 2)
    XCTAssertEqual(road.roundLimit.value(atZoom: zoom), 1.05)
    guard case .fill(let area) = try layer(#"{"id": "a", "type": "fill", "source": "osm"}"#).kind,
      case .background(let background) = try layer(#"{"id": "b", "type": "background"}"#).kind
    else { return XCTFail("wrong kinds") }
    XCTAssertEqual(area.color.value(atZoom: zoom), .black)
    XCTAssertEqual(area.opacity.value(atZoom: zoom), 1)
    XCTAssertNil(area.outlineColor.value(atZoom: zoom), "nil: the outline takes the fill colour")
    XCTAssertEqual(area.antialias.value(atZoom: zoom), true)
    XCTAssertEqual(background.color.value(atZoom: zoom), .black)
    XCTAssertEqual(background.opacity.value(atZoom: zoom), 1)
  }

  func testSetConstantsAreTyped() throws {
    let text = try symbolStyle(
      layout: #"""
        {"text-font": ["Noto Sans Bold"], "text-offset": [0, 1.5], "text-anchor": "top-left",
         "symbol-placement": "line-center", "text-transform": "uppercase", "text-size": 13}
        """#,
      paint: #"{"text-color": "hsl(0, 0%, 20%)", "text-halo-width": 1.5}"#)
    XCTAssertEqual(text.textFont.constantValue, ["Noto Sans Bold"])
    XCTAssertEqual(text.textOffset.constantValue, [0, 1.5])
    XCTAssertEqual(text.textAnchor.constantValue, .topLeft)
    XCTAssertEqual(text.placement.constantValue, .line, "line-center is drawn as line")
    XCTAssertEqual(text.textTransform.constantValue, .uppercase)
    XCTAssertEqual(text.textSize.constantValue, 13)
    XCTAssertEqual(text.textColor.constantValue?.bytes, [51, 51, 51, 1])
    XCTAssertEqual(text.textHaloWidth.dependence, .constant)
    let road = try lineStyle(paint: #"{"line-dasharray": [2, 1.5]}"#)
    XCTAssertEqual(road.dashArray.constantValue, [2, 1.5])
    let outlined = try fillStyle(paint: #"{"fill-outline-color": "white", "fill-opacity": 0.4}"#)
    XCTAssertEqual(outlined.outlineColor.value(atZoom: 0)?.bytes, [255, 255, 255, 1])
    XCTAssertEqual(outlined.opacity.value(atZoom: 0), 0.4)
  }

  func testDependenceAndResolvingAtAZoom() throws {
    let road = try lineStyle(
      paint: #"""
        {"line-color": "#fff", "line-width": ["interpolate", ["linear"], ["zoom"], 10, 1, 20, 11],
         "line-opacity": ["match", ["get", "class"], "path", 0.5, 1]}
        """#)
    XCTAssertEqual(road.color.dependence, .constant)
    XCTAssertEqual(road.width.dependence, .zoom)
    XCTAssertEqual(road.opacity.dependence, .feature)
    let width = road.width.resolved(atZoom: 15)
    XCTAssertEqual(width.constantValue, 6)
    XCTAssertEqual(width.value(for: TestFeature()), 6)
    let opacity = road.opacity.resolved(atZoom: 15)
    XCTAssertNil(opacity.constantValue)
    XCTAssertEqual(opacity.value(for: TestFeature(["class": .string("path")])), 0.5)
    XCTAssertEqual(opacity.value(for: TestFeature(["class": .string("primary")])), 1)
  }

  func testEvaluationErrorsGiveTheDefault() throws {
    let road = try lineStyle(
      paint:
        #"{"line-width": ["get", "width"], "line-color": ["get", "colour"], "line-dasharray": ["get", "dashes"]}"#
    )
    let bad = TestFeature([
      "width": .string("wide"), "colour": .string("mud"), "dashes": .array([.string("x")]),
    ])
    XCTAssertEqual(road.width.value(atZoom: 10, for: bad), 1)
    XCTAssertEqual(road.color.value(atZoom: 10, for: bad), .black)
    XCTAssertNil(road.dashArray.value(atZoom: 10, for: bad))
    let good = TestFeature([
      "width": .number(3), "colour": .string("#ff0000"), "dashes": .array([.number(1), .number(2)]),
    ])
    XCTAssertEqual(road.width.value(atZoom: 10, for: good), 3)
    XCTAssertEqual(road.color.value(atZoom: 10, for: good).bytes, [255, 0, 0, 1])
    XCTAssertEqual(road.dashArray.value(atZoom: 10, for: good), [1, 2])
  }

  func testNumbersAreClampedToTheSpecificationRange() throws {
    let road = try lineStyle(paint: #"{"line-opacity": ["get", "o"], "line-width": ["get", "w"]}"#)
    XCTAssertEqual(road.opacity.value(atZoom: 0, for: TestFeature(["o": .number(1.7)])), 1)
    XCTAssertEqual(road.opacity.value(atZoom: 0, for: TestFeature(["o": .number(-1)])), 0)
    XCTAssertEqual(road.width.value(atZoom: 0, for: TestFeature(["w": .number(-3)])), 0)
  }

  func testEnumeratedValuesAreChecked() throws {
    XCTAssertEqual(
      styleError(styleText(#"{"id": "r", "type": "line", "layout": {"line-cap": "rund"}}"#)),
      #"style layer "r": line-cap: "rund" is not one of butt, round, square"#)
    let road = try lineStyle(layout: #"{"line-join": ["get", "join"]}"#)
    XCTAssertEqual(road.join.value(atZoom: 0, for: TestFeature(["join": .string("round")])), .round)
    XCTAssertEqual(road.join.value(atZoom: 0, for: TestFeature(["join": .string("curly")])), .miter)
  }

  func testLayoutValuesThatCannotDependOnFeaturesAreRefused() {
    XCTAssertEqual(
      styleError(styleText(#"{"id": "s", "type": "symbol", "layout": {"symbol-placement": ["get", "p"]}}"#)),
      #"style layer "s": symbol-placement: this property cannot depend on feature data"#)
    XCTAssertEqual(
      styleError(
        styleText(#"{"id": "b", "type": "background", "paint": {"background-color": ["get", "c"]}}"#)),
      #"style layer "b": background-color: this property cannot depend on feature data"#)
  }

  func testTypeClashesAndBadColoursAreErrors() {
    XCTAssertEqual(
      styleError(styleText(##"{"id": "w", "type": "fill", "paint": {"fill-color": "#ggg"}}"##)),
      ##"style layer "w": fill-color: "#ggg" is not a colour"##)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "w", "type": "fill", "paint": {"fill-opacity": "half"}}"#)),
      #"style layer "w": fill-opacity: expected number but found string"#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "t", "type": "symbol", "layout": {"text-offset": [1, 2, 3]}}"#)),
      #"style layer "t": text-offset: expected array<number, 2> but found array<number, 3>"#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "t", "type": "symbol", "layout": {"text-font": "Noto Sans"}}"#)),
      #"style layer "t": text-font: expected array<string> but found string"#)
    XCTAssertEqual(
      styleError(styleText(#"{"id": "r", "type": "line", "paint": {"line-width": ["get", "w", "x"]}}"#)),
      #"style layer "r": line-width: expected object but found string"#)
  }

  func testTextFontIsAFontListUnlessItStartsWithAnOperator() throws {
    let plain = try symbolStyle(layout: #"{"text-font": ["literal", ["Open Sans Bold"]]}"#)
    XCTAssertEqual(plain.textFont.constantValue, ["Open Sans Bold"])
    let stepped = try symbolStyle(
      layout: #"{"text-font": ["step", ["zoom"], ["literal", ["A Regular"]], 10, ["literal", ["A Bold"]]]}"#)
    XCTAssertEqual(stepped.textFont.value(atZoom: 11), ["A Bold"])
    let list = try symbolStyle(layout: #"{"text-font": ["Noto Sans Regular", "Arial Unicode MS Regular"]}"#)
    XCTAssertEqual(list.textFont.constantValue, ["Noto Sans Regular", "Arial Unicode MS Regular"])
    let perFeature = try symbolStyle(layout: #"{"text-font": ["get", "fonts"]}"#)
    XCTAssertEqual(perFeature.textFont.dependence, .feature)
    XCTAssertEqual(
      perFeature.textFont.value(atZoom: 0, for: TestFeature(["fonts": .array([.string("X Bold")])])),
      ["X Bold"])
  }
}
