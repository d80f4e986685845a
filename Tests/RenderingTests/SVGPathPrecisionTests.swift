import Foundation
import XCTest

@testable import Rendering

final class SVGPathPrecisionTests: XCTestCase {
  private func rounded(_ text: String) -> String {
    String(decoding: SVGPathPrecision.round(Array(text.utf8)), as: UTF8.self)
  }

  func testPathNumbersKeepThreeDecimalsRoundedHalfAwayFromZero() {
    XCTAssertEqual(
      rounded(#"<path d="M 3.207031 -3.515625 L 0.0859375 2.5625 C 1.0005 -1.0005 4.5 7 Z"/>"#),
      #"<path d="M 3.207 -3.516 L 0.086 2.563 C 1.001 -1.001 4.5 7 Z"/>"#)
  }

  func testACarryRunsThroughTheIntegerDigits() {
    XCTAssertEqual(rounded(#"<path d="M 9.9996 -99.99951 L 0.9999 1"/>"#), #"<path d="M 10 -100 L 1 1"/>"#)
  }

  func testTrailingZerosAndTheSignOfZeroGo() {
    XCTAssertEqual(
      rounded(#"<path d="M 2.5001 -0.0004 L -0.00050 1.2300001"/>"#), #"<path d="M 2.5 0 L -0.001 1.23"/>"#)
  }

  func testOnlyPathDataChanges() {
    let text = """
      <svg width="1200.123456px"><image x="0.1234567" y="1e-7"/><path style="stroke-width:1.234567;" \
      d="M 1.234567 2"/><use x="5.555555"/></svg>
      """
    let expected = """
      <svg width="1200.123456px"><image x="0.1234567" y="1e-7"/><path style="stroke-width:1.234567;" \
      d="M 1.235 2"/><use x="5.555555"/></svg>
      """
    XCTAssertEqual(rounded(text), expected)
  }

  func testWhatIsNotAPlainDecimalStaysAsWritten() {
    XCTAssertEqual(
      rounded(#"<path d="M 1.2345678e-5 - 3 L 7. 8"/>"#), #"<path d="M 1.2345678e-5 - 3 L 7. 8"/>"#)
  }

  func testAnUnclosedAttributeAtTheEndIsCopied() {
    XCTAssertEqual(rounded(#"<path d="M 1.23456"#), #"<path d="M 1.235"#)
    XCTAssertEqual(rounded(#"<path d=""#), #"<path d=""#)
  }

  func testARenderedMapsPathsHaveAtMostThreeDecimals() throws {
    var request = RenderKit.request(
      [RenderKit.place("louvre", 48.8606, 2.3376, title: "Louvre", subtitle: "Museum")], width: 240,
      height: 160, format: .svg)
    request.tiles = try RenderKit.fixtureTiles()
    let text = String(decoding: try Snapshotter.render(request).data, as: UTF8.self)
    let paths = text.matches(of: /\sd="([^"]*)"/).map { String($0.output.1) }
    XCTAssertGreaterThan(paths.count, 10, "the pin, the callout and its glyphs are paths")
    let long = paths.flatMap { $0.matches(of: /[0-9]+\.[0-9]{4,}/).map { String($0.output) } }
    XCTAssertEqual(long, [])
    XCTAssertTrue(paths.contains { $0.contains(/[0-9]\.[0-9]{3}/) }, "numbers keep three decimals")
  }
}
