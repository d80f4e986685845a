import MapMath
import XCTest

final class LineSimplificationTests: XCTestCase {
  func testEveryDroppedPointIsWithinTheToleranceOfTheLineKept() {
    // A deterministic zigzag with noise: x grows, y wanders.
    var line: [PixelPoint] = []
    var y = 0.0
    for index in 0..<500 {
      y += Double((index * 7919) % 13) / 6 - 1
      line.append(PixelPoint(x: Double(index), y: y))
    }
    for tolerance in [0.5, 2, 10] {
      let kept = LineSimplification.douglasPeucker(line, tolerance: tolerance)
      XCTAssertEqual(kept.first, line.first)
      XCTAssertEqual(kept.last, line.last)
      XCTAssertLessThan(kept.count, line.count)
      // Each point lies within the tolerance of the kept segment spanning its x.
      var segment = 0
      for point in line {
        while kept[segment + 1].x < point.x { segment += 1 }
        let distance = LineSimplification.squaredDistance(point, toSegment: kept[segment], kept[segment + 1])
        XCTAssertLessThanOrEqual(distance, tolerance * tolerance + 1e-9, "tolerance \(tolerance) at \(point)")
      }
    }
  }

  func testAStraightLineKeepsItsEndsAndAShortOneStaysWhole() {
    let straight = (0...10).map { WorldPoint(x: Double($0) / 10, y: Double($0) / 20) }
    XCTAssertEqual(LineSimplification.douglasPeucker(straight, tolerance: 1e-6), [straight[0], straight[10]])
    XCTAssertEqual(
      LineSimplification.douglasPeucker(Array(straight.prefix(2)), tolerance: 5), [straight[0], straight[1]])
  }
}
