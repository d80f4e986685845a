import CCairo
import MapMath
import XCTest

@testable import Rendering

/// A layer's lines laid straight into an image's pixels must be Cairo's own bytes: every colour and
/// opacity, over every kind of pixel already there, and through every coverage.
final class SolidMaskLayingTests: XCTestCase {
  /// Deterministic bytes for the fixtures.
  private struct Dice {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
  }

  /// A canvas of premultiplied pixels of every kind: transparent, opaque, see-through.
  private func canvas(_ dice: inout Dice, width: Int, height: Int) throws -> Canvas {
    let canvas = try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
    cairo_surface_flush(canvas.surface)
    let pixels = try XCTUnwrap(cairo_image_surface_get_data(canvas.surface))
    for y in 0..<height {
      let line = UnsafeMutableRawPointer(pixels + y * canvas.stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width {
        let kind = dice.next() % 4
        let alpha: UInt32 = kind == 0 ? 0 : kind == 1 ? 255 : UInt32(dice.byte())
        func channel() -> UInt32 { alpha == 0 ? 0 : UInt32(dice.next() % UInt64(alpha + 1)) }
        line[x] = alpha << 24 | channel() << 16 | channel() << 8 | channel()
      }
    }
    cairo_surface_mark_dirty(canvas.surface)
    return canvas
  }

  private func pixels(of canvas: Canvas) -> [UInt32] {
    cairo_surface_flush(canvas.surface)
    guard let data = cairo_image_surface_get_data(canvas.surface) else { return [] }
    return (0..<canvas.rows.count).flatMap { y in
      let line = UnsafeRawPointer(data + y * canvas.stride).assumingMemoryBound(to: UInt32.self)
      return (0..<canvas.pixelWidth).map { line[$0] }
    }
  }

  func testLaidStraightIsWhatCairoLays() throws {
    let (width, height) = (67, 41)
    let colors = [
      Color(red: 1, green: 1, blue: 1), Color(red: 0, green: 0, blue: 0),
      Color(red: 0.97, green: 0.62, blue: 0.18), Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.5),
      Color(red: 0.55, green: 0.13, blue: 0.77, alpha: 0.03),
      Color(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.999),
      Color(red: 1.4, green: -0.2, blue: 0.5, alpha: 0.7), Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 0),
    ]
    var dice = Dice(state: 7)
    for (index, color) in colors.enumerated() {
      var canvasDice = Dice(state: UInt64(index) &+ 100)
      var twinDice = canvasDice
      let straight = try canvas(&canvasDice, width: width, height: height)
      let byCairo = try canvas(&twinDice, width: width, height: height)
      // Cairo lays it when a clip may be set; here none is, so both must match.
      byCairo.isClipped = true
      // Lines of every width and slope, and a full-width line so that every coverage comes up.
      var lines: [([PixelPoint], Double)] = [([PixelPoint(x: 0, y: 20.3), PixelPoint(x: 67, y: 20.3)], 9.7)]
      for _ in 0..<12 {
        func point() -> PixelPoint {
          PixelPoint(x: Double(dice.next() % 800) / 10 - 6, y: Double(dice.next() % 500) / 10 - 4)
        }
        lines.append(([point(), point(), point()], Double(dice.next() % 60) / 10 + 0.2))
      }
      for canvas in [straight, byCairo] {
        for (points, lineWidth) in lines { canvas.lineCoverageMask.addLine(points, width: lineWidth) }
        XCTAssertEqual(
          canvas.lineCoverageMask.paint(color, on: canvas), canvas === straight, "colour \(index)")
        let left = (0..<height).flatMap { y in (0..<width).map { canvas.lineCoverageMask.value(x: $0, y: y) }
        }
        XCTAssertEqual(left.filter { $0 != 0 }.count, 0, "mask cleared, colour \(index)")
      }
      let (mine, cairos) = (pixels(of: straight), pixels(of: byCairo))
      let differing = zip(mine, cairos).filter { $0 != $1 }
      XCTAssertEqual(
        differing.count, 0,
        "colour \(index): \(differing.prefix(5).map { String($0, radix: 16) + " " + String($1, radix: 16) })")
    }
  }

  func testAColourBecomesCairosPixel() throws {
    var dice = Dice(state: 3)
    let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1))
    defer { cairo_surface_destroy(surface) }
    let cr = try XCTUnwrap(cairo_create(surface))
    defer { cairo_destroy(cr) }
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    for _ in 0..<2000 {
      let color = Color(
        red: Double(dice.next() % 1001) / 1000, green: Double(dice.next() % 1001) / 1000,
        blue: Double(dice.next() % 1001) / 1000, alpha: Double(dice.next() % 1001) / 1000)
      cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
      cairo_paint(cr)
      cairo_surface_flush(surface)
      let painted = try XCTUnwrap(cairo_image_surface_get_data(surface)).withMemoryRebound(
        to: UInt32.self, capacity: 1
      ) { $0[0] }
      XCTAssertEqual(SolidMaskLaying.pixel(color), painted, "\(color)")
    }
  }
}
