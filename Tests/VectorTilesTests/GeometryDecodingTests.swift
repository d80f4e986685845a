import VectorTiles
import XCTest

/// Geometry command streams (spec §4.3), from the spec's own examples to every way one can be wrong.
final class GeometryDecodingTests: XCTestCase {
  private typealias Point = VectorTilePoint

  func testSpecExamplesOfPointsAndLines() throws {
    XCTAssertEqual(try parts(type: 1, [9, 50, 34]), [[Point(x: 25, y: 17)]])
    XCTAssertEqual(try parts(type: 1, [17, 10, 14, 3, 9]), [[Point(x: 5, y: 7), Point(x: 3, y: 2)]])
    XCTAssertEqual(
      try parts(type: 2, [9, 4, 4, 18, 0, 16, 16, 0]),
      [[Point(x: 2, y: 2), Point(x: 2, y: 10), Point(x: 10, y: 10)]])
    XCTAssertEqual(
      try parts(type: 2, [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8]),
      [
        [Point(x: 2, y: 2), Point(x: 2, y: 10), Point(x: 10, y: 10)], [Point(x: 1, y: 1), Point(x: 3, y: 5)],
      ])
  }

  func testSpecExamplesOfPolygons() throws {
    let single = try geometry(type: 3, [9, 6, 12, 18, 10, 12, 24, 44, 15])
    XCTAssertEqual(
      single.parts.map(Array.init), [[Point(x: 3, y: 6), Point(x: 8, y: 12), Point(x: 20, y: 34)]])
    XCTAssertEqual(single.polygons.map(\.count), [1])

    // The spec's multipolygon: a square, then a square with a hole.
    let multi = try geometry(
      type: 3,
      [
        9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0,
        0, 7,
        15,
      ])
    XCTAssertEqual(multi.polygons.map(\.count), [1, 2])
    XCTAssertEqual(
      multi.polygons[1][1].map { $0 },
      [Point(x: 13, y: 13), Point(x: 13, y: 17), Point(x: 17, y: 17), Point(x: 17, y: 13)])
    XCTAssertEqual(multi.points.count, 12)
  }

  func testZeroAreaRingsAndOrphanHolesAreDroppedAndCounted() throws {
    // A flat "ring" (all on one line), then a hole with no exterior before it, then a real square.
    let flat: [UInt32] = [9, 0, 0, 18, 20, 0, 20, 0, 15]
    let hole: [UInt32] = [9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15]
    let square: [UInt32] = [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15]
    let layer = try onlyLayer(HandTile.tile(type: 3, geometry: flat + hole + square))
    XCTAssertEqual(layer.droppedPartCount, 2)
    XCTAssertEqual(layer.features.first?.geometry.polygons.map(\.count), [1])
    XCTAssertEqual(
      layer.features.first?.geometry.points.first, Point(x: 30, y: 0), "dropped rings still move the cursor")

    let nothingLeft = try onlyLayer(HandTile.tile(type: 3, geometry: flat))
    XCTAssertEqual(nothingLeft.features.count, 0)
    XCTAssertEqual(nothingLeft.skippedFeatureCount, 1, "a polygon with no area left is skipped")
  }

  func testVersionOneLayersTakeTheFirstRingsWinding() throws {
    let counterClockwise: [UInt32] = [9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15]
    let clockwise: [UInt32] = [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15]
    let legacy = try onlyLayer(HandTile.tile(type: 3, geometry: counterClockwise + clockwise, version: 1))
    XCTAssertEqual(legacy.features.first?.geometry.polygons.map(\.count), [2])
    let current = try onlyLayer(HandTile.tile(type: 3, geometry: counterClockwise + clockwise, version: 2))
    XCTAssertEqual(
      current.features.first?.geometry.polygons.map(\.count), [1], "version 2: the hole came first")
    XCTAssertEqual(current.droppedPartCount, 1)
  }

