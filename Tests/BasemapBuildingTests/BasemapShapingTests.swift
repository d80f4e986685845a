import BasemapBuilding
import MapMath
import TestSupport
import Tiles
import XCTest

final class BasemapShapingTests: XCTestCase {
  private func point(_ x: Double, _ y: Double) -> WorldPoint { WorldPoint(x: x, y: y) }

  /// A closed ring from corner points (clockwise on screen: positive area).
  private func ring(_ points: [(Double, Double)]) -> [WorldPoint] {
    let ring = points.map { point($0.0, $0.1) }
    return ring + [ring[0]]
  }

  private func distanceToPolyline(_ target: WorldPoint, _ line: [WorldPoint]) -> Double {
    var best = Double.infinity
    for index in 0..<(line.count - 1) {
      let a = line[index]
      let b = line[index + 1]
      let dx = b.x - a.x
      let dy = b.y - a.y
      let length = dx * dx + dy * dy
      let t = length > 0 ? max(0, min(1, ((target.x - a.x) * dx + (target.y - a.y) * dy) / length)) : 0
      best = min(best, hypot(a.x + t * dx - target.x, a.y + t * dy - target.y))
    }
    return best
  }

  // MARK: Douglas–Peucker

  func testSimplifyDropsPointsWithinToleranceAndKeepsTheEnds() {
    let straight = (0...10).map { point(Double($0) / 10, 0.5 + ($0 % 2 == 0 ? 0.001 : -0.001)) }
    XCTAssertEqual(BasemapShaping.simplify(straight, tolerance: 0.01), [straight[0], straight[10]])
    XCTAssertEqual(BasemapShaping.simplify(straight, tolerance: 0.0001), straight)
    // Repeated points go; two points stay two.
    XCTAssertEqual(
      BasemapShaping.simplify([point(0, 0), point(0, 0), point(1, 1)], tolerance: 0.1),
      [point(0, 0), point(1, 1)])
  }

  func testSimplifiedLinesStayWithinToleranceOfEveryOriginalPoint() {
    var generator = SeededGenerator(seed: 11)
    for _ in 0..<50 {
      var walker = point(0.5, 0.5)
      let line = (0..<200).map { _ -> WorldPoint in
        walker = point(
          walker.x + generator.double(in: -0.01..<0.01), walker.y + generator.double(in: -0.01..<0.01))
        return walker
      }
      let tolerance = generator.double(in: 0.0005..<0.01)
      let simplified = BasemapShaping.simplify(line, tolerance: tolerance)
      XCTAssertEqual(simplified.first, line.first)
      XCTAssertEqual(simplified.last, line.last)
      XCTAssertLessThanOrEqual(simplified.count, line.count)
      for original in line {
        XCTAssertLessThanOrEqual(distanceToPolyline(original, simplified), tolerance * (1 + 1e-9))
      }
    }
  }

  func testSimplifyKeepsARingClosedAndCollapsesATinyOne() {
    let square = ring([(0.1, 0.1), (0.2, 0.1), (0.2, 0.2), (0.1, 0.2)])
    let simplified = BasemapShaping.simplify(square, tolerance: 0.001)
    XCTAssertEqual(simplified, square)
    XCTAssertEqual(simplified.first, simplified.last)
    XCTAssertNil(Clipping.closedRing(BasemapShaping.simplify(square, tolerance: 0.5)))
  }

  // MARK: Areas and clipping

  func testSignedAreaIsPositiveClockwiseOnScreen() {
    let square = ring([(0, 0), (1, 0), (1, 1), (0, 1)])
    XCTAssertEqual(BasemapShaping.signedArea(square), 1)
    XCTAssertEqual(BasemapShaping.signedArea(Array(square.reversed())), -1)
    XCTAssertTrue(BasemapShaping.contains(square, point(0.5, 0.5)))
    XCTAssertFalse(BasemapShaping.contains(square, point(1.5, 0.5)))
  }

  func testClipRingToABox() throws {
    let square = ring([(0, 0), (4, 0), (4, 4), (0, 4)])
    let clipped = try XCTUnwrap(
      Clipping.closedRing(square, to: WorldBox(minX: 1, minY: 1, maxX: 2, maxY: 3)))
    XCTAssertEqual(clipped.first, clipped.last)
    XCTAssertEqual(BasemapShaping.signedArea(clipped), 2, accuracy: 1e-12)
    XCTAssertEqual(
      Clipping.closedRing(square, to: WorldBox(minX: -1, minY: -1, maxX: 5, maxY: 5)), square)
    XCTAssertNil(Clipping.closedRing(square, to: WorldBox(minX: 5, minY: 5, maxX: 6, maxY: 6)))
  }

  func testClipLineToABoxKeepsTheRunsInside() {
    let zigzag = [point(0, 0), point(2, 2), point(4, 0), point(6, 2)]
    // The first segment only touches the box's corner (1, 1): a single point is no line.
    XCTAssertEqual(
      Clipping.polyline(zigzag, to: WorldBox(minX: 1, minY: 0, maxX: 5, maxY: 1)),
      [[point(3, 1), point(4, 0), point(5, 1)]])
    XCTAssertEqual(Clipping.polyline(zigzag, to: WorldBox(minX: 7, minY: 0, maxX: 8, maxY: 1)), [])
  }

  // MARK: Cutting into grid cells

  /// A concave star with a hole, spanning many cells of an 8×8 grid.
  private func star() -> [[WorldPoint]] {
    var outer: [WorldPoint] = []
    for index in 0..<14 {
      let angle = Double(index) / 14 * 2 * .pi
      let radius = index % 2 == 0 ? 0.4 : 0.15
      outer.append(point(0.5 + radius * cos(angle), 0.5 + radius * sin(angle)))
    }
    outer.append(outer[0])
    let hole = Array(ring([(0.45, 0.45), (0.45, 0.55), (0.55, 0.55), (0.55, 0.45)]))
    return [outer, hole]
  }

