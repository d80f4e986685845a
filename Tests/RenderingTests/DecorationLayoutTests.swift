import Foundation
import MapMath
import XCTest

@testable import Rendering

/// The layout JSON's `legend` and `plates` members, exactly.
final class DecorationLayoutTests: XCTestCase {
  func testTheLegendAndPlatesText() throws {
    var layout = MapLayout(
      width: 400, height: 300, scale: 1, format: .png,
      camera: Camera(
        center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: PixelSize(width: 400, height: 300)),
      bounds: GeoBox(north: 1, south: -1, west: -1, east: 1),
      tiles: .init(source: "none", zoom: nil, needed: 0, drawn: 0, missing: 0), annotations: [], user: nil,
      droppedCallouts: [])
    let rect = PixelRect(x: 10, y: 20.004, width: 100.5, height: 40)
    layout.legend = MapLayout.LegendLayout(
      rect: rect, rows: [.init(number: 1, id: "a", title: "Bar \"Ü\"", category: nil)], more: 2,
      categories: [.init(name: "Bar", color: Color(red: 1, green: 0.5, blue: 0))])
    layout.plates = [
      .init(kind: "title", rect: rect, text: "T\nS"), .init(kind: "legend", rect: rect, text: nil),
    ]
    let text = layout.json
    let tail = String(text[try XCTUnwrap(text.range(of: "  \"legend\": {")).lowerBound...])
    let expectedRect = """
      {
            "x": 10,
            "y": 20,
            "width": 100.5,
            "height": 40
          }
      """
    XCTAssertTrue(tail.hasPrefix("  \"legend\": {\n    \"rect\": " + expectedRect), tail)
    XCTAssertTrue(tail.contains("\"title\": \"Bar \\\"Ü\\\"\",\n        \"category\": null"), tail)
    XCTAssertTrue(tail.contains("\"more\": 2,"), tail)
    XCTAssertTrue(tail.contains("\"name\": \"Bar\",\n        \"color\": \"#FF8000\""), tail)
    XCTAssertTrue(tail.contains("\"kind\": \"title\","), tail)
    XCTAssertTrue(tail.contains("\"text\": \"T\\nS\""), tail)
    XCTAssertTrue(tail.contains("\"text\": null"), tail)
  }
}