  func testDegenerateLinesAreDroppedAndRingsNeedNoClosePath() throws {
    // A MoveTo with two points: the first would start a line of one vertex.
    let layer = try onlyLayer(HandTile.tile(type: 2, geometry: [17, 2, 2, 4, 4, 10, 2, 2]))
    XCTAssertEqual(layer.droppedPartCount, 1)
    XCTAssertEqual(
      layer.features.first?.geometry.parts.map(Array.init), [[Point(x: 3, y: 3), Point(x: 4, y: 4)]])
    // A ring ended by the next MoveTo or by the end of the geometry still counts.
    let open = try geometry(type: 3, [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 9, 40, 40, 26, 20, 0, 0, 20, 19, 0])
    XCTAssertEqual(open.polygons.map(\.count), [1, 1])
  }

  func testARingThatRepeatsItsFirstVertexIsKeptOpen() throws {
    // MoveTo (0,0), LineTo (10,0) (10,10) (0,10) (0,0), ClosePath, as tilemaker sometimes writes.
    let closed = try geometry(type: 3, [9, 0, 0, 34, 20, 0, 0, 20, 19, 0, 0, 19, 15])
    XCTAssertEqual(
      closed.parts.map(Array.init),
      [[Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]])
    // Lines keep a last vertex equal to the first: a closed line is a loop, not a ring.
    XCTAssertEqual(try parts(type: 2, [9, 0, 0, 26, 20, 0, 0, 20, 19, 19]).first?.count, 4)
  }

  func testCoordinatesOutsideTheExtentAreKept() throws {
    XCTAssertEqual(
      try parts(type: 1, [17, HandTile.zigzag(-128), HandTile.zigzag(-64), HandTile.zigzag(8320), 0]),
      [[Point(x: -128, y: -64), Point(x: 8192, y: -64)]])
  }

  func testBrokenCommandStreamsNameTheProblemAndByte() throws {
    // Each tile: layer "layer" version 2 with one feature; the geometry's first byte sits at offset 17.
    let start = 17
    assertError(type: 1, [9, 2, 2, 10, 2, 2], .commandNotAllowed(command: 2, type: .point), at: start + 3)
    assertError(type: 2, [9, 2, 2, 15], .commandNotAllowed(command: 7, type: .lineString), at: start + 3)
    assertError(type: 2, [10, 2, 2], .missingMoveTo, at: start)
    assertError(type: 3, [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 15], .missingMoveTo, at: start + 11)
    assertError(type: 3, [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 23], .closePathCount(2), at: start + 10)
    assertError(type: 1, [12, 2, 2], .unknownCommand(4), at: start)
    assertError(type: 1, [9, 2], .commandCountTooLarge(1), at: start)
    assertError(type: 1, [HandTile.command(1, 1 << 28), 2, 2], .commandCountTooLarge(1 << 28), at: start)
    assertError(type: 1, [17, HandTile.zigzag(.max), 0, 2, 0], .coordinateOutOfRange, at: start + 7)
  }

  func testGeometryIntegersWiderThan32BitsAreRefused() throws {
    let geometry = ProtobufMessage {
      $0.varint(9)
      $0.varint(1 << 33)
      $0.varint(2)
    }
    let feature = ProtobufMessage {
      $0.field(3, varint: 1)
      $0.field(4, bytes: geometry.bytes)
    }
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([HandTile.layer(features: [feature])]))) {
      XCTAssertEqual(($0 as? VectorTileError)?.reason, .geometryIntegerTooLarge(1 << 33))
    }
  }

  // MARK: - Helpers

  private func onlyLayer(_ bytes: [UInt8]) throws -> VectorTileLayer {
    let tile = try VectorTile(decoding: bytes)
    XCTAssertEqual(tile.layers.count, 1)
    return try XCTUnwrap(tile.layers.first)
  }

  private func geometry(type: UInt64, _ commands: [UInt32]) throws -> VectorTileGeometry {
    let layer = try onlyLayer(HandTile.tile(type: type, geometry: commands))
    XCTAssertEqual(layer.droppedPartCount, 0)
    return try XCTUnwrap(layer.features.first).geometry
  }

  private func parts(type: UInt64, _ commands: [UInt32]) throws -> [[Point]] {
    try geometry(type: type, commands).parts.map(Array.init)
  }

  private func assertError(
    type: UInt64, _ commands: [UInt32], _ reason: VectorTileError.Reason, at offset: Int, line: UInt = #line
  ) {
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile(type: type, geometry: commands)), line: line)
    {
      XCTAssertEqual($0 as? VectorTileError, VectorTileError(reason, offset: offset), line: line)
    }
  }
}
