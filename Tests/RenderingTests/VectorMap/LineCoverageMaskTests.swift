import CCairo
import Foundation
import ImageCodecs
import MapMath
import MapStyle
import TestSupport
import XCTest

@testable import Rendering

/// Lines drawn through a coverage mask (hairlines, and round-capped lines of any width): each pixel covered as far as a band of the line's width
/// across its centre covers it, a line the union (not the sum) of its segments, laid on the right rows of
/// a band, as much ink as Cairo's exact stroke puts down.
final class LineCoverageMaskTests: XCTestCase {
  private func canvas(width: Int = 40, height: Int = 40) throws -> Canvas {
    try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
  }

  private func column(_ mask: LineCoverageMask, x: Int, rows: ClosedRange<Int>) -> [UInt8] {
    rows.map { mask.value(x: x, y: $0) }
  }

  func testAHorizontalLineCoversItsRowsByTheShareOfThemItCrosses() throws {
    let mask = LineCoverageMask(over: try canvas())
    // One pixel wide, centred on row 10: that row whole, its neighbours untouched.
    mask.addLine([PixelPoint(x: 5, y: 10.5), PixelPoint(x: 30, y: 10.5)], width: 1)
    XCTAssertEqual(column(mask, x: 15, rows: 8...12), [0, 0, 255, 0, 0])
    // On the edge between rows 19 and 20: half of each.
    mask.addLine([PixelPoint(x: 5, y: 20), PixelPoint(x: 30, y: 20)], width: 1)
    XCTAssertEqual(column(mask, x: 15, rows: 18...21), [0, 128, 128, 0])
    // Half a pixel wide: half of its row.
    mask.addLine([PixelPoint(x: 5, y: 30.5), PixelPoint(x: 30, y: 30.5)], width: 0.5)
    XCTAssertEqual(column(mask, x: 15, rows: 29...31), [0, 128, 0])
    // Round caps: the line reaches half its width past its ends, no further.
    XCTAssertEqual(mask.value(x: 4, y: 10), 128)
    XCTAssertEqual(mask.value(x: 3, y: 10), 0)
  }

  func testOverlappingSegmentsAreOneLineNotTwo() throws {
    let once = LineCoverageMask(over: try canvas())
    let twice = LineCoverageMask(over: try canvas())
    let zigzag = [PixelPoint(x: 3, y: 3), PixelPoint(x: 20.5, y: 29.5), PixelPoint(x: 35, y: 4)]
    once.addLine(zigzag, width: 1.3)
    twice.addLine(zigzag, width: 1.3)
    twice.addLine(zigzag.reversed(), width: 1.3)
    for y in 0..<40 {
      for x in 0..<40 { XCTAssertEqual(once.value(x: x, y: y), twice.value(x: x, y: y), "(\(x), \(y))") }
    }
    // The joint is covered as a straight stretch is, not twice.
    XCTAssertEqual(once.value(x: 20, y: 29), 255)
  }

