import MapMath
import TestSupport
import XCTest

/// `Clipping`: rings cut by Sutherland–Hodgman (holes and concave shapes included), lines by Liang–Barsky
/// and by one half-plane, the degenerate cases, and seeded random shapes checked point by point against a
/// brute-force answer.
final class ClippingTests: XCTestCase {
  private let window = ClipWindow(minX: 2, minY: 2, maxX: 6, maxY: 6)

  private func points(_ pairs: [(Double, Double)]) -> [PixelPoint] {
    pairs.map { PixelPoint(x: $0.0, y: $0.1) }
  }

  // MARK: Rings

  func testARingInsideIsKeptAndARingOutsideIsGone() {
    let inside = points([(3, 3), (5, 3), (5, 5), (3, 5)])
    XCTAssertEqual(Clipping.polygon(inside, to: window), inside)
    XCTAssertEqual(Clipping.polygon(points([(7, 7), (9, 7), (9, 9)]), to: window), [])
    // A ring around the whole window becomes the window.
    let around = points([(0, 0), (8, 0), (8, 8), (0, 8)])
    XCTAssertEqual(abs(area(Clipping.polygon(around, to: window))), 16, accuracy: 1e-12)
  }

  func testASquareOverACornerIsCutToTheOverlap() {
    let square = points([(0, 0), (4, 0), (4, 4), (0, 4)])
    XCTAssertEqual(Clipping.polygon(square, to: window), points([(2, 2), (4, 2), (4, 4), (2, 4)]))
    // A triangle whose corners are all outside, cut on both sides: four crossings, exactly on the edges.
    let triangle = points([(0, 3), (8, 4), (1, 5.5)])
    let cut = Clipping.polygon(triangle, to: window)
    XCTAssertEqual(cut.count, 4)
    XCTAssertEqual(cut.filter { $0.x == 2 }.count, 2, "\(cut)")
    XCTAssertEqual(cut.filter { $0.x == 6 }.count, 2, "\(cut)")
  }

  func testTheWindingIsKept() {
    let clockwise = points([(0, 0), (4, 0), (4, 4), (0, 4)])
    XCTAssertGreaterThan(area(Clipping.polygon(clockwise, to: window)), 0)
    XCTAssertLessThan(area(Clipping.polygon(clockwise.reversed(), to: window)), 0)
  }

  func testAPolygonWithAHoleFillsExactlyItsPartInside() {
    // A square with a square hole (wound the other way), cut through the hole.
    let outer = points([(0, 0), (10, 0), (10, 10), (0, 10)])
    let hole = points([(3, 3), (3, 7), (7, 7), (7, 3)])
    let cut = ClipWindow(minX: 5, minY: -1, maxX: 12, maxY: 8.5)
    let rings = [outer, hole].map { Clipping.polygon($0, to: cut) }
    XCTAssertEqual(rings.map(area).reduce(0, +), 5 * 8.5 - 2 * 4, accuracy: 1e-12)
    for x in stride(from: -0.75, through: 12, by: 0.5) {
      for y in stride(from: -0.75, through: 12, by: 0.5) {
        let p = PixelPoint(x: x, y: y)
        let expected = strictlyInside(p, cut) && winding([outer, hole], p) != 0
        XCTAssertEqual(winding(rings, p) != 0, expected, "\(p)")
      }
    }
  }

  func testAConcaveRingLeavesOnlyEdgesAlongTheWindowWhereItWasOutside() {
    // A U open to the top, cut below its arms' tops: two arms joined by an edge along the window's top.
    let u = points([(0, 0), (9, 0), (9, 9), (6, 9), (6, 3), (3, 3), (3, 9), (0, 9)])
    let cut = ClipWindow(minX: -1, minY: -1, maxX: 10, maxY: 6)
    let ring = Clipping.polygon(u, to: cut)
    XCTAssertEqual(area(ring), 9 * 6 - 3 * 3, accuracy: 1e-12)
    XCTAssertEqual(winding([ring], PixelPoint(x: 4.5, y: 4.5)), 0, "the U's gap stays empty")
    XCTAssertNotEqual(winding([ring], PixelPoint(x: 1.5, y: 4.5)), 0)
    XCTAssertNotEqual(winding([ring], PixelPoint(x: 7.5, y: 4.5)), 0)
  }

