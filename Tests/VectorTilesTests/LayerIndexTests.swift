import Gzip
import VectorTiles
import XCTest

/// A tile's layers found first and decoded each on its own (`VectorTileLayerIndex`), as the map does on
/// all cores: the same layers, features and errors as decoding the tile in order.
final class LayerIndexTests: XCTestCase {
  private func contents(_ tile: VectorTile) -> [[FeatureContents]] {
    tile.layers.map { $0.features.map(FeatureContents.init) }
  }

  func testLayersDecodedOutOfOrderMakeTheTileDecodedInOrder() throws {
    let bytes = try Gzip.inflate(try VectorFixtures.bytes("helsinki-14-9326-4742.mvt.gz"), limit: 8 << 20)
    for wanted in [nil, ["building", "transportation", "water", "absent"]] as [Set<String>?] {
      let whole = try VectorTile(decoding: bytes, layers: wanted)
      let index = try VectorTileLayerIndex(bytes, layers: wanted)
      XCTAssertTrue(index.layersAreIndependent)
      XCTAssertEqual(index.layerCount, whole.layers.count)
      var decoded = [Result<VectorTileLayer, VectorTileError>?](repeating: nil, count: index.layerCount)
      for layer in (0..<index.layerCount).reversed() {
        decoded[layer] = Result { () throws(VectorTileError) in try index.layer(layer) }
      }
      let tile = try index.tile(from: decoded.map { try XCTUnwrap($0) })
      XCTAssertEqual(tile.layers.map(\.name), whole.layers.map(\.name))
      XCTAssertEqual(contents(tile), contents(whole))
      XCTAssertEqual(contents(try index.decodeAll()), contents(whole))
    }
    XCTAssertGreaterThan(try VectorTileLayerIndex(bytes).layerCount, 5, "a real tile of many layers")
  }

  func testTheFirstBrokenLayerInOrderIsTheTilesError() throws {
    let bytes = HandTile.tile([
      HandTile.layer(name: "fine"),
      HandTile.layer(name: "unknown command", features: [HandTile.feature(geometry: [12, 0, 0])]),
      HandTile.layer(
        name: "too many", features: [HandTile.feature(geometry: [HandTile.command(1, 5), 0, 0])]),
      HandTile.layer(name: "old", version: 7),
    ])
    let index = try VectorTileLayerIndex(bytes)
    XCTAssertEqual(index.skippedLayerNames, ["old"])
    let decoded = (0..<index.layerCount).reversed().map { layer in
      Result { () throws(VectorTileError) in try index.layer(layer) }
    }.reversed()
    var inOrder: VectorTileError?
    XCTAssertThrowsError(try VectorTile(decoding: bytes)) { inOrder = $0 as? VectorTileError }
    XCTAssertEqual(inOrder?.reason, .unknownCommand(4))
    XCTAssertThrowsError(try index.tile(from: Array(decoded))) {
      XCTAssertEqual($0 as? VectorTileError, inOrder)
    }
  }

  /// Each layer alone stays within the point limit, together they pass it: only a tile large enough
  /// for that (two bytes a point at least) is decoded in order, where the second layer finds the budget
  /// spent.
  func testATileLargeEnoughToPassThePointLimitDecodesInOrder() throws {
    let count = UInt32(VectorTileLimits.maximumPointCount * 3 / 4)
    var geometry: [UInt32] = [9, 0, 0, HandTile.command(2, count)]
    geometry += [UInt32](repeating: 2, count: Int(count) * 2)
    let line = HandTile.feature(type: 2, geometry: geometry)
    let bytes = HandTile.tile([
      HandTile.layer(name: "a", features: [line]), HandTile.layer(name: "b", features: [line]),
    ])
    let index = try VectorTileLayerIndex(bytes)
    XCTAssertFalse(index.layersAreIndependent)
    XCTAssertThrowsError(try index.decodeAll()) {
      XCTAssertEqual(
        ($0 as? VectorTileError)?.reason, .tooMany(.points, limit: VectorTileLimits.maximumPointCount))
    }
    XCTAssertEqual(try VectorTileLayerIndex(bytes, layers: ["b"]).decodeAll().layers.map(\.name), ["b"])
  }
}
