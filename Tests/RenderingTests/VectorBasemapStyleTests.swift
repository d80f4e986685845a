import Foundation
import XCTest

@testable import Rendering

/// The built-in basemap's palette in styles: defaults, `Styles/default.json`, `Styles/dark.json`.
final class VectorBasemapStyleTests: XCTestCase {
  private let styles = RenderKit.root.appendingPathComponent("Styles")

  func testThePaletteFieldsLoadAndKeepTheirDefaultsOtherwise() throws {
    let loaded = try Style(
      json: Data(
        ##"{"basemap": {"water": "#102030", "cityDotRadius": 4, "labelHalo": [1, 1, 1, 0.5]}}"##.utf8))
    var expected = Style.standard
    expected.basemap.water = Color(red: 16.0 / 255, green: 32.0 / 255, blue: 48.0 / 255)
    expected.basemap.cityDotRadius = 4
    expected.basemap.labelHalo = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
    XCTAssertEqual(loaded, expected)
  }

  func testEveryPaletteFieldIsAStyleField() {
    let colors = [
      "water", "land", "lake", "coastline", "countryBorder", "stateBorder", "countryLabel", "cityLabel",
      "labelHalo", "cityDot",
    ]
    let numbers = [
      "coastlineWidth", "countryBorderWidth", "stateBorderWidth", "countryLabelSize", "cityLabelSize",
      "cityDotRadius", "labelHaloWidth",
    ]
    for name in colors { XCTAssertNotNil(Style.colorFields["basemap." + name], name) }
    for name in numbers { XCTAssertNotNil(Style.numberFields["basemap." + name], name) }
    // The raster fields are still there.
    for name in ["background", "placeholder", "placeholderLines"] {
      XCTAssertNotNil(Style.colorFields["basemap." + name], name)
    }
    XCTAssertNotNil(Style.optionalTextFields["basemap.tiles"])
    XCTAssertNotNil(Style.optionalTextFields["basemap.attribution"])
  }

  func testTheBadValuesOfPaletteFieldsAreReported() {
    XCTAssertThrowsError(try Style(json: Data(#"{"basemap": {"land": "beige"}}"#.utf8), path: "s.json")) {
      XCTAssertEqual(
        ($0 as? StyleError)?.description,
        ##"style s.json: field "basemap.land" must be a colour like "#52D166" or [0.32, 0.82, 0.4]"##)
    }
    XCTAssertThrowsError(try Style(json: Data(#"{"basemap": {"cityLabelSize": -2}}"#.utf8), path: "s.json")) {
      XCTAssertEqual(
        ($0 as? StyleError)?.description,
        #"style s.json: field "basemap.cityLabelSize" must be a number from 0 to 1000"#
      )
    }
  }

  func testTheDefaultPaletteIsLightAndCalmSoThePinsStandOut() {
    let palette = Style.standard.basemap
    func luminance(_ color: Color) -> Double { 0.299 * color.red + 0.587 * color.green + 0.114 * color.blue }
    XCTAssertGreaterThan(luminance(palette.land), 0.9, "warm off-white land")
    XCTAssertGreaterThan(palette.land.red, palette.land.blue, "warm")
    XCTAssertGreaterThan(palette.water.blue, palette.water.red, "blue-grey water")
    XCTAssertGreaterThan(luminance(palette.water), 0.75)
    XCTAssertLessThan(luminance(palette.water), luminance(palette.land))
    XCTAssertEqual(palette.lake, palette.water)
    // Nothing on the map is as green as the pins.
    for color in [palette.water, palette.land, palette.countryBorder, palette.cityLabel] {
      XCTAssertLessThan(color.green - max(color.red, color.blue), 0.1, "\(color)")
    }
  }

  func testTheDarkStyleLoads() throws {
    let dark = try Style.load(contentsOf: styles.appendingPathComponent("dark.json"))
    XCTAssertEqual(dark.name, "dark")
    func luminance(_ color: Color) -> Double { 0.299 * color.red + 0.587 * color.green + 0.114 * color.blue }
    XCTAssertLessThan(luminance(dark.basemap.water), 0.15, "dark navy water")
    XCTAssertGreaterThan(dark.basemap.water.blue, dark.basemap.water.red)
    XCTAssertLessThan(luminance(dark.basemap.land), 0.25, "charcoal land")
    XCTAssertGreaterThan(luminance(dark.basemap.land), luminance(dark.basemap.water))
    XCTAssertGreaterThan(luminance(dark.basemap.cityLabel), 0.7, "light labels")
    XCTAssertGreaterThan(luminance(dark.basemap.countryLabel), 0.5)
    XCTAssertLessThan(luminance(dark.basemap.labelHalo), 0.2, "a dark halo")
    // The overlays keep their look: green pins, white callouts, the blue user dot.
    XCTAssertEqual(dark.pin, Style.standard.pin)
    XCTAssertEqual(dark.callout.background, .white)
    XCTAssertEqual(dark.userDot, Style.standard.userDot)
    XCTAssertNil(dark.basemap.tiles)
  }
}