  func testDegenerateRings() {
    XCTAssertEqual(Clipping.polygon([PixelPoint](), to: window), [])
    XCTAssertEqual(Clipping.polygon(points([(3, 3)]), to: window), points([(3, 3)]))
    XCTAssertEqual(Clipping.polygon(points([(1, 1)]), to: window), [])
    XCTAssertEqual(Clipping.polygon(points([(3, 3), (4, 4)]), to: window), points([(3, 3), (4, 4)]))
    // A window of no area leaves at most edges along it, which fill nothing.
    let flat = ClipWindow(minX: 2, minY: 4, maxX: 6, maxY: 4)
    XCTAssertEqual(area(Clipping.polygon(points([(0, 0), (8, 0), (8, 8), (0, 8)]), to: flat)), 0)
    // A point on the window's edge is inside.
    XCTAssertEqual(Clipping.polygon(points([(2, 2), (6, 2), (6, 6)]), to: window).count, 3)
  }

  func testHostileNumbersNeverTrapAndStayBounded() {
    let hostile = [-Double.infinity, .infinity, .nan, -1e308, 1e308, 0, 3]
    var random = SeededGenerator(seed: 0xC11B_0001)
    for _ in 0..<500 {
      let ring = (0..<random.int(in: 0...8)).map { _ in
        PixelPoint(x: hostile[random.int(in: 0...6)], y: hostile[random.int(in: 0...6)])
      }
      XCTAssertLessThanOrEqual(Clipping.polygon(ring, to: window).count, 16 * max(ring.count, 1))
      XCTAssertLessThanOrEqual(
        Clipping.polyline(ring, to: window).map(\.count).reduce(0, +), 2 * max(ring.count, 1))
      _ = Clipping.closedRing(ring, to: window)
      _ = Clipping.line(ring, to: HalfPlane(axis: .y, bound: 3, keepsBelow: true))
    }
  }

  // MARK: Closed rings (cutting data into cells)

  func testClosedRingsStayClosedWithoutRepeats() {
    let square = points([(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)])
    let cut = Clipping.closedRing(square, to: window)
    XCTAssertEqual(cut, points([(4, 2), (4, 4), (2, 4), (2, 2), (4, 2)]))
    // Wholly inside: the very same points, whatever their repeats.
    let inside = points([(3, 3), (5, 3), (5, 3), (5, 5), (3, 3)])
    XCTAssertEqual(
      Clipping.closedRing(inside, to: HalfPlane(axis: .x, bound: 2, keepsBelow: false)), inside)
    XCTAssertEqual(Clipping.closedRing(inside, to: window), points([(3, 3), (5, 3), (5, 5), (3, 3)]))
    XCTAssertNil(Clipping.closedRing(points([(7, 7), (9, 7), (9, 9), (7, 7)]), to: window))
    XCTAssertNil(Clipping.closedRing(points([(3, 3), (4, 4), (3, 3)]), to: window), "less than a triangle")
    XCTAssertNil(Clipping.closedRing(points([(3, 3), (4, 4), (3, 3), (3, 3)])))
    XCTAssertEqual(
      Clipping.closedRing(points([(3, 3), (4, 4), (3, 5)])), points([(3, 3), (4, 4), (3, 5), (3, 3)]))
    // Cut at one line, the pieces on either side meet exactly on it.
    let left = Clipping.closedRing(square, to: HalfPlane(axis: .x, bound: 1.3, keepsBelow: true))
    let right = Clipping.closedRing(square, to: HalfPlane(axis: .x, bound: 1.3, keepsBelow: false))
    XCTAssertEqual(
      Set(left?.filter { $0.x == 1.3 } ?? []), Set(right?.filter { $0.x == 1.3 } ?? []), "the cut edge")
    XCTAssertEqual(Set(left?.filter { $0.x == 1.3 } ?? []).count, 2)
  }

  // MARK: Lines

  func testALineCrossingInAndOutGivesOnePiecePerVisit() {
    let zigzag = points([(0, 0), (4, 4), (8, 0)])
    let cut = ClipWindow(minX: 1, minY: -1, maxX: 7, maxY: 2)
    XCTAssertEqual(
      Clipping.polyline(zigzag, to: cut), [points([(1, 1), (2, 2)]), points([(6, 2), (7, 1)])])
    // Inside: one piece, the line itself; outside: nothing.
    let inside = points([(3, 3), (5, 4), (4, 5)])
    XCTAssertEqual(Clipping.polyline(inside, to: window), [inside])
    XCTAssertEqual(Clipping.polyline(points([(0, 0), (1, 9), (0, 9)]), to: window), [])
    // In, out and in again through one segment each time.
    let weave = points([(3, 0), (3, 8), (5, 8), (5, 0)])
    XCTAssertEqual(
      Clipping.polyline(weave, to: window), [points([(3, 2), (3, 6)]), points([(5, 6), (5, 2)])])
  }

