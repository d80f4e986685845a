import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// The grid that answers "does this rectangle hit anything placed?" for callouts and labels.
final class RectIndexTests: XCTestCase {
  private let image = PixelRect(x: 0, y: 0, width: 800, height: 600)

  func testItAnswersAsCheckingEveryRectangleWould() {
    var generator = SeededGenerator(seed: 7)
    func randomRect() -> PixelRect {
      PixelRect(
        x: Double.random(in: -60...840, using: &generator),
        y: Double.random(in: -60...640, using: &generator),
        width: Double.random(in: 0...80, using: &generator),
        height: Double.random(in: 0...50, using: &generator))
    }
    var index = RectIndex(bounds: image)
    var placed: [(PixelRect, Int)] = []
    for owner in 0..<80 {
      let rect = randomRect()
      index.insert(rect, owner: owner)
      placed.append((rect, owner))
    }
    var hits = 0
    for query in 0..<4000 {
      let rect = randomRect()
      let ignoring = query % 3 == 0 ? query % 80 : nil
      let expected = placed.contains { $0.1 != ignoring && $0.0.intersects(rect) }
      XCTAssertEqual(index.intersects(rect, ignoring: ignoring), expected, "\(rect)")
      if expected { hits += 1 }
    }
    XCTAssertGreaterThan(hits, 500)
    XCTAssertLessThan(hits, 3900)
  }

  func testHugeOrBrokenRectanglesCostTheGridAtMost() {
    var index = RectIndex(bounds: image)
    index.insert(PixelRect(x: -1e15, y: -1e15, width: 2e15, height: 2e15), owner: 1)
    index.insert(PixelRect(x: .nan, y: 0, width: 10, height: 10), owner: 2)
    index.insert(PixelRect(x: 0, y: .infinity, width: 10, height: 10), owner: 3)
    XCTAssertTrue(index.intersects(PixelRect(x: 400, y: 300, width: 1, height: 1)))
    XCTAssertFalse(index.intersects(PixelRect(x: 400, y: 300, width: 1, height: 1), ignoring: 1))
    XCTAssertFalse(index.intersects(PixelRect(x: .nan, y: .nan, width: 1, height: 1), ignoring: 1))
    XCTAssertTrue(index.intersects(PixelRect(x: -1e300, y: -1e300, width: .infinity, height: .infinity)))
  }

  func testRectanglesFarOffTheImageAreNotKept() {
    var index = RectIndex(bounds: image)
    index.insert(PixelRect(x: 5000, y: 10, width: 20, height: 20), owner: 1)
    index.insert(PixelRect(x: 820, y: 10, width: 20, height: 20), owner: 2)
    XCTAssertFalse(index.intersects(PixelRect(x: 4990, y: 0, width: 50, height: 50)))
    XCTAssertTrue(index.intersects(PixelRect(x: 790, y: 0, width: 40, height: 40)))
  }
}
