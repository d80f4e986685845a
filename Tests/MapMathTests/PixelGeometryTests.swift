import MapMath
import XCTest

/// The small rectangle helpers the fitting and the overlay layout build on.
final class PixelGeometryTests: XCTestCase {
  private let pin = PixelRect(x: -8, y: -40, width: 16, height: 40)

  func testEdgesAndMiddle() {
    XCTAssertEqual(pin.minX, -8)
    XCTAssertEqual(pin.maxX, 8)
    XCTAssertEqual(pin.minY, -40)
    XCTAssertEqual(pin.maxY, 0)
    XCTAssertEqual(pin.midX, 0)
    XCTAssertEqual(pin.midY, -20)
  }

  func testTouchingRectanglesDoNotIntersect() {
    let right = pin.offsetBy(dx: 16, dy: 0)
    XCTAssertFalse(pin.intersects(right))
    XCTAssertTrue(pin.intersects(pin.offsetBy(dx: 15.5, dy: 0)))
    XCTAssertFalse(pin.intersects(pin.offsetBy(dx: 0, dy: 40)))
  }

  func testContainsIncludesEdges() {
    let frame = PixelRect(x: 0, y: 0, width: 100, height: 50)
    XCTAssertTrue(frame.contains(frame))
    XCTAssertTrue(frame.contains(pin.offsetBy(dx: 8, dy: 40)))
    XCTAssertFalse(frame.contains(pin.offsetBy(dx: 7.9, dy: 40)))
    XCTAssertTrue(frame.contains(PixelPoint(x: 100, y: 50)))
    XCTAssertFalse(frame.contains(PixelPoint(x: 100.1, y: 50)))
  }

  func testTheRectangleEnclosingPoints() {
    XCTAssertNil(PixelRect.enclosing([]))
    XCTAssertEqual(
      PixelRect.enclosing([PixelPoint(x: 3, y: -2)]), PixelRect(x: 3, y: -2, width: 0, height: 0))
    XCTAssertEqual(
      PixelRect.enclosing([PixelPoint(x: 3, y: -2), PixelPoint(x: -1, y: 5), PixelPoint(x: 2, y: 9)]),
      PixelRect(x: -1, y: -2, width: 4, height: 11))
  }

  func testUnionInsetOffsetAndScale() {
    let union = pin.union(PixelRect(x: 20, y: 5, width: 10, height: 10))
    XCTAssertEqual(union, PixelRect(x: -8, y: -40, width: 38, height: 55))
    XCTAssertEqual(union.insetBy(dx: 2, dy: 5), PixelRect(x: -6, y: -35, width: 34, height: 45))
    XCTAssertEqual(union.insetBy(dx: -1, dy: -1), PixelRect(x: -9, y: -41, width: 40, height: 57))
    XCTAssertEqual(pin.scaled(by: 2), PixelRect(x: -16, y: -80, width: 32, height: 80))
    XCTAssertEqual(pin.offsetBy(dx: 100, dy: 200), PixelRect(x: 92, y: 160, width: 16, height: 40))
  }

  func testPointAnnotation() {
    let annotation = PointAnnotation(identifier: "eiffel", coordinate: Sample.paris, title: "Eiffel Tower")
    XCTAssertNil(annotation.subtitle)
    let generic: any Annotation = annotation
    XCTAssertEqual(generic.identifier, "eiffel")
    XCTAssertEqual(generic.coordinate, Sample.paris)
    XCTAssertEqual(generic.title, "Eiffel Tower")
  }
}