  func testCutPolygonPiecesAreClosedRingsInsideTheirCellsAndKeepTheArea() {
    let polygon = star()
    XCTAssertGreaterThan(BasemapShaping.signedArea(polygon[0]), 0)
    XCTAssertLessThan(BasemapShaping.signedArea(polygon[1]), 0)
    let area = polygon.reduce(0) { $0 + BasemapShaping.signedArea($1) }
    for cells in [1, 2, 4, 8, 64] {
      let pieces = BasemapShaping.cutPolygon(polygon, cellsPerSide: cells)
      XCTAssertFalse(pieces.isEmpty)
      var total = 0.0
      let side = 1 / Double(cells)
      for piece in pieces {
        for ring in piece.parts {
          XCTAssertGreaterThanOrEqual(ring.count, 4)
          XCTAssertEqual(ring.first, ring.last, "each piece is a closed ring")
          for vertex in ring {
            XCTAssertGreaterThanOrEqual(vertex.x, Double(piece.column) * side - 1e-12)
            XCTAssertLessThanOrEqual(vertex.x, Double(piece.column + 1) * side + 1e-12)
            XCTAssertGreaterThanOrEqual(vertex.y, Double(piece.row) * side - 1e-12)
            XCTAssertLessThanOrEqual(vertex.y, Double(piece.row + 1) * side + 1e-12)
          }
          total += BasemapShaping.signedArea(ring)
        }
      }
      XCTAssertEqual(total, area, accuracy: 1e-12, "\(cells) cells a side")
      // Row-major order, each cell once.
      let order = pieces.map { [$0.row, $0.column] }
      XCTAssertEqual(order, order.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
      XCTAssertEqual(Set(order).count, order.count)
    }
  }

  func testCutPolygonLeavesOutCellsInsideTheHole() {
    let outer = ring([(0, 0), (1, 0), (1, 1), (0, 1)])
    let hole = Array(ring([(0.25, 0.25), (0.25, 0.75), (0.75, 0.75), (0.75, 0.25)]))
    let pieces = BasemapShaping.cutPolygon([outer, hole], cellsPerSide: 4)
    // 16 cells, the middle four are all hole.
    XCTAssertEqual(pieces.count, 12)
    XCTAssertFalse(pieces.contains { (1...2).contains($0.row) && (1...2).contains($0.column) })
    XCTAssertEqual(
      pieces.reduce(0) { $0 + $1.parts.reduce(0) { $0 + BasemapShaping.signedArea($1) } }, 0.75,
      accuracy: 1e-12)
  }

  func testAPolygonInsideOneCellComesBackWhole() {
    let small = [ring([(0.1, 0.1), (0.2, 0.1), (0.2, 0.2)])]
    XCTAssertEqual(
      BasemapShaping.cutPolygon(small, cellsPerSide: 4), [GridPiece(column: 0, row: 0, parts: small)])
  }

  func testCutLinesKeepsTheLengthAndEveryPieceInItsCell() {
    let line = [point(0.05, 0.1), point(0.95, 0.9), point(0.1, 0.8)]
    func length(_ parts: [[WorldPoint]]) -> Double {
      parts.reduce(0) { total, part in
        total + zip(part, part.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
      }
    }
    for cells in [1, 4, 16] {
      let pieces = BasemapShaping.cutLines([line], cellsPerSide: cells)
      XCTAssertEqual(length(pieces.flatMap(\.parts)), length([line]), accuracy: 1e-12)
      let side = 1 / Double(cells)
      for piece in pieces {
        for vertex in piece.parts.joined() {
          XCTAssertTrue(
            (Double(piece.column) * side - 1e-12...Double(piece.column + 1) * side + 1e-12).contains(vertex.x)
          )
          XCTAssertTrue(
            (Double(piece.row) * side - 1e-12...Double(piece.row + 1) * side + 1e-12).contains(vertex.y))
        }
      }
    }
  }

  // MARK: Coastlines from land rings

  func testCoastlineOfCutLandLeavesOutTheCutsAndTheWorldsEdges() {
    // A square island cut into four pieces: its coastline is its four sides, not the cuts.
    let island = ring([(0.1, 0.1), (0.4, 0.1), (0.4, 0.4), (0.1, 0.4)])
    let pieces = BasemapShaping.cutPolygon([island], cellsPerSide: 4)
    XCTAssertEqual(pieces.count, 4)
    let coast = pieces.flatMap { BasemapCoastline.lines(ofRings: $0.parts, grids: [4]) }
    let length = coast.reduce(0) { total, part in
      total + zip(part, part.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }
    XCTAssertEqual(length, 1.2, accuracy: 1e-12)
    for part in coast {
      for (a, b) in zip(part, part.dropFirst()) {
        XCTAssertFalse(a.x == 0.25 && b.x == 0.25 || a.y == 0.25 && b.y == 0.25, "a cut edge is not coast")
      }
    }
    // An uncut ring is one closed line; land along the world's edge has no coast there.
    XCTAssertEqual(BasemapCoastline.lines(ofRings: [island], grids: [4]), [island])
    let edge = ring([(0, 0.9), (0.3, 0.9), (0.3, 1), (0, 1)])
    XCTAssertEqual(
      BasemapCoastline.lines(ofRings: [edge], grids: [4]),
      [[point(0, 0.9), point(0.3, 0.9), point(0.3, 1)]])
  }
}
