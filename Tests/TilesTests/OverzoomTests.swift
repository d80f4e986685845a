import MapMath
import Tiles
import XCTest

final class OverzoomTests: XCTestCase {
  func testAncestorAndSection() throws {
    let section = try XCTUnwrap(tile(7, 77, 42).ancestorSection(atZoom: 5))
    XCTAssertEqual(section.ancestor, tile(5, 19, 10))
    XCTAssertEqual(section.zoomDifference, 2)
    XCTAssertEqual(section.unitRect.x, 0.25)
    XCTAssertEqual(section.unitRect.y, 0.5)
    XCTAssertEqual(section.unitRect.side, 0.25)
    let pixels = section.pixelRect(tileSize: 256)
    XCTAssertEqual(pixels.x, 64)
    XCTAssertEqual(pixels.y, 128)
    XCTAssertEqual(pixels.side, 64)
  }

  func testSameZoomIsTheWholeTile() throws {
    let section = try XCTUnwrap(tile(3, 5, 6).ancestorSection(atZoom: 3))
    XCTAssertEqual(section.ancestor, tile(3, 5, 6))
    XCTAssertEqual(section.pixelRect(tileSize: 512).side, 512)
    XCTAssertEqual(section.unitRect.x, 0)
  }

  func testOutOfRangeZooms() {
    XCTAssertNil(tile(3, 1, 1).ancestorSection(atZoom: 4))
    XCTAssertNil(tile(3, 1, 1).ancestorSection(atZoom: -1))
  }

  func testAncestorAgreesWithParent() throws {
    let deep = tile(12, 2_345, 1_234)
    var parent = deep
    for zoom in stride(from: 11, through: 0, by: -1) {
      parent = try XCTUnwrap(parent.parent)
      XCTAssertEqual(deep.ancestorSection(atZoom: zoom)?.ancestor, parent)
    }
  }

  func testSourceOverzoom() throws {
    let source = try MBTilesSource(path: worldFixturePath)  // tops out at zoom 5
    XCTAssertEqual(source.overzoom(tile(4, 3, 2)).ancestor, tile(4, 3, 2))
    let deep = source.overzoom(tile(8, 255, 128))
    XCTAssertEqual(deep.ancestor, tile(5, 31, 16))
    XCTAssertEqual(deep.pixelRect(tileSize: 256).x, 224)
    XCTAssertEqual(deep.pixelRect(tileSize: 256).y, 0)
    XCTAssertEqual(deep.pixelRect(tileSize: 256).side, 32)
    XCTAssertNotNil(try source.tileData(deep.ancestor))
  }
}
