import TestSupport
import XCTest

@testable import Rendering

final class ColorTests: XCTestCase {
  func testHexParsing() throws {
    let color = try XCTUnwrap(Color(hex: "#52D166"))
    XCTAssertEqual(color, Color(red: 82.0 / 255, green: 209.0 / 255, blue: 102.0 / 255, alpha: 1))
    XCTAssertEqual(Color(hex: "#52d166"), color, "lower case")
    XCTAssertEqual(Color(hex: "#52D166FF"), color, "explicit opaque alpha")
    XCTAssertEqual(Color(hex: "#00000080"), Color(red: 0, green: 0, blue: 0, alpha: 128.0 / 255))
    XCTAssertEqual(Color(hex: "#FFFFFF"), .white)
    XCTAssertEqual(Color(hex: "#000000"), .black)
  }

  func testHexParsingRefusesEverythingElse() {
    for text in [
      "", "#", "52D166", "#52D16", "#52D1666", "#52D166F", "#52D166FF0", "#GG0000", "# 52D16", "#52 D16",
      "#+1+2+3", "#-0-0-0", "#+F+F+F+F", "##52D16", "0x52D166", "#５２Ｄ１６６",
    ] {
      XCTAssertNil(Color(hex: text), "\(text.debugDescription) is not a colour")
    }
  }

  func testHexPrintingRoundTrip() {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let bytes = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let hex = "#" + bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
      let color = Color(hex: hex)
      XCTAssertNotNil(color, hex)
      // Printing gives upper case and leaves out an opaque alpha; reading that gives the same colour.
      let printed = color?.description ?? ""
      let expected = bytes[3] == 255 ? String(hex.uppercased().prefix(7)) : hex.uppercased()
      XCTAssertEqual(printed, expected)
      XCTAssertEqual(Color(hex: printed), color, hex)
    }
  }

  func testPrintingRoundsAndClamps() {
    XCTAssertEqual(Color(red: 0.32, green: 0.82, blue: 0.40).description, "#52D166")
    XCTAssertEqual(Color(red: 1, green: 1, blue: 1, alpha: 0.78).description, "#FFFFFFC7")
    XCTAssertEqual(Color(red: -0.5, green: 1.5, blue: 0.5).description, "#00FF80")
    XCTAssertEqual(Color(red: 0, green: 0, blue: 0, alpha: 0).description, "#00000000")
  }

  func testLightened() {
    let color = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)
    XCTAssertEqual(color.lightened(0), color)
    XCTAssertEqual(color.lightened(1), Color(red: 1, green: 1, blue: 1, alpha: 0.5))
    XCTAssertEqual(color.lightened(-1), Color(red: 0, green: 0, blue: 0, alpha: 0.5))
    assertEqual(color.lightened(0.5), Color(red: 0.6, green: 0.7, blue: 0.8, alpha: 0.5))
    assertEqual(color.lightened(-0.5), Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5))
    // The pin's gloss: lighter, but still green-dominant.
    let light = Style.standard.pin.color.lightened(0.45)
    XCTAssertGreaterThan(light.green, light.red)
    XCTAssertGreaterThan(light.green, light.blue)
    XCTAssertGreaterThan(light.red, Style.standard.pin.color.red)
  }

  func testWithAlpha() {
    XCTAssertEqual(Color.white.withAlpha(0.25), Color(red: 1, green: 1, blue: 1, alpha: 0.25))
  }

  private func assertEqual(_ a: Color, _ b: Color, file: StaticString = #filePath, line: UInt = #line) {
    for (x, y) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue), (a.alpha, b.alpha)] {
      XCTAssertEqual(x, y, accuracy: 1e-12, "\(a) vs \(b)", file: file, line: line)
    }
  }
}
