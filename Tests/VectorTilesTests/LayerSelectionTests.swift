import VectorTiles
import XCTest

/// Decoding only the layers a style uses.
final class LayerSelectionTests: XCTestCase {
  func testOnlyTheNamedLayersAreDecodedAndTheyMatchAFullDecode() throws {
    let bytes = try VectorFixtures.bytes("known.mvt")
    let full = try VectorTile(decoding: bytes)
    let water = try VectorTile(decoding: bytes, layers: ["water", "absent"])
    XCTAssertEqual(water.layers.map(\.name), ["water"])
    XCTAssertEqual(
      water.layers[0].features.map(FeatureContents.init),
      try XCTUnwrap(full[layer: "water"]).features.map(FeatureContents.init))
    XCTAssertEqual(try VectorTile(decoding: bytes, layers: []).layers.count, 0)
  }

  func testLayerNamesAreListedWithoutDecodingFeatures() throws {
    XCTAssertEqual(
      try VectorTile.layerNames(in: try VectorFixtures.bytes("known.mvt")),
      ["poi", "transportation", "water"])
    XCTAssertEqual(
      try VectorTile.layerNames(in: try VectorFixtures.bytes("value-types.mvt")),
      ["values", "legacy", "future"])
  }

  func testDamageInsideAnUnwantedLayersFeaturesDoesNotMatter() throws {
    let broken = HandTile.layer(name: "broken", features: [HandTile.feature(geometry: [12, 0, 0])])
    let fine = HandTile.layer(name: "fine")
    let bytes = HandTile.tile([broken, fine])
    XCTAssertEqual(try VectorTile(decoding: bytes, layers: ["fine"]).layers.map(\.name), ["fine"])
    XCTAssertThrowsError(try VectorTile(decoding: bytes)) {
      XCTAssertEqual(($0 as? VectorTileError)?.reason, .unknownCommand(4))
    }
  }
}
