import MapMath
import TestSupport
import Tiles
import XCTest

final class BasemapGeometryTests: XCTestCase {
  private let step = 1 / BasemapGeometry.quantization

  func testRoundTripKeepsPointsWithinOneQuantizationStep() throws {
    var generator = SeededGenerator(seed: 26)
    for _ in 0..<200 {
      let parts = (0..<generator.int(in: 0...4)).map { _ in
        (0..<generator.int(in: 0...30)).map { _ in
          WorldPoint(x: generator.double(in: 0..<1), y: generator.double(in: 0..<1))
        }
      }
      let decoded = try XCTUnwrap(BasemapGeometry.decode(BasemapGeometry.encode(parts)))
      XCTAssertEqual(decoded.map(\.count), parts.map(\.count))
      for (part, decodedPart) in zip(parts, decoded) {
        for (point, decodedPoint) in zip(part, decodedPart) {
          XCTAssertLessThanOrEqual(abs(point.x - decodedPoint.x), step / 2)
          XCTAssertLessThanOrEqual(abs(point.y - decodedPoint.y), step / 2)
        }
      }
    }
  }

  func testRoundTripIsExactOnTheGridAndAtTheWorldsEdges() throws {
    let parts = [
      [WorldPoint(x: 0, y: 0), WorldPoint(x: 1, y: 1), WorldPoint(x: 0.5, y: 0.25)],
      [],
      [WorldPoint(x: 1, y: 0), WorldPoint(x: 0, y: 1)],
    ]
    XCTAssertEqual(BasemapGeometry.decode(BasemapGeometry.encode(parts)), parts)
    XCTAssertEqual(BasemapGeometry.decode(BasemapGeometry.encode([])), [])
    // Points outside [0, 1] (another world copy) survive too.
    let outside = [[WorldPoint(x: -0.5, y: 1.5), WorldPoint(x: 2, y: -1)]]
    XCTAssertEqual(BasemapGeometry.decode(BasemapGeometry.encode(outside)), outside)
  }

  func testCorruptBytesDecodeToNilWithoutTrapping() {
    let good = BasemapGeometry.encode([[WorldPoint(x: 0.25, y: 0.75), WorldPoint(x: 0.5, y: 0.5)]])
    // Truncated anywhere, or with bytes after the end.
    for length in 0..<good.count {
      XCTAssertNil(BasemapGeometry.decode(Array(good.prefix(length))), "prefix \(length)")
    }
    XCTAssertNil(BasemapGeometry.decode(good + [0]))
    // Counts far beyond the bytes there are.
    XCTAssertNil(BasemapGeometry.decode([0xFF, 0xFF, 0xFF, 0xFF, 0x0F]))
    XCTAssertNil(BasemapGeometry.decode([1, 0xFF, 0xFF, 0xFF, 0x7F]))
    // A varint that never ends, and one longer than 64 bits.
    XCTAssertNil(BasemapGeometry.decode([0x80, 0x80, 0x80]))
    XCTAssertNil(BasemapGeometry.decode([UInt8](repeating: 0xFF, count: 12) + [1]))
    // Random bytes: never a trap, and whatever decodes re-encodes to a valid encoding.
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<2_000 {
      let bytes = (0..<generator.int(in: 0...24)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      if let parts = BasemapGeometry.decode(bytes) {
        XCTAssertNotNil(BasemapGeometry.decode(BasemapGeometry.encode(parts)))
      }
    }
  }
}
