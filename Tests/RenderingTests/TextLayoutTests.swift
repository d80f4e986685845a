import CCairo
import Foundation
import ImageCodecs
import MapMath
import XCTest

@testable import Rendering

/// Text set by Pango: a layout let go once measured draws as one kept.
final class TextLayoutTests: XCTestCase {
  private func drawn(keepsLayout: Bool, format: OutputFormat) throws -> Data {
    let measuring = MeasuringContext()
    let font = FontSpec(family: "DejaVu Sans", size: 14, bold: true)
    let layouts = ["Senaatintori", "Ακρόπολη Αθηνών", "A title far too long to fit in the bubble's width"]
      .map {
        TextLayout(
          text: $0, font: font, maxWidth: 150, context: measuring.context, keepsLayout: keepsLayout)
      }
    let canvas = try Canvas(format: format, pixelWidth: 200, pixelHeight: 90, scale: 2)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: 200, height: 90), color: .white)
    for (index, layout) in layouts.enumerated() {
      let origin = PixelPoint(x: 5, y: 5 + Double(index) * 28)
      cairo_set_source_rgb(canvas.context, 1, 1, 1)
      layout.addPath(at: origin, in: canvas.context)
      cairo_stroke(canvas.context)
      cairo_set_source_rgb(canvas.context, 0, 0, 0)
      layout.draw(at: origin, in: canvas.context)
    }
    return try canvas.finish()
  }

  func testALayoutLetGoIsNotHeldUntilDrawn() throws {
    let measuring = MeasuringContext()
    let font = FontSpec(family: "DejaVu Sans", size: 14, bold: false)
    let kept = TextLayout(text: "Esplanadi", font: font, maxWidth: 150, context: measuring.context)
    let letGo = TextLayout(
      text: "Esplanadi", font: font, maxWidth: 150, context: measuring.context, keepsLayout: false)
    XCTAssertTrue(kept.holdsLayout)
    XCTAssertFalse(letGo.holdsLayout)
    XCTAssertEqual(letGo.size, kept.size)
    let canvas = try Canvas(format: .png, pixelWidth: 100, pixelHeight: 30, scale: 1)
    letGo.draw(at: PixelPoint(x: 2, y: 2), in: canvas.context)
    XCTAssertTrue(letGo.holdsLayout)
  }

  func testALayoutLetGoDrawsAsOneKept() throws {
    for format in [OutputFormat.png, .svg] {
      let kept = try drawn(keepsLayout: true, format: format)
      XCTAssertEqual(try drawn(keepsLayout: false, format: format), kept, "\(format)")
    }
    // Text was drawn: dark pixels where the first line is.
    let image = try PNGCodec.decode(try drawn(keepsLayout: false, format: .png))
    let dark = (0..<image.width * 40).filter { image.rgba[$0 * 4] < 100 }.count
    XCTAssertGreaterThan(dark, 200)
  }
}
