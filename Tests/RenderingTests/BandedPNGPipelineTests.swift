import CCairo
import Foundation
import ImageCodecs
import MapMath
import XCTest

@testable import Rendering

/// A PNG drawn and encoded at once (`BandedPNGPipeline`): the same bytes on any number of threads, the
/// pixels of drawing the top straight onto the map up to a level of rounding where the top's own shapes
/// overlap, and a see-through image still encoded with its alpha.
final class BandedPNGPipelineTests: XCTestCase {
  private let (width, height) = (600, 420)

  /// Bands that paint stripes, then (late) a diagonal line as wide as `prepare` says; a top of a
  /// translucent disc over an opaque box, and a lone opaque box.
  private func drawing(on canvas: Canvas, ground: Color?) -> (BandedMapDrawing, (Canvas) -> Void) {
    let lineWidth = PreparedForBands<Double>()
    let map = BandedMapDrawing(
      rows: BandedDrawing.bands(pixelHeight: canvas.pixelHeight),
      band: { band, _ in
        if let ground { band.drawing.fillRect(PixelRect(x: 0, y: 0, width: 600, height: 420), color: ground) }
        for stripe in 0..<7 {
          band.drawing.fillRect(
            PixelRect(x: 0, y: Double(stripe) * 60 + 10, width: 600, height: 25),
            color: Color(red: 0.2, green: 0.5 + 0.05 * Double(stripe), blue: 0.4))
        }
      },
      prepare: { lineWidth.value = 3 },
      late: { band, _ in
        // Drawn only once prepared: a late part run too early would leave the line out.
        guard let width = lineWidth.value else { return }
        let cr = band.context
        cairo_move_to(cr, 10, 5)
        cairo_line_to(cr, 590, 415)
        cairo_set_line_width(cr, width)
        band.drawing.setColor(Color(red: 0.9, green: 0.3, blue: 0.1))
        cairo_stroke(cr)
      },
      top: { _ in })
    let top: (Canvas) -> Void = { canvas in
      let cr = canvas.context
      canvas.drawing.fillRect(PixelRect(x: 100, y: 150, width: 200, height: 120), color: .white)
      cairo_arc(cr, 250, 200, 90, 0, 2 * .pi)
      canvas.drawing.setColor(Color(red: 0, green: 0, blue: 0.8, alpha: 0.5))
      cairo_fill(cr)
      canvas.drawing.fillRect(PixelRect(x: 420, y: 330, width: 150, height: 60), color: .black)
    }
    return (map, top)
  }

  private func canvas() throws -> Canvas {
    try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
  }

  /// The map and the top drawn one after the other on one canvas, encoded whole.
  private func drawnWhole(ground: Color?) throws -> Data {
    let canvas = try canvas()
    let (map, top) = drawing(on: canvas, ground: ground)
    map.draw(on: canvas)
    top(canvas)
    return try canvas.finish(compression: .vectorDrawing)
  }

  private func pipelined(ground: Color?, workers: Int) throws -> [UInt8] {
    let canvas = try canvas()
    let (map, top) = drawing(on: canvas, ground: ground)
    return try XCTUnwrap(
      try BandedPNGPipeline.render(
        on: canvas, map: map, top: top, compression: .vectorDrawing, workers: workers))
  }

  func testAnyNumberOfThreadsGivesTheSameBytesAndTheWholeDrawingsPixels() throws {
    let ground = Color(red: 0.95, green: 0.94, blue: 0.9)
    let one = try pipelined(ground: ground, workers: 1)
    for workers in [2, 5] {
      XCTAssertEqual(try pipelined(ground: ground, workers: workers), one, "\(workers) threads")
    }
    let image = try PNGCodec.decode(Data(one))
    let whole = try PNGCodec.decode(drawnWhole(ground: ground))
    XCTAssertEqual(image.rgba.count, whole.rgba.count)
    // Opaque: the PNG has no alpha channel (colour type 2).
    XCTAssertEqual(one[25], 2)
    var differing = 0
    for pixel in 0..<width * height {
      let difference = (0..<4).map { abs(Int(image.rgba[pixel * 4 + $0]) - Int(whole.rgba[pixel * 4 + $0])) }
      guard let largest = difference.max(), largest > 0 else { continue }
      differing += 1
      XCTAssertLessThanOrEqual(largest, 3, "pixel \(pixel % width), \(pixel / width)")
      // Only where the top's disc overlaps its box.
      let (x, y) = (Double(pixel % width) + 0.5, Double(pixel / width) + 0.5)
      XCTAssertTrue(
        x >= 99 && x <= 301 && y >= 149 && y <= 271, "pixel \(pixel % width), \(pixel / width) changed")
    }
    XCTAssertLessThan(differing, width * height / 50)
    // The lone box, the disc's edge over the map and the stripes under it are exact.
    let boxCorner = (340 * width + 430) * 4
    XCTAssertEqual(Array(image.rgba[boxCorner..<boxCorner + 4]), [0, 0, 0, 255])
  }

  /// Paeth reads the row above each piece: a piece waits for the band that holds it, so the bytes are
  /// those of the image encoded whole.
  func testPaethPiecesGiveTheWholeEncodersBytes() throws {
    let ground = Color(red: 0.95, green: 0.94, blue: 0.9)
    let paeth = PNGCompression(level: 1, filter: .paeth)
    var outputs: [[UInt8]] = []
    for workers in [1, 2, 5] {
      let canvas = try canvas()
      let (map, top) = drawing(on: canvas, ground: ground)
      outputs.append(
        try XCTUnwrap(
          try BandedPNGPipeline.render(on: canvas, map: map, top: top, compression: paeth, workers: workers)))
      let pixels = try XCTUnwrap(cairo_image_surface_get_data(canvas.surface))
      let whole = try PNGCodec.encodeARGB32(
        UnsafeRawPointer(pixels), width: width, height: height, stride: canvas.stride, opaque: true,
        compressionLevel: 1, filter: .paeth)
      XCTAssertEqual(outputs.last, [UInt8](whole), "\(workers) threads")
    }
  }

  func testASeeThroughImageKeepsItsAlpha() throws {
    let png = try pipelined(ground: nil, workers: 2)
    // RGBA (colour type 6): the rows between the stripes are see-through.
    XCTAssertEqual(png[25], 6)
    let image = try PNGCodec.decode(Data(png))
    XCTAssertEqual(image.rgba[(2 * width + 300) * 4 + 3], 0)
    XCTAssertEqual(image.rgba, try PNGCodec.decode(drawnWhole(ground: nil)).rgba)
  }
}
