import CCairo
import ImageCodecs
import MapMath
import XCTest

@testable import Rendering

/// Image canvases reuse the memory of earlier ones of their size, always starting transparent, and the
/// memory kept between canvases stays bounded.
final class SurfaceMemoryTests: XCTestCase {
  private func pixels(of canvas: Canvas) -> [UInt32] {
    cairo_surface_flush(canvas.surface)
    let data = cairo_image_surface_get_data(canvas.surface)!
    return (0..<canvas.pixelHeight).flatMap { row in
      Array(
        UnsafeBufferPointer(
          start: UnsafeRawPointer(data + row * canvas.stride).assumingMemoryBound(to: UInt32.self),
          count: canvas.pixelWidth))
    }
  }

  func testACanvasAfterAnotherOfItsSizeStartsTransparent() throws {
    // An odd size no other test draws, so the block seen kept is this test's.
    let (width, height) = (173, 41)
    let bytes = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))) * height
    do {
      let first = try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
      first.drawing.fillRect(
        PixelRect(x: 0, y: 0, width: Double(width), height: Double(height)),
        color: Color(red: 1, green: 0, blue: 0))
      XCTAssertTrue(pixels(of: first).allSatisfy { $0 == 0xFFFF_0000 })
    }
    XCTAssertTrue(SurfaceMemory.keptSizes.contains(bytes), "the first canvas's memory is kept")
    let second = try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
    XCTAssertFalse(SurfaceMemory.keptSizes.contains(bytes), "and lent to the second")
    XCTAssertTrue(pixels(of: second).allSatisfy { $0 == 0 }, "which starts transparent")
    second.drawing.fillRect(
      PixelRect(x: 0, y: 0, width: 2, height: 2), color: Color(red: 0, green: 0, blue: 1))
    let png = try second.finish()
    XCTAssertEqual(try PNGCodec.decode(png).rgba.prefix(4), [0, 0, 255, 255])
  }

  func testTheKeptMemoryStaysBounded() throws {
    for side in stride(from: 100, through: 2_600, by: 500) {
      _ = try Canvas(format: .png, pixelWidth: side, pixelHeight: side, scale: 1)
    }
    // Larger than all that may be kept: freed, not kept.
    _ = try Canvas(format: .png, pixelWidth: 4_200, pixelHeight: 4_200, scale: 1)
    let kept = SurfaceMemory.keptSizes
    XCTAssertLessThanOrEqual(kept.count, SurfaceMemory.keptBlocks)
    XCTAssertLessThanOrEqual(kept.reduce(0, +), SurfaceMemory.keptBytes)
    XCTAssertFalse(kept.contains(4_200 * 4 * 4_200))
    XCTAssertTrue(kept.contains(2_100 * 4 * 2_100), "the latest that fit are kept")
  }

  /// A band's coverage mask borrows kept memory too, and starts clear even after a mask that was
  /// drawn into and never laid on its canvas.
  func testACoverageMaskReusesKeptMemoryAndStartsClear() throws {
    let (width, height) = (211, 37)
    let bytes = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width))) * height
    let canvas = try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
    do {
      let first = LineCoverageMask(over: canvas)
      first.addLine([PixelPoint(x: 0, y: 0), PixelPoint(x: 200, y: 30)], width: 3)
      XCTAssertEqual(first.value(x: 100, y: 15), 255)
    }
    XCTAssertTrue(SurfaceMemory.keptSizes.contains(bytes), "the first mask's memory is kept")
    let second = LineCoverageMask(over: canvas)
    XCTAssertFalse(SurfaceMemory.keptSizes.contains(bytes), "and lent to the second")
    let values = (0..<height).flatMap { y in (0..<width).map { second.value(x: $0, y: y) } }
    XCTAssertEqual(values.filter { $0 != 0 }.count, 0, "which starts clear")
  }

  func testSizesCairoRefusesAreStillItsErrors() {
    XCTAssertThrowsError(try Canvas(format: .png, pixelWidth: 40_000, pixelHeight: 10, scale: 1))
  }
}