  func testDegenerateLines() {
    XCTAssertEqual(Clipping.polyline([PixelPoint](), to: window), [])
    XCTAssertEqual(Clipping.polyline(points([(3, 3)]), to: window), [])
    // Along an edge counts; a touch at a corner leaves nothing to draw (a round cap would draw a dot).
    XCTAssertEqual(Clipping.polyline(points([(0, 2), (8, 2)]), to: window), [points([(2, 2), (6, 2)])])
    XCTAssertEqual(Clipping.polyline(points([(0, 8), (8, 0)]), to: window), [points([(2, 6), (6, 2)])])
    XCTAssertEqual(Clipping.polyline(points([(0, 4), (4, 0)]), to: window), [])
    // A segment of no length is no piece, inside or outside; one that goes on from it is.
    XCTAssertEqual(Clipping.polyline(points([(3, 3), (3, 3)]), to: window), [])
    XCTAssertEqual(Clipping.polyline(points([(1, 1), (1, 1)]), to: window), [])
    XCTAssertEqual(
      Clipping.polyline(points([(3, 3), (3, 3), (4, 3)]), to: window), [points([(3, 3), (3, 3), (4, 3)])])
  }

  func testALineCutAtOneLineEndsExactlyOnIt() {
    let side = HalfPlane(axis: .x, bound: 5, keepsBelow: true)
    let zigzag = points([(0, 0), (7, 1), (7, 3), (1, 3), (1, 3), (3, 9), (9, 9)])
    let runs = Clipping.line(zigzag, to: side)
    XCTAssertEqual(runs.count, 2)
    XCTAssertEqual(runs.first?.first, PixelPoint(x: 0, y: 0))
    XCTAssertEqual(runs.first?.last?.x, 5)
    XCTAssertEqual(runs.last?.first?.x, 5)
    XCTAssertEqual(runs.last, points([(5, 3), (1, 3), (3, 9), (5, 9)]), "the repeated point is dropped")
    let above = HalfPlane(axis: .y, bound: 8, keepsBelow: false)
    XCTAssertEqual(Clipping.line(zigzag, to: above), [points([(1 + 2.0 * 5 / 6, 8), (3, 9), (9, 9)])])
    XCTAssertEqual(Clipping.line(points([(9, 0), (9, 9)]), to: side), [])
    XCTAssertEqual(Clipping.line(points([(2, 2), (2, 2)]), to: side), [], "one point is no line")
  }

  // MARK: Against brute force

