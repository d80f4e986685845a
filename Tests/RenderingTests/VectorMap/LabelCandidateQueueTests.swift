import Foundation
import MapMath
import MapStyle
import XCTest

@testable import Rendering

/// The label candidates of each layer are the same whichever thread collects them, and each layer's
/// are handed out once, whole.
final class LabelCandidateQueueTests: XCTestCase {
  private struct Setup {
    let symbols: [(StyleLayer, SymbolStyle)]
    let tiles: [MapTile]
    let view: PixelRect
    let zoom: Double

    func queue() -> LabelCandidateQueue {
      LabelCandidateQueue(
        symbols, tiles: tiles, view: view, zoom: zoom, fontFallback: VectorMapLayer.defaultFontFallback)
    }

    /// Reads the tiles through `FeatureLayer`s of its own, as each thread does.
    func sources() -> (String) -> [FeatureLayer?] { Setup.sources(tiles) }

    static func sources(_ tiles: [MapTile]) -> (String) -> [FeatureLayer?] {
      { name in
        tiles.enumerated().map { index, tile in
          tile.layer(name).map { FeatureLayer(layer: $0, tileIndex: index) }
        }
      }
    }
  }

  private func setup() throws -> Setup {
    let style = try VectorMapFixtures.style("light")
    let camera = try VectorMapFixtures.exampleCamera()
    let tiling = try VectorMapTiling(camera: camera, zoomRange: try VectorMapFixtures.archive().zoomRange)
    let symbols: [(StyleLayer, SymbolStyle)] = style.layers.compactMap { layer in
      guard case .symbol(let symbol) = layer.kind, layer.isShown(atZoom: tiling.styleZoom) else { return nil }
      return (layer, symbol)
    }
    let tiles = MapTile.load(
      tiling.placements, from: try VectorMapFixtures.archive(),
      layers: Set(symbols.compactMap { $0.0.sourceLayer }))
    return Setup(
      symbols: symbols, tiles: tiles,
      view: PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height),
      zoom: tiling.styleZoom)
  }

  /// Each layer's candidates as texts in order, top layer first.
  private func texts(_ queue: LabelCandidateQueue, layers: Int, sources: (String) -> [FeatureLayer?])
    -> [[String]]
  {
    (0..<layers).reversed().map { index in queue.candidates(index, sources: sources).map(\.text) }
  }

  func testEveryWayOfSharingGivesTheSameCandidates() throws {
    let setup = try setup()
    XCTAssertGreaterThanOrEqual(setup.symbols.count, 3, "the light style's label layers")
    let alone = texts(setup.queue(), layers: setup.symbols.count, sources: setup.sources())
    XCTAssertTrue(alone.joined().contains("Aleksanterinkatu"), "the street names are candidates")

    // The helper collects everything first.
    let helped = setup.queue()
    helped.help(sources: setup.sources())
    XCTAssertEqual(texts(helped, layers: setup.symbols.count, sources: setup.sources()), alone)

    // The helper on a thread of its own while this one takes the layers, many times over.
    for _ in 0..<20 {
      let shared = setup.queue()
      let tiles = setup.tiles
      let helper = SideThread { shared.help(sources: Setup.sources(tiles)) }
      XCTAssertEqual(texts(shared, layers: setup.symbols.count, sources: setup.sources()), alone)
      helper.join()
    }
  }

  func testALayerIsHandedOutOnce() throws {
    let setup = try setup()
    let queue = setup.queue()
    queue.help(sources: setup.sources())
    let index = try XCTUnwrap(setup.symbols.firstIndex { $0.0.id == "street-name-minor" })
    XCTAssertFalse(queue.candidates(index, sources: setup.sources()).isEmpty)
    // Handed over: the queue keeps nothing of it.
    XCTAssertTrue(queue.candidates(index, sources: setup.sources()).isEmpty)
  }
}
