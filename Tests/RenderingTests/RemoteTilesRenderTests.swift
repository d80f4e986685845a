import Foundation
import MapMath
import TestSupport
import TileFetching
import Tiles
import XCTest

@testable import Rendering

/// Renders over a `RemoteTileSource` backed by the fake tile server (tile_server.py's behaviours, in
/// virtual time): the Snapshotter fetches the tiles a map needs into the cache before it draws them.
final class RemoteTilesRenderTests: XCTestCase {
  private var server: FakeTileServer!
  private var directory: TemporaryDirectory!

  override func setUpWithError() throws {
    server = FakeTileServer(clock: VirtualClock(Date()))
    directory = try TemporaryDirectory(prefix: "mymap-remote-render")
  }

  override func tearDown() {
    server = nil
    directory?.remove()
    directory = nil
  }

  private var cachePath: String { directory.url("cache").path }

  /// A new source (and cache object) over the one cache folder of the test.
  private func remote(
    _ behaviour: String, settings: RemoteTileSource.Settings = RemoteTileSource.Settings()
  ) throws -> RemoteTileSource {
    let template = try server.template(behaviour)
    let cache = try openTileCache(
      at: cachePath,
      for: TileCacheDescription(source: template.redacted, attribution: "© Test tiles", tileSize: 256))
    return RemoteTileSource(
      template: template, cache: cache,
      fetcher: server.fetcher(version: "0.0.1-test", policy: TileFetchPolicy(baseDelay: 0, timeout: 5)),
      attribution: "© Test tiles", settings: settings)
  }

  private func request(_ source: RemoteTileSource) -> RenderRequest {
    var request = RenderKit.request([RenderKit.place("paris", 48.8566, 2.3522)], width: 200, height: 150)
    request.showCallouts = false
    request.tiles = source
    return request
  }

  private func renderError(_ request: RenderRequest) -> RenderError? {
    do {
      _ = try Snapshotter.render(request)
      return nil
    } catch {
      return error
    }
  }

  /// The library's way to a tile server: `MapTiles.source` with a `RemoteTileSource`.
  func testASnapshotFetchesFromATileServer() async throws {
    var options = MapSnapshotOptions(places: [RenderKit.place("paris", 48.8566, 2.3522)])
    options.size = PixelSize(width: 200, height: 150)
    options.tiles = .source(try remote("ok"))
    let snapshot = try await MapSnapshotter(options: options).snapshot()
    XCTAssertGreaterThan(snapshot.layout.tiles.needed, 0)
    XCTAssertEqual(snapshot.layout.tiles.drawn, snapshot.layout.tiles.needed)
    XCTAssertEqual(server.requests().count, snapshot.layout.tiles.needed)
    XCTAssertEqual(snapshot.layout.plates.first { $0.kind == "attribution" }?.text, "© Test tiles")
  }

  func testTilesAreFetchedOnceAndDrawn() throws {
    let first = try Snapshotter.render(request(try remote("ok")))
    let summary = first.layout.tiles
    let zoom = try XCTUnwrap(summary.zoom)
    XCTAssertGreaterThan(summary.needed, 0)
    XCTAssertEqual(summary.drawn, summary.needed)
    XCTAssertEqual(summary.missing, 0)
    XCTAssertEqual(summary.source, "\(server.baseURL)/ok/{z}/{x}/{y}.png")
    XCTAssertEqual(first.warnings, [])
    // One request per tile, all at the map's zoom.
    let paths = server.requests().map(\.path)
    XCTAssertEqual(paths.count, summary.needed)
    XCTAssertEqual(Set(paths).count, paths.count)
    XCTAssertTrue(paths.allSatisfy { $0.hasPrefix("/ok/\(zoom)/") }, "\(paths)")
    // The server's tiles are drawn 1:1: their blue channel is 0x80 everywhere (away from the pin and the
    // attribution).
    let image = try RenderKit.decode(first)
    for (x, y) in [(2, 2), (100, 5), (190, 10)] {
      XCTAssertEqual(RGBA(image, x, y).b, 128, "(\(x), \(y)): \(RGBA(image, x, y))")
      // Red counts up by one pixel to the right, green by one pixel down (mod 256, across tile edges).
      XCTAssertEqual((RGBA(image, x + 1, y).r - RGBA(image, x, y).r + 256) % 256, 1, "(\(x), \(y))")
      XCTAssertEqual((RGBA(image, x, y + 1).g - RGBA(image, x, y).g + 256) % 256, 1, "(\(x), \(y))")
    }
    XCTAssertGreaterThan(RGBA(image, 2, 2).distance(to: Style.standard.basemap.placeholder), 20)
    XCTAssertNotNil(first.attribution)

    // Again, through a new source over the same cache: no request, the same bytes.
    let second = try Snapshotter.render(request(try remote("ok")))
    XCTAssertEqual(server.requests().count, summary.needed)
    XCTAssertEqual(second.layout, first.layout)
    XCTAssertEqual(second.warnings, [])
    XCTAssertEqual(second.data, first.data)
  }

  func testAFailingServerGivesPlaceholdersAndAWarning() throws {
    let result = try Snapshotter.render(request(try remote("error")))
    let summary = result.layout.tiles
    let needed = summary.needed
    XCTAssertGreaterThan(needed, 0)
    XCTAssertEqual(summary.drawn, 0)
    XCTAssertEqual(summary.missing, needed)
    XCTAssertEqual(
      result.warnings.first?.description,
      "\(needed) of \(needed) tiles could not be fetched: \(needed) × HTTP 500; \(needed) tiles drawn as"
        + " placeholders")
    XCTAssertEqual(server.requestCount("error"), needed, "a 500 is not retried")
    let image = try RenderKit.decode(result)
    XCTAssertLessThanOrEqual(RGBA(image, 2, 2).distance(to: Style.standard.basemap.placeholder), 2)
  }

  func testOfflineWithAnEmptyCacheAndAllTilesRequired() throws {
    let source = try remote("ok", settings: RemoteTileSource.Settings(offline: true))
    var request = request(source)
    request.requireAllTiles = true
    guard case .incompleteBasemap(let missing, let needed, let name)? = renderError(request) else {
      return XCTFail("expected incompleteBasemap, got \(String(describing: renderError(request)))")
    }
    XCTAssertGreaterThan(needed, 0)
    XCTAssertEqual(missing, needed)
    XCTAssertEqual(name, "\(server.baseURL)/ok/{z}/{x}/{y}.png")
    XCTAssertEqual(server.requests().count, 0)
  }

  func testTooManyTilesIsARenderError() throws {
    let source = try remote("ok", settings: RemoteTileSource.Settings(maximumTiles: 1))
    guard case .tileDownload(.tooManyTiles(let needed, let limit))? = renderError(request(source)) else {
      return XCTFail("expected tooManyTiles, got \(String(describing: renderError(request(source))))")
    }
    XCTAssertGreaterThan(needed, 1)
    XCTAssertEqual(limit, 1)
    XCTAssertEqual(
      RenderError.tileDownload(.tooManyTiles(needed: needed, limit: 1)).description,
      TileDownloadError.tooManyTiles(needed: needed, limit: 1).description)
    XCTAssertEqual(server.requests().count, 0)
  }
}