  func testRandomRingsFillWhatTheyFilledInsideTheWindowAndNothingOutside() {
    var random = SeededGenerator(seed: 0xC11B_0002)
    var checked = 0
    for _ in 0..<300 {
      let ring = (0..<random.int(in: 3...12)).map { _ in
        PixelPoint(x: random.double(in: -10..<10), y: random.double(in: -10..<10))
      }
      let cut = randomWindow(&random)
      let clipped = Clipping.polygon(ring, to: cut)
      let closed = Clipping.closedRing(ring + [ring[0]], to: cut)
      for point in clipped { XCTAssertTrue(contains(cut, point, tolerance: 1e-9), "\(point) in \(cut)") }
      for _ in 0..<100 {
        let p = PixelPoint(x: random.double(in: -11..<11), y: random.double(in: -11..<11))
        guard !nearEdge(p, of: ring, cut) else { continue }
        let expected = strictlyInside(p, cut) ? winding([ring], p) : 0
        XCTAssertEqual(winding([clipped], p), expected, "\(p) in \(ring) cut to \(cut)")
        XCTAssertEqual(winding(closed.map { [$0] } ?? [], p), expected, "closed: \(p) in \(ring) to \(cut)")
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 25_000)
  }

  func testRandomLinesKeepExactlyTheirPartsInsideTheWindow() {
    var random = SeededGenerator(seed: 0xC11B_0003)
    var covered = 0
    for _ in 0..<400 {
      let line = (0..<random.int(in: 2...10)).map { _ in
        PixelPoint(x: random.double(in: -10..<10), y: random.double(in: -10..<10))
      }
      let cut = randomWindow(&random)
      let pieces = Clipping.polyline(line, to: cut)
      let segments = zip(line, line.dropFirst()).map { ($0, $1) }
      for piece in pieces {
        XCTAssertGreaterThanOrEqual(piece.count, 2)
        for point in piece { XCTAssertTrue(contains(cut, point, tolerance: 1e-9), "\(point) in \(cut)") }
        // Every piece runs along the line: each of its segments lies on one of the line's.
        for (a, b) in zip(piece, piece.dropFirst()) {
          XCTAssertTrue(
            segments.contains { distance(a, $0) < 1e-9 && distance(b, $0) < 1e-9 }, "\(a)–\(b) on \(line)")
        }
      }
      // Every point of the line well inside the window is on a piece; none well outside is.
      for (a, b) in segments {
        for step in 0...40 {
          let t = Double(step) / 40
          let p = PixelPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
          let onPiece = pieces.contains { piece in
            zip(piece, piece.dropFirst()).contains { distance(p, ($0, $1)) < 1e-7 }
          }
          if strictlyInside(p, cut, margin: 1e-6) {
            XCTAssertTrue(onPiece, "\(p) of \(line) in \(cut)")
            covered += 1
          } else if !contains(cut, p, tolerance: 1e-6) {
            XCTAssertFalse(onPiece, "\(p) of \(line) outside \(cut)")
          }
        }
      }
      // Cut at one side, the runs keep exactly the points on that side.
      let side = cut.sides[random.int(in: 0...3)]
      for run in Clipping.line(line, to: side) {
        XCTAssertGreaterThanOrEqual(run.count, 2)
        for point in run { XCTAssertTrue(side.contains(point), "\(point) inside \(side)") }
      }
    }
    XCTAssertGreaterThan(covered, 5_000)
  }

  // MARK: Brute force

  private func randomWindow(_ random: inout SeededGenerator) -> ClipWindow {
    let x = random.double(in: -8..<6)
    let y = random.double(in: -8..<6)
    return ClipWindow(
      minX: x, minY: y, maxX: x + random.double(in: 0.5..<12), maxY: y + random.double(in: 0.5..<12))
  }

  /// The shoelace area, positive for rings clockwise on screen (y down).
  private func area(_ ring: [PixelPoint]) -> Double {
    guard let last = ring.last else { return 0 }
    var previous = last
    var sum = 0.0
    for point in ring {
      sum += previous.x * point.y - point.x * previous.y
      previous = point
    }
    return sum / 2
  }

  /// The winding number of rings around `p` (each ring open: its last point joins its first).
  private func winding(_ rings: [[PixelPoint]], _ p: PixelPoint) -> Int {
    var total = 0
    for ring in rings {
      guard var previous = ring.last else { continue }
      for current in ring {
        let cross =
          (current.x - previous.x) * (p.y - previous.y) - (p.x - previous.x) * (current.y - previous.y)
        if previous.y <= p.y {
          if current.y > p.y && cross > 0 { total += 1 }
        } else if current.y <= p.y && cross < 0 {
          total -= 1
        }
        previous = current
      }
    }
    return total
  }

  private func strictlyInside(_ p: PixelPoint, _ window: ClipWindow, margin: Double = 0) -> Bool {
    p.x > window.minX + margin && p.x < window.maxX - margin && p.y > window.minY + margin
      && p.y < window.maxY - margin
  }

  private func contains(_ window: ClipWindow, _ p: PixelPoint, tolerance: Double) -> Bool {
    p.x >= window.minX - tolerance && p.x <= window.maxX + tolerance && p.y >= window.minY - tolerance
      && p.y <= window.maxY + tolerance
  }

  private func distance(_ p: PixelPoint, _ segment: (PixelPoint, PixelPoint)) -> Double {
    let (a, b) = segment
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = dx * dx + dy * dy
    let t = length > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length)) : 0
    return hypot(a.x + t * dx - p.x, a.y + t * dy - p.y)
  }

  /// Too near an edge of the ring or the window for rounding at the cuts not to decide the answer.
  private func nearEdge(_ p: PixelPoint, of ring: [PixelPoint], _ window: ClipWindow) -> Bool {
    let edges = zip(ring, ring.dropFirst() + [ring[0]]).map { ($0, $1) }
    return edges.contains { distance(p, $0) < 1e-7 }
      || [p.x - window.minX, p.x - window.maxX, p.y - window.minY, p.y - window.maxY].contains {
        abs($0) < 1e-7
      }
  }
}
