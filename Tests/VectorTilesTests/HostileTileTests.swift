import Gzip
import TestSupport
import VectorTiles
import XCTest

/// Tiles made to break a decoder: each gives a `VectorTileError` naming the reason and byte, within
/// the limits, and never a crash.
final class HostileTileTests: XCTestCase {
  func testEveryTruncationIsReportedAsTruncated() throws {
    for name in ["known.mvt", "value-types.mvt"] {
      let whole = try VectorFixtures.bytes(name)
      let names = try VectorTile(decoding: whole).layers.map(\.name)
      for length in 0..<whole.count {
        do {
          // Only a cut between two layers leaves a valid tile: the layers before the cut.
          let tile = try VectorTile(decoding: whole[..<length])
          XCTAssertEqual(tile.layers.map(\.name), Array(names.prefix(tile.layers.count)), "\(name) \(length)")
          XCTAssertLessThan(tile.layers.count + tile.skippedLayerNames.count, names.count + 1)
        } catch {
          XCTAssertEqual(error.reason, .truncated, "\(name) cut at \(length)")
          XCTAssertLessThanOrEqual(error.offset, length)
        }
      }
    }
  }

  func testRandomDamageGivesErrorsInsideTheTile() throws {
    let whole = try VectorFixtures.bytes("known.mvt")
    var random = SeededGenerator(seed: 2024)
    var failures = 0
    for _ in 0..<3000 {
      var damaged = whole
      for _ in 0...random.int(in: 0...2) {
        damaged[random.int(in: 0...(whole.count - 1))] = UInt8(truncatingIfNeeded: random.next())
      }
      do {
        let tile = try VectorTile(decoding: damaged)
        let vertices = tile.layers.flatMap(\.features).map { $0.geometry.points.count }.reduce(0, +)
        XCTAssertLessThanOrEqual(vertices, whole.count, "every vertex costs at least two bytes")
      } catch {
        failures += 1
        XCTAssertTrue((0...whole.count).contains(error.offset), "\(error)")
      }
    }
    XCTAssertGreaterThan(failures, 300, "damage is noticed, not decoded as something else every time")
  }

  func testEndlessAndOverlongVarintsAreRefused() throws {
    assertError([UInt8](repeating: 0xFF, count: 1 << 20), .malformedVarint, at: 0)
    // Ten bytes whose last carries more than the 64th bit.
    assertError([UInt8](repeating: 0xFF, count: 9) + [0x02], .malformedVarint, at: 0)
    // The largest 64-bit id takes ten bytes and is fine.
    let tile = HandTile.tile([HandTile.layer(features: [HandTile.feature(id: .max)])])
    XCTAssertEqual(try VectorTile(decoding: tile).layers.first?.features.first?.id, .max)
  }

