import MapMath
import XCTest

@testable import Rendering

/// Emoji in titles are drawn in colour (Debian's fonts-noto-color-emoji, which setup installs), and a
/// character that no font draws names the package that would.
final class EmojiTests: XCTestCase {
  func testEmojiAndFlagsAreDrawnInColour() throws {
    let place = RenderKit.place("party", 48.85, 2.35, title: "🎉🎉🇦🇪🇦🇪", subtitle: nil)
    let result = try Snapshotter.render(RenderKit.request([place], width: 300, height: 200))
    XCTAssertEqual(result.warnings, [], "every character has a font")
    let image = try RenderKit.decode(result)
    let callout = try XCTUnwrap(result.layout.annotations.first?.callout)
    // The callout is white with black text; colour emoji bring saturated pixels: the flag's red and green,
    // the party popper's yellow.
    var red = 0
    var green = 0
    for y in Int(callout.minY)..<Int(callout.maxY) {
      for x in Int(callout.minX)..<Int(callout.maxX) {
        let p = image.pixel(x: x, y: y)
        if p.red > 180 && p.green < 90 && p.blue < 90 { red += 1 }
        if p.green > 100 && p.red < 60 && p.blue < 90 { green += 1 }
      }
    }
    XCTAssertGreaterThan(red, 20, "red pixels of the flag and the popper")
    XCTAssertGreaterThan(green, 20, "green pixels of the flag")
  }

  func testTheMissingFontIsNamedByTheScriptOfTheText() {
    XCTAssertEqual(FontPackage.candidates(for: "Party 🎉"), [.emoji])
    XCTAssertEqual(FontPackage.candidates(for: "Dubai 🇦🇪"), [.emoji])
    XCTAssertEqual(FontPackage.candidates(for: "東京タワー"), [.cjk])
    XCTAssertEqual(FontPackage.candidates(for: "서울 🎉"), [.cjk, .emoji])
    XCTAssertEqual(
      FontPackage.candidates(for: "Ελλάδα 1 # *"), [], "digits and # are emoji only with a selector")
  }
}
