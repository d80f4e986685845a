import CCairo
import Foundation
import ImageCodecs
import MapMath
import MapStyle
import TestSupport
import XCTest

@testable import Rendering

/// Lines drawn through a coverage mask (hairlines, and round-joined lines of any width with round or butt
/// caps): each pixel covered as far as a band of the line's width across its centre covers it, a line
/// the union (not the sum) of its segments, laid on the right rows of a band, as much ink as Cairo's
/// exact stroke puts down.
final class LineCoverageMaskTests: XCTestCase {
  private func canvas(width: Int = 40, height: Int = 40) throws -> Canvas {
    try Canvas(format: .png, pixelWidth: width, pixelHeight: height, scale: 1)
  }

  private func column(_ mask: LineCoverageMask, x: Int, rows: ClosedRange<Int>) -> [UInt8] {
    rows.map { mask.value(x: x, y: $0) }
  }

  /// Where the centre of pixel (`x`, `y`) lies from segment `a`–`b`, reckoned directly: how far along it
  /// (before `a` below 0, past `b` above its length) and its distance from the nearest point of it.
  private static func centre(x: Int, y: Int, from a: PixelPoint, to b: PixelPoint) -> (
    along: Double, distance: Double
  ) {
    let (dx, dy) = (b.x - a.x, b.y - a.y)
    let length = (dx * dx + dy * dy).squareRoot()
    let (px, py) = (Double(x) + 0.5 - a.x, Double(y) + 0.5 - a.y)
    let along = length > 0 ? (px * dx + py * dy) / length : 0
    let t = min(max(along, 0), length) / max(length, 1e-300)
    let (ex, ey) = (px - dx * t, py - dy * t)
    return (along, (ex * ex + ey * ey).squareRoot())
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

  func testButtEndsStopSquareAtTheLinesEnds() throws {
    let mask = LineCoverageMask(over: try canvas())
    // Four pixels wide on rows 8…11, from x 10 to x 30: columns 10…29 whole, nothing past either end.
    mask.addLine([PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10)], width: 4, buttEnds: true)
    XCTAssertEqual(
      (8...31).map { mask.value(x: $0, y: 9) }, [0, 0] + Array(repeating: 255, count: 20) + [0, 0])
    XCTAssertEqual(column(mask, x: 10, rows: 7...12), [0, 255, 255, 255, 255, 0])
    // The same line with round caps reaches two pixels past each end.
    let round = LineCoverageMask(over: try canvas())
    round.addLine([PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10)], width: 4)
    XCTAssertEqual([7, 8, 9, 30, 31, 32].map { round.value(x: $0, y: 9) }, [0, 239, 255, 255, 239, 0])
    // A bend is round between the two ends: the outer corner of the joint is filled.
    let bent = LineCoverageMask(over: try canvas())
    bent.addLine(
      [PixelPoint(x: 5, y: 20), PixelPoint(x: 20, y: 20), PixelPoint(x: 20, y: 35)], width: 4, buttEnds: true)
    XCTAssertEqual(bent.value(x: 21, y: 19), 239, "the joint's disc")
    XCTAssertEqual(bent.value(x: 4, y: 20), 0, "square start")
    XCTAssertEqual(bent.value(x: 20, y: 35), 0, "square end")
    XCTAssertEqual(bent.value(x: 20, y: 34), 255)
  }

  /// An end segment shorter than half the width (a vertex next to an end, a repeated end, a vertex
  /// thinned away) still ends the line square at its end: the joint before it does not reach past.
  func testShortEndSegmentsKeepTheEndsSquare() throws {
    let straight = LineCoverageMask(over: try canvas())
    straight.addLine([PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10)], width: 8, buttEnds: true)
    XCTAssertEqual([9, 10, 29, 30].map { straight.value(x: $0, y: 10) }, [0, 255, 255, 0])
    let lines: [[PixelPoint]] = [
      [PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10), PixelPoint(x: 30, y: 10)],
      [PixelPoint(x: 10, y: 10), PixelPoint(x: 29.8, y: 10), PixelPoint(x: 30, y: 10)],
      [PixelPoint(x: 10, y: 10), PixelPoint(x: 10.6, y: 10), PixelPoint(x: 30, y: 10)],
      [PixelPoint(x: 10, y: 10), PixelPoint(x: 10.3, y: 10.1), PixelPoint(x: 30, y: 10)],
    ]
    for points in lines {
      let mask = LineCoverageMask(over: try canvas())
      mask.addLine(points, width: 8, buttEnds: true)
      for y in 0..<40 {
        for x in 0..<40 {
          XCTAssertEqual(mask.value(x: x, y: y), straight.value(x: x, y: y), "(\(x), \(y)) of \(points)")
        }
      }
    }
  }

  /// A bend next to a square end keeps its round outer corner (the join's wedge) and stops at the end.
  func testABendNextToASquareEndIsCutThere() throws {
    let mask = LineCoverageMask(over: try canvas())
    // East along row 10, then 2 px south: the end is square to the short southward piece (y = 12).
    mask.addLine(
      [PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10), PixelPoint(x: 30, y: 12)], width: 8, buttEnds: true
    )
    XCTAssertEqual(mask.value(x: 32, y: 8), 255, "the bend's round outer corner")
    XCTAssertEqual(mask.value(x: 29, y: 11), 255)
    XCTAssertEqual([12, 13, 14, 15].map { mask.value(x: 30, y: $0) }, [0, 0, 0, 0], "past the end")
    XCTAssertEqual([12, 13].map { mask.value(x: 20, y: $0) }, [255, 255], "the first segment's body")
  }

  /// A joint near both ends of a short loop keeps its round outer corner: the joint is cut by its own
  /// segments, never by an end's plane (a reviewer's case: the corner was notched).
  func testAJointNearBothEndsKeepsItsOuterCorner() throws {
    let mask = LineCoverageMask(over: try canvas(width: 48, height: 64))
    let loop = [(30, 30), (33, 30), (33, 50), (10, 50), (10, 31), (30, 31)].map {
      PixelPoint(x: $0.0, y: $0.1)
    }
    mask.addLine(loop, width: 10, buttEnds: true)
    XCTAssertEqual(mask.value(x: 35, y: 27), 255, "the corner's outer wedge")
    XCTAssertEqual(mask.value(x: 36, y: 26), 143, "its antialiased rim")
    XCTAssertEqual(mask.value(x: 39, y: 27), 0, "beyond the corner's radius")
  }

  /// A butt-ended line all in one point has no direction and draws nothing; one far off the mask
  /// keeps its square end where it is seen.
  func testButtLinesInOnePointAndFarOff() throws {
    let dot = LineCoverageMask(over: try canvas())
    dot.addLine([PixelPoint(x: 20, y: 20), PixelPoint(x: 20, y: 20)], width: 8, buttEnds: true)
    dot.addLine(Array(repeating: PixelPoint(x: 20, y: 20), count: 3), width: 8, buttEnds: true)
    XCTAssertEqual(dot.value(x: 20, y: 20), 0)
    let far = LineCoverageMask(over: try canvas())
    far.addLine([PixelPoint(x: 10, y: 10), PixelPoint(x: 2e6, y: 10)], width: 4, buttEnds: true)
    XCTAssertEqual([8, 9, 10, 39].map { far.value(x: $0, y: 9) }, [0, 0, 255, 255])
    let farther = LineCoverageMask(over: try canvas())
    farther.addLine([PixelPoint(x: 10, y: 10), PixelPoint(x: 1e300, y: 10)], width: 4, buttEnds: true)
    XCTAssertEqual([8, 9, 10, 39].map { farther.value(x: $0, y: 9) }, [0, 0, 255, 255], "1e300 away")
    let farStart = LineCoverageMask(over: try canvas())
    farStart.addLine([PixelPoint(x: -2e6, y: 10), PixelPoint(x: 30, y: 10)], width: 4, buttEnds: true)
    XCTAssertEqual([0, 29, 30, 31].map { farStart.value(x: $0, y: 9) }, [255, 255, 0, 0])
  }

  /// A ring has no ends: where it closes, its corner is joined like every other.
  func testARingDrawnWithButtEndsHasNoNotch() throws {
    let ring = [
      PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10), PixelPoint(x: 30, y: 30), PixelPoint(x: 10, y: 30),
      PixelPoint(x: 10, y: 10),
    ]
    let butt = LineCoverageMask(over: try canvas())
    butt.addLine(ring, width: 4, buttEnds: true)
    let round = LineCoverageMask(over: try canvas())
    round.addLine(ring, width: 4)
    for y in 0..<40 {
      for x in 0..<40 { XCTAssertEqual(butt.value(x: x, y: y), round.value(x: x, y: y), "(\(x), \(y))") }
    }
    XCTAssertEqual(butt.value(x: 8, y: 9), 239, "the closing corner")
  }

  /// Segments of every direction, width and end give every pixel what the distance from its centre
  /// says (a box filter across the line), as a direct per-pixel reckoning checks: the rows' runs, the
  /// whole cores, the distances without a root beside a segment and the square ends all agree with it.
  func testEverySegmentCoversWhatTheDistanceSays() throws {
    var generator = SeededGenerator(seed: 11)
    let size = 48
    var differing = 0
    for _ in 0..<300 {
      let a = PixelPoint(
        x: Double.random(in: -4...52, using: &generator), y: Double.random(in: -4...52, using: &generator))
      let b = PixelPoint(
        x: Double.random(in: -4...52, using: &generator), y: Double.random(in: -4...52, using: &generator))
      let width = [0.5, 1, 1.6, 3.2, 7][Int.random(in: 0..<5, using: &generator)]
      let butt = Bool.random(using: &generator)
      let mask = LineCoverageMask(over: try canvas(width: size, height: size))
      mask.addLine([a, b], width: width, buttEnds: butt)
      let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
      for y in 0..<size {
        for x in 0..<size {
          let (along, distance) = Self.centre(x: x, y: y, from: a, to: b)
          var expected = 0
          if !(butt && (along < 0 || along > length)) {
            let covered = min(width / 2 - distance, 0.5) - max(-width / 2 - distance, -0.5)
            if covered > 0 { expected = (Int((min(covered, 1) * 16).rounded()) * 255 + 8) / 16 }
          }
          let value = Int(mask.value(x: x, y: y))
          XCTAssertLessThanOrEqual(abs(value - expected), 16, "(\(x), \(y)) of \(a)–\(b), width \(width)")
          if value != expected { differing += 1 }
        }
      }
    }
    // Only where a distance falls on a sixteenth's edge or a centre on a square end can rounding differ.
    XCTAssertLessThan(differing, 300 * size * size / 1000)
  }

  /// An uncut segment is measured over a run found from its line and box, not its exact capsule: at
  /// every direction, the near-horizontal ones (whose run is their box) and the steep ones included, thin
  /// or wide, no pixel the line reaches is left out, and none beyond its reach gets anything.
  func testUncutSegmentsMissNoPixelAtAnyDirection() throws {
    let size = 40
    let center = PixelPoint(x: 20.3, y: 19.6)
    var directions = stride(from: 0.0, to: .pi, by: .pi / 90).map { $0 }
    directions += [1e-4, 1.0 / 1100, 1.0 / 900, .pi / 2 - 1e-4, .pi - 1.0 / 1000]
    for angle in directions {
      for width in [0.4, 1.0, 1.9, 4.5] {
        let length = 15.5
        let a = PixelPoint(x: center.x - cos(angle) * length, y: center.y - sin(angle) * length)
        let b = PixelPoint(x: center.x + cos(angle) * length, y: center.y + sin(angle) * length)
        let mask = LineCoverageMask(over: try canvas(width: size, height: size))
        mask.addSegment(a, b, width: width)
        for y in 0..<size {
          for x in 0..<size {
            let distance = Self.centre(x: x, y: y, from: a, to: b).distance
            let value = mask.value(x: x, y: y)
            if distance < width / 2 + 0.5 - 0.05 {
              XCTAssertGreaterThan(value, 0, "(\(x), \(y)) at \(angle) rad, width \(width)")
            } else if distance > width / 2 + 0.5 + 0.01 {
              XCTAssertEqual(value, 0, "(\(x), \(y)) at \(angle) rad, width \(width)")
            }
          }
        }
      }
    }
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
    try assertInkLikeCairos(widths: [0.6, 1.0, 1.7, 4.5, 11], butt: false)
  }

  func testAsMuchInkAsCairosButtEndedStroke() throws {
    try assertInkLikeCairos(widths: [2.5, 4.5, 11], butt: true)
  }

  private func assertInkLikeCairos(widths: [Double], butt: Bool) throws {
    var generator = SeededGenerator(seed: 3)
    for width in widths {
      let points = (0..<12).map { _ in
        PixelPoint(
          x: Double.random(in: 10...190, using: &generator), y: Double.random(in: 10...190, using: &generator)
        )
      }
      let mask = LineCoverageMask(over: try canvas(width: 200, height: 200))
      mask.addLine(points, width: width, buttEnds: butt)
      let maskInk = (0..<200).reduce(0) { sum, y in
        sum + (0..<200).reduce(0) { $0 + Int(mask.value(x: $1, y: y)) }
      }
      // Cairo's exact stroke of the same line into an alpha-only surface.
      let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 200, 200)!
      let cr = cairo_create(surface)!
      cairo_set_line_width(cr, width)
      cairo_set_line_cap(cr, butt ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_ROUND)
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
    // Absurd widths on segments of a length, flat and at a shallow angle, cover the whole mask.
    for (end, width) in [(PixelPoint(x: 21, y: 20), 1e20), (PixelPoint(x: 30, y: 20.01), 1e17)] {
      let wide = LineCoverageMask(over: try canvas())
      wide.addSegment(PixelPoint(x: 20, y: 20), end, width: width)
      XCTAssertEqual([wide.value(x: 0, y: 0), wide.value(x: 39, y: 39)], [255, 255], "width \(width)")
    }
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

  func testSolidHairlinesAndRoundJoinedLinesGoThroughTheMask() {
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
    XCTAssertTrue(LineCoverageMask.draws(paint(width: 6, cap: .butt, join: .round), scale: 1), "casings")
    XCTAssertFalse(LineCoverageMask.draws(paint(width: 6, cap: .square, join: .round), scale: 1))
    XCTAssertTrue(LineCoverageMask.endsButt(paint(width: 6, cap: .butt, join: .round), scale: 1))
    XCTAssertFalse(LineCoverageMask.endsButt(paint(width: 1.5, cap: .butt), scale: 1), "hairline: round")
    XCTAssertTrue(LineCoverageMask.endsButt(paint(width: 2, cap: .butt, join: .round), scale: 1))
    XCTAssertTrue(LineCoverageMask.endsButt(paint(width: 1, cap: .butt, join: .round), scale: 2))
    XCTAssertFalse(LineCoverageMask.endsButt(paint(width: 1.99, cap: .butt, join: .round), scale: 1))
    XCTAssertFalse(LineCoverageMask.endsButt(paint(width: 6, cap: .round, join: .round), scale: 1))
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

extension LineCoverageMaskTests {
  /// Only the strips of rows a layer's lines touched are laid and cleared: every pixel drawn must still
  /// land on the canvas, nothing else, and the mask must be clear for the next layer.
  func testWhatIsPaintedIsWhatTheMaskHeldAndTheMaskIsClearAfter() throws {
    let (width, height) = (64, 70)
    let image = try canvas(width: width, height: height)
    let mask = image.lineCoverageMask
    // A zigzag across strips, a short stroke far to one side, and a dot of a line on a strip's edge.
    mask.addLine(
      [PixelPoint(x: 3, y: 2), PixelPoint(x: 20, y: 30), PixelPoint(x: 6, y: 55), PixelPoint(x: 30, y: 68)],
      width: 1.3)
    mask.addLine([PixelPoint(x: 58, y: 12.5), PixelPoint(x: 61, y: 13)], width: 0.8)
    mask.addLine([PixelPoint(x: 40, y: 39.5), PixelPoint(x: 41, y: 40.5)], width: 2.5)
    let held = (0..<height).flatMap { y in (0..<width).map { x in mask.value(x: x, y: y) } }
    XCTAssertGreaterThan(held.filter { $0 > 0 }.count, 100)
    mask.paint(Color(red: 0, green: 0, blue: 0), on: image)
    let left = (0..<height).flatMap { y in (0..<width).map { x in mask.value(x: x, y: y) } }
    XCTAssertEqual(left.filter { $0 != 0 }.count, 0, "pixels left in the mask")
    let png = try PNGCodec.decode(try image.finish())
    let painted = (0..<(width * height)).map { png.rgba[$0 * 4 + 3] }
    XCTAssertEqual(zip(painted, held).filter { $0 != $1 }.count, 0, "pixels painted otherwise than held")
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