  func testWrongAndUnsupportedWireTypesAreNamed() {
    assertError([0x1B], .unsupportedWireType(3), at: 0, "a group start")
    assertError([0x0F], .unsupportedWireType(7), at: 0)
    assertError([0x02, 0x00], .invalidFieldNumber, at: 0)
    assertError([0x1D, 0, 0, 0, 0], .unexpectedWireType(field: "tile.layers", wireType: 5), at: 0)
    let numericName = ProtobufMessage { $0.field(1, varint: 7) }
    assertError(HandTile.tile([numericName]), .unexpectedWireType(field: "layer.name", wireType: 0), at: 2)
    let floatAsVarint = ProtobufMessage { $0.field(2, varint: 1) }
    let layer = HandTile.layer(
      features: [HandTile.feature(tags: [0, 0])], keys: ["k"], values: [floatAsVarint])
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([layer]))) {
      XCTAssertEqual(
        ($0 as? VectorTileError)?.reason, .unexpectedWireType(field: "value.float_value", wireType: 0))
    }
  }

  func testUnknownFieldsAreSkippedHoweverDeeplyNested() throws {
    var nested = ProtobufMessage { $0.field(1, string: "deepest") }
    for level in 0..<1000 {
      nested = ProtobufMessage {
        $0.field(1 + level % 20, message: nested)
        $0.field(99, fixed32: 1)
        $0.field(98, fixed64: 2)
        $0.field(97, varint: 3)
      }
    }
    var feature = HandTile.feature(id: 5)
    feature.field(8, message: nested)
    var layer = HandTile.layer(features: [feature])
    layer.field(16, message: nested)
    var tile = ProtobufMessage()
    tile.field(4, message: nested)
    tile.bytes += HandTile.tile([layer])
    let decoded = try VectorTile(decoding: tile.bytes)
    XCTAssertEqual(decoded.layers.first?.features.first?.id, 5)
  }

  func testRepeatedFieldsLastWinsOrAreRefused() throws {
    var feature = ProtobufMessage()
    for id in 0..<100_000 { feature.field(1, varint: UInt64(id)) }
    feature.field(3, varint: 1)
    feature.field(4, packed: [9, 2, 2])
    var layer = HandTile.layer(name: "first", features: [feature])
    layer.field(1, string: "second")
    let tile = try VectorTile(decoding: HandTile.tile([layer]))
    XCTAssertEqual(tile.layers.first?.name, "second")
    XCTAssertEqual(tile.layers.first?.features.first?.id, 99_999)

    var twoGeometries = HandTile.feature()
    twoGeometries.field(4, packed: [9, 2, 2])
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([HandTile.layer(features: [twoGeometries])])))
    {
      XCTAssertEqual(($0 as? VectorTileError)?.reason, .duplicateField("feature.geometry"))
    }
    var twoTags = HandTile.feature(tags: [0, 0])
    twoTags.field(2, packed: [0, 0])
    let tagged = HandTile.layer(features: [twoTags], keys: ["k"], values: [HandTile.stringValue("v")])
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([tagged]))) {
      XCTAssertEqual(($0 as? VectorTileError)?.reason, .duplicateField("feature.tags"))
    }
  }

  func testBadLayersAndTagsAreRefused() {
    assertError(HandTile.tile([ProtobufMessage { $0.field(15, varint: 2) }]), .missingLayerName, at: 0)
    assertError(HandTile.tile([HandTile.layer(extent: 0)]), .invalidExtent(0), at: 20)
    let values = [HandTile.stringValue("v")]
    for (tags, reason) in [
      ([0, 0, 0] as [UInt32], VectorTileError.Reason.oddTagCount),
      ([1, 0], .tagOutOfRange(index: 1, count: 1)),
      ([0, 3], .tagOutOfRange(index: 3, count: 1)),
    ] {
      let layer = HandTile.layer(features: [HandTile.feature(tags: tags)], keys: ["k"], values: values)
      XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([layer]))) {
        XCTAssertEqual(($0 as? VectorTileError)?.reason, reason)
      }
    }
    let typeless = HandTile.layer(
      features: [HandTile.feature(tags: [0, 0])], keys: ["k"],
      values: [ProtobufMessage { $0.field(9, varint: 1) }])
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([typeless]))) {
      XCTAssertEqual(($0 as? VectorTileError)?.reason, .valueWithoutType)
    }
  }

  func testCountsPastTheLimitsAreRefused() {
    let oneLayer = HandTile.tile([HandTile.layer(features: [])])
    let layers = Array([[UInt8]](repeating: oneLayer, count: VectorTileLimits.maximumLayerCount + 1).joined())
    assertError(
      layers, .tooMany(.layers, limit: VectorTileLimits.maximumLayerCount), at: oneLayer.count * 1000)

    var many = HandTile.layer(features: [])
    let feature = HandTile.feature()
    for _ in 0...VectorTileLimits.maximumFeatureCount { many.field(2, message: feature) }
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile([many]))) {
      XCTAssertEqual(
        ($0 as? VectorTileError)?.reason, .tooMany(.features, limit: VectorTileLimits.maximumFeatureCount))
    }

    // One line of two million and one vertices, one byte per parameter.
    let count = UInt32(VectorTileLimits.maximumPointCount)
    var geometry: [UInt32] = [9, 0, 0, HandTile.command(2, count)]
    geometry += [UInt32](repeating: 2, count: Int(count) * 2)
    XCTAssertThrowsError(try VectorTile(decoding: HandTile.tile(type: 2, geometry: geometry))) {
      XCTAssertEqual(
        ($0 as? VectorTileError)?.reason, .tooMany(.points, limit: VectorTileLimits.maximumPointCount))
    }
  }

  func testAGzipBombStopsInGzipBeforeDecoding() throws {
    var layer = HandTile.layer()
    layer.field(20, bytes: [UInt8](repeating: 0, count: 32 << 20))
    let bomb = try Gzip.deflate(HandTile.tile([layer]), level: 9)
    XCTAssertLessThan(bomb.count, 64 << 10)
    XCTAssertThrowsError(try Gzip.inflate(bomb, limit: 8 << 20)) {
      XCTAssertEqual($0 as? GzipError, .tooLarge(limit: 8 << 20))
    }
    XCTAssertEqual(try VectorTile(decoding: try Gzip.inflate(bomb, limit: 64 << 20)).layers.count, 1)
  }

  func testErrorsSayWhereAndWhat() {
    XCTAssertEqual(
      VectorTileError(.truncated, offset: 12).description,
      "vector tile damaged at byte 12: a field runs past the end of the tile or its message")
    XCTAssertEqual(
      VectorTileError(.tooMany(.points, limit: 2_000_000), offset: 5).description,
      "vector tile damaged at byte 5: more than 2000000 points")
  }

  private func assertError(
    _ bytes: [UInt8], _ reason: VectorTileError.Reason, at offset: Int, _ message: String = "",
    line: UInt = #line
  ) {
    XCTAssertThrowsError(try VectorTile(decoding: bytes), message, line: line) {
      XCTAssertEqual($0 as? VectorTileError, VectorTileError(reason, offset: offset), message, line: line)
    }
  }
}