  func testAsMuchInkAsCairosStroke() throws {
    var generator = SeededGenerator(seed: 3)
    for width in [0.6, 1.0, 1.7, 4.5, 11] {
      let points = (0..<12).map { _ in
        PixelPoint(
          x: Double.random(in: 10...190, using: &generator), y: Double.random(in: 10...190, using: &generator)
        )
      }
      let mask = LineCoverageMask(over: try canvas(width: 200, height: 200))
      mask.addLine(points, width: width)
      let maskInk = (0..<200).reduce(0) { sum, y in
        sum + (0..<200).reduce(0) { $0 + Int(mask.value(x: $1, y: y)) }
      }
      // Cairo's exact stroke of the same line into an alpha-only surface.
      let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 200, 200)!
      let cr = cairo_create(surface)!
      cairo_set_line_width(cr, width)
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
      cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
      cairo_move_to(cr, points[0].x, points[0].y)
      for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
      cairo_stroke(cr)
      cairo_surface_flush(surface)
      let data = cairo_image_surface_get_data(surface)!
      let stride = Int(cairo_image_surface_get_stride(surface))
      var cairoInk = 0
      var differing = 0
      for y in 0..<200 {
        for x in 0..<200 {
          let exact = Int(data[y * stride + x])
          cairoInk += exact
          if abs(exact - Int(mask.value(x: x, y: y))) > 64 { differing += 1 }
        }
      }
      cairo_destroy(cr)
      cairo_surface_destroy(surface)
      XCTAssertEqual(Double(maskInk), Double(cairoInk), accuracy: Double(cairoInk) * 0.06, "width \(width)")
      // Where the line crosses itself both agree; a pixel off by a quarter is rare.
      XCTAssertLessThan(Double(differing), Double(cairoInk) / 255 * 0.08, "width \(width)")
    }
  }

  /// Coverage comes in sixteenths, as Cairo's fast antialiasing does: continuous shades along every
  /// building outline made a street map's PNG a fifth larger.
  func testCoverageComesInSixteenths() throws {
    let mask = try LineMaskFixture.diagonal(width: 1.3)
    let allowed = Set((0...16).map { UInt8(($0 * 255 + 8) / 16) })
    var seen = Set<UInt8>()
    for y in 0..<40 { for x in 0..<40 { seen.insert(mask.value(x: x, y: y)) } }
    XCTAssertTrue(seen.isSubset(of: allowed), "\(seen.subtracting(allowed).sorted())")
    XCTAssertGreaterThan(seen.count, 6, "an antialiased edge")
  }

  /// Halos: Cairo's current path, its curves flattened and its closed subpaths closed, goes in as lines.
  func testAPathGoesInFlattenedAndClosed() throws {
    let canvas = try canvas()
    let cr = canvas.context
    cairo_rectangle(cr, 5.5, 5.5, 20, 10)
    cairo_move_to(cr, 5, 30.5)
    cairo_curve_to(cr, 15, 25, 25, 36, 35, 30.5)
    let mask = canvas.lineCoverageMask
    mask.addCurrentPath(of: cr, width: 1, scale: 1)
    cairo_new_path(cr)
    XCTAssertEqual(mask.value(x: 5, y: 10), 255, "the rectangle's closing edge")
    XCTAssertEqual(mask.value(x: 15, y: 5), 255, "its top")
    XCTAssertEqual(mask.value(x: 15, y: 10), 0, "not its inside")
    XCTAssertGreaterThan(mask.value(x: 20, y: 30), 0, "the curve")
    XCTAssertEqual(mask.value(x: 20, y: 20), 0)
    mask.paint(Color(red: 0, green: 0, blue: 0), on: canvas)
  }

  /// Far-off points and absurd widths neither trap nor draw outside the mask.
  func testFarOffSegmentsAndHugeWidthsAreSafe() throws {
    let mask = LineCoverageMask(over: try canvas())
    mask.addSegment(PixelPoint(x: -1e300, y: -1e300), PixelPoint(x: 1e300, y: 1e300), width: 1)
    mask.addSegment(PixelPoint(x: 5, y: 1e18), PixelPoint(x: 5, y: 2e18), width: 3)
    mask.addSegment(PixelPoint(x: 20, y: 20), PixelPoint(x: 20, y: 20), width: 1e308)
    mask.addSegment(PixelPoint(x: 20, y: 20), PixelPoint(x: 21, y: 20), width: .infinity)
    mask.addSegment(PixelPoint(x: .nan, y: 3), PixelPoint(x: 21, y: 20), width: 2)
    mask.addSegment(PixelPoint(x: 1e20, y: 5), PixelPoint(x: 1e20, y: 5), width: 1)
    mask.addSegment(PixelPoint(x: 5, y: 1e20), PixelPoint(x: 6, y: 1e20), width: 1)
    // A line from far away that crosses the mask covers its own rows.
    mask.addSegment(PixelPoint(x: -1e7, y: 30.5), PixelPoint(x: 1e7, y: 30.5), width: 1)
    XCTAssertEqual(column(mask, x: 17, rows: 29...31), [0, 255, 0])
    // Absurdly long ones never fill rows that are not theirs (the cut's rounding may lose them).
    let long = LineCoverageMask(over: try canvas())
    long.addSegment(PixelPoint(x: -1e300, y: 5.5), PixelPoint(x: 1e300, y: 5.5), width: 1)
    long.addSegment(PixelPoint(x: -1e200, y: 20.5), PixelPoint(x: 1e200, y: 20.5), width: 1)
    XCTAssertEqual([4, 6, 19, 21].map { long.value(x: 17, y: $0) }, [0, 0, 0, 0])
    // A lone point is no line.
    let dot = LineCoverageMask(over: try canvas())
    dot.addLine([PixelPoint(x: 10.5, y: 10.5)], width: 3)
    XCTAssertEqual(dot.value(x: 10, y: 10), 0)
  }

  func testSolidHairlinesAndRoundLinesGoThroughTheMask() {
    func paint(
      width: Double, cap: LineCap = .butt, join: LineJoin = .miter, gap: Double = 0, dashes: [Double]? = nil
    )
      -> LinePaint
    {
      LinePaint(
        color: Color(red: 0, green: 0, blue: 0), width: width, gap: gap, dashes: dashes, cap: cap, join: join,
        miterLimit: 2)
    }
    XCTAssertTrue(LineCoverageMask.draws(paint(width: 1.5), scale: 1))
    XCTAssertFalse(LineCoverageMask.draws(paint(width: 1.5), scale: 2), "three pixels, mitred: Cairo")
    XCTAssertTrue(LineCoverageMask.draws(paint(width: 12, cap: .round, join: .round), scale: 2))
    XCTAssertFalse(LineCoverageMask.draws(paint(width: 12, cap: .round, join: .bevel), scale: 1))
    XCTAssertFalse(LineCoverageMask.draws(paint(width: 1, dashes: [2, 2]), scale: 1), "dashes: Cairo")
    XCTAssertFalse(LineCoverageMask.draws(paint(width: 1, gap: 3), scale: 1), "casings with a gap: Cairo")
  }

  func testABandsMaskLandsOnItsRowsAndIsClearedAfter() throws {
    let image = try canvas()
    let band = try Canvas(band: 20..<40, of: image)
    let mask = band.lineCoverageMask
    XCTAssertEqual(mask.top, 20)
    mask.addLine([PixelPoint(x: 0, y: 30.5), PixelPoint(x: 40, y: 30.5)], width: 1)
    // A line outside the band's rows leaves the mask untouched.
    mask.addLine([PixelPoint(x: 0, y: 5.5), PixelPoint(x: 40, y: 5.5)], width: 1)
    mask.paint(Color(red: 0, green: 0, blue: 0), on: band)
    XCTAssertEqual(mask.value(x: 10, y: 10), 0, "cleared after painting")
    cairo_surface_flush(band.surface)
    let png = try PNGCodec.decode(try image.finish())
    func alpha(_ x: Int, _ y: Int) -> UInt8 { png.rgba[(y * 40 + x) * 4 + 3] }
    XCTAssertEqual([alpha(10, 29), alpha(10, 30), alpha(10, 31)], [0, 255, 0])
    XCTAssertEqual(alpha(10, 5), 0)
  }
}

private enum LineMaskFixture {
  /// A mask with a shallow diagonal line across it.
  static func diagonal(width: Double) throws -> LineCoverageMask {
    let canvas = try Canvas(format: .png, pixelWidth: 40, pixelHeight: 40, scale: 1)
    let mask = LineCoverageMask(over: canvas)
    mask.addLine([PixelPoint(x: 1, y: 5), PixelPoint(x: 39, y: 21.3)], width: width)
    return mask
  }
}
