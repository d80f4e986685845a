import MapMath
import TestSupport
import Tiles
import XCTest

/// TileID ↔ PMTiles tile id along the Hilbert curves of spec §4.1.
final class PMTilesTileIDTests: XCTestCase {
  func testTheSpecsExamples() {
    let examples: [(Int, Int, Int, UInt64)] = [
      (0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5),
      (12, 3423, 1763, 19_078_479),
    ]
    for (z, x, y, id) in examples {
      XCTAssertEqual(tile(z, x, y).pmtilesID, id, "\(z)/\(x)/\(y)")
      XCTAssertEqual(TileID(pmtilesID: id), tile(z, x, y), "id \(id)")
    }
  }

  func testEveryTileUpToZoom8RoundTripsAndIdsAreConsecutive() {
    var expected: UInt64 = 0
    var seen = Set<UInt64>()
    for z in 0...8 {
      let first = expected
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = tile(z, x, y).pmtilesID
          XCTAssertEqual(TileID(pmtilesID: id), tile(z, x, y))
          seen.insert(id)
        }
      }
      expected += UInt64(1) << UInt64(2 * z)
      XCTAssertEqual(
        seen.filter { $0 >= first && $0 < expected }.count, 1 << (2 * z), "zoom \(z) fills its range")
    }
  }

  func testNeighboursOnTheCurveAreNeighboursOnTheMap() {
    for id in tile(6, 0, 0).pmtilesID..<tile(7, 0, 0).pmtilesID - 1 {
      guard let a = TileID(pmtilesID: id), let b = TileID(pmtilesID: id + 1) else {
        return XCTFail("id \(id)")
      }
      XCTAssertEqual(abs(a.x - b.x) + abs(a.y - b.y), 1, "\(a) → \(b)")
    }
  }

  func testTheDeepestZoomAndBeyond() {
    let corner = tile(30, (1 << 30) - 1, (1 << 30) - 1)
    XCTAssertEqual(TileID(pmtilesID: corner.pmtilesID), corner)
    let last = tile(30, (1 << 30) - 1, 0)
    // The curve of each zoom ends in the top right corner; zoom 31 would start at (4^31 - 1) / 3.
    XCTAssertEqual(last.pmtilesID, ((UInt64(1) << 62) - 1) / 3 - 1)
    XCTAssertNil(TileID(pmtilesID: last.pmtilesID + 1), "zoom 31 is past what TileID holds")
    XCTAssertNil(TileID(pmtilesID: .max))
  }
}
