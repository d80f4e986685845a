import Gzip
import VectorTiles
import XCTest

/// Tiles written by independent encoders (see Tests/Fixtures/vector/README.md) decode to exactly the
/// contents the fixture script put in them.
final class VectorTileFixtureTests: XCTestCase {
  func testKnownTileFromTheMapboxEncoderDecodesExactly() throws {
    try assertDecodes("known.mvt", as: "known.json")
  }

  func testEveryValueTypeAndLayerVersionDecodeExactly() throws {
    let tile = try assertDecodes("value-types.mvt", as: "value-types.json")
    XCTAssertEqual(tile.skippedLayerNames, ["future"], "version 3 layers are skipped, not guessed at")
    XCTAssertEqual(tile[layer: "values"]?.skippedFeatureCount, 1, "the UNKNOWN-type feature")
    XCTAssertEqual(tile[layer: "values"]?.features.first?.id, 0, "an id of 0 that is present stays present")
  }

  func testPropertiesLookUpByKeyAndAsADictionary() throws {
    let tile = try VectorTile(decoding: try VectorFixtures.bytes("known.mvt"))
    let station = try XCTUnwrap(tile[layer: "poi"]?.features.first)
    XCTAssertEqual(station.properties["name"], .string("Senaatintori"))
    XCTAssertEqual(station.properties["rank"]?.number, 3)
    XCTAssertNil(station.properties["missing"])
    XCTAssertEqual(
      station.properties.dictionary,
      ["name": .string("Senaatintori"), "rank": .int(3), "height": .double(12.5), "open": .bool(true)])
    XCTAssertEqual(tile[layer: "poi"]?.keys.first, "name")
  }

  func testTagsIndexTheLayerTablesInPairs() throws {
    let tile = try VectorTile(decoding: try VectorFixtures.bytes("known.mvt"))
    let layer = try XCTUnwrap(tile[layer: "poi"])
    for feature in layer.features {
      let tags = Array(feature.tags)
      XCTAssertEqual(tags.count, 2 * feature.properties.count)
      for (position, property) in feature.properties.enumerated() {
        XCTAssertEqual(layer.keys[Int(tags[2 * position])], property.key)
        XCTAssertEqual(layer.values[Int(tags[2 * position + 1])], property.value)
      }
    }
  }

  func testRealTilemakerTileMatchesThePythonDecoder() throws {
    let compressed = try VectorFixtures.bytes("helsinki-14-9326-4742.mvt.gz")
    let tile = try VectorTile(decoding: try Gzip.inflate(compressed, limit: 8 << 20))
    let expected = try VectorFixtures.layers(try VectorFixtures.json("helsinki-14-9326-4742.json"))
    XCTAssertEqual(tile.layers.map(\.name), try expected.map { try XCTUnwrap($0["name"] as? String) })
    for (layer, want) in zip(tile.layers, expected) {
      XCTAssertEqual(layer.features.count, want["features"] as? Int, layer.name)
      XCTAssertEqual(layer.extent, want["extent"] as? Int, layer.name)
      XCTAssertEqual(layer.skippedFeatureCount + layer.droppedPartCount, 0, layer.name)
      let types = try XCTUnwrap(want["types"] as? [String: Int])
      for type in [VectorTileGeometryType.point, .lineString, .polygon] {
        XCTAssertEqual(
          layer.features.filter { $0.type == type }.count, types[type.description], "\(layer.name) \(type)")
      }
      XCTAssertEqual(layer.features.map(\.properties.count).reduce(0, +), want["propertyPairs"] as? Int)
      var vertices = 0
      var checksum = 0
      for feature in layer.features {
        for point in feature.geometry.points {
          vertices += 1
          checksum = (checksum + vertices * (Int(point.x) * 31 + Int(point.y))) % (1 << 61)
        }
      }
      XCTAssertEqual(vertices, want["vertices"] as? Int, layer.name)
      XCTAssertEqual(checksum, want["checksum"] as? Int, "\(layer.name): vertices in the same order")
    }
  }

  @discardableResult
  private func assertDecodes(
    _ tileName: String, as jsonName: String, file: StaticString = #filePath, line: UInt = #line
  )
    throws -> VectorTile
  {
    let tile = try VectorTile(decoding: try VectorFixtures.bytes(tileName))
    let expected = try VectorFixtures.layers(try VectorFixtures.json(jsonName))
    XCTAssertEqual(tile.layers.count, expected.count, file: file, line: line)
    for (layer, want) in zip(tile.layers, expected) {
      XCTAssertEqual(layer.name, want["name"] as? String, file: file, line: line)
      XCTAssertEqual(layer.version, want["version"] as? Int, file: file, line: line)
      XCTAssertEqual(layer.extent, want["extent"] as? Int, file: file, line: line)
      let features = try XCTUnwrap(want["features"] as? [[String: Any]]).map(FeatureContents.init(json:))
      XCTAssertEqual(layer.features.map(FeatureContents.init), features, layer.name, file: file, line: line)
    }
    return tile
  }
}
