import Foundation
import MapMath
import TestSupport
import TileFetching
import Tiles
import XCTest

/// `RemoteTileSource` over `FakeTileServer`: what `prepare` fetches, warns about and refuses.
final class RemoteTileSourceTests: XCTestCase {
  private var server: FakeTileServer!
  private var folder: String!

  override func setUpWithError() throws {
    // The real time: the tests judge freshness by it.
    server = FakeTileServer(clock: VirtualClock(Date()))
    folder = try makeTemporaryFolder(self)
  }

  private func fetcher() -> TileFetcher {
    server.fetcher(version: "0.0.1-test", policy: TileFetchPolicy(baseDelay: 0, timeout: 5))
  }

  private func openCache(_ kind: TestCacheKind, for template: TileURLTemplate) throws -> any TileCacheStore {
    try openTileCache(
      at: kind.path(in: folder + "/" + kind.rawValue),
      for: TileCacheDescription(source: template.redacted, attribution: "© Test", tileSize: 256))
  }

  private func remote(
    _ template: TileURLTemplate, _ kind: TestCacheKind = .directory,
    settings: RemoteTileSource.Settings = .init()
  ) throws -> RemoteTileSource {
    RemoteTileSource(
      template: template, cache: try openCache(kind, for: template), fetcher: fetcher(),
      attribution: "© Test tiles", settings: settings)
  }

  /// A template whose first path segment cycles through `behaviours` by the tile's x + y.
  private func mixed(_ behaviours: [String], query: String = "") throws -> TileURLTemplate {
    try TileURLTemplate(
      "\(server.baseURL)/{s:\(behaviours.joined(separator: ","))}/{z}/{x}/{y}.png"
        + (query.isEmpty ? "" : "?" + query),
      environment: [:])
  }

  private let tiles = [tile(5, 16, 10), tile(5, 17, 10), tile(5, 16, 11), tile(5, 17, 11)]

  func testSettingsFollowTheTemplateAndTheCache() throws {
    let template = try server.template("ok", query: "key={key:TILE_KEY}")
    let source = try remote(template, .mbtiles)
    XCTAssertEqual(source.description, "\(server.baseURL)/ok/{z}/{x}/{y}.png?key={key:TILE_KEY}")
    XCTAssertEqual(source.cacheIdentity, "remote:" + TestCacheKind.mbtiles.path(in: folder + "/mbtiles"))
    XCTAssertEqual(source.tileSize, 256)
    XCTAssertEqual(source.zoomRange, 0...19)
    XCTAssertEqual(source.attribution, "© Test tiles")
    XCTAssertFalse(source.offline)
    XCTAssertEqual(source.maximumTiles, 2_000)
    let retina = RemoteTileSource(
      template: template, cache: source.cache, fetcher: fetcher(), attribution: nil, retina: true)
    XCTAssertEqual(retina.tileSize, 512)
  }

  func testPrepareFetchesWhatTheCacheLacksAndTileDataReadsIt() throws {
    let template = try server.template("ok")
    let served = FakeTileServer.png256
    for kind in TestCacheKind.allCases {
      let before = server.requests().count
      let source = try remote(template, kind)
      // Read before anything is fetched: nothing there (and the reader opened now must not go stale).
      XCTAssertNil(try source.tileData(tiles[0]), kind.rawValue)
      XCTAssertEqual(try source.prepare(tiles), [], kind.rawValue)
      XCTAssertEqual(server.requests().count - before, 4, kind.rawValue)
      for id in tiles { XCTAssertEqual(try source.tileData(id), served, "\(kind) \(id)") }
      XCTAssertNil(try source.tileData(tile(5, 18, 10)), kind.rawValue)

      // Fresh in the cache now: neither this source nor a new one over the same cache asks again.
      XCTAssertEqual(try source.prepare(tiles), [], kind.rawValue)
      let again = try remote(template, kind)
      XCTAssertEqual(try again.prepare(tiles), [], kind.rawValue)
      XCTAssertEqual(server.requests().count - before, 4, kind.rawValue)
      for id in tiles { XCTAssertEqual(try again.tileData(id), served, "\(kind) \(id)") }
      // A tile not fetched before is fetched alone.
      XCTAssertEqual(try again.prepare(tiles + [tile(5, 18, 10)]), [], kind.rawValue)
      XCTAssertEqual(server.requests().count - before, 5, kind.rawValue)
      XCTAssertEqual(try again.tileData(tile(5, 18, 10)), served, kind.rawValue)
    }
  }

  func testOfflineFetchesNothing() throws {
    let template = try server.template("ok")
    for kind in TestCacheKind.allCases {
      let source = try remote(template, kind, settings: .init(offline: true, maximumTiles: 1))
      XCTAssertEqual(
        try source.prepare(tiles),
        [
          "4 of 4 tiles are not in the tile cache \(source.cache.path), and the render may not fetch; 4 tiles"
            + " drawn as placeholders"
        ], kind.rawValue)
      for id in tiles {
        XCTAssertNil(try source.tileData(id), "\(kind) \(id)")
        XCTAssertNil(try source.cache.entry(for: id), "\(kind) \(id)")
      }
    }
    XCTAssertEqual(server.requests().count, 0)
  }

  func testTooManyTilesCountsOnlyTheTilesToFetch() throws {
    let template = try server.template("ok")
    let source = try remote(template, .mbtiles, settings: .init(maximumTiles: 2))
    XCTAssertThrowsError(try source.prepare(tiles)) { error in
      XCTAssertEqual(error as? TileDownloadError, .tooManyTiles(needed: 4, limit: 2))
      XCTAssertEqual(
        "\(error)",
        "this would fetch 4 tiles, more than the limit of 2 per command (tile servers are shared: fetch fewer"
          + " zooms or a smaller area)")
    }
    XCTAssertEqual(server.requests().count, 0, "refused before any request")
    XCTAssertNil(try source.cache.entry(for: tiles[0]))

    // Two of them fresh in the cache: the other two are within the limit.
    let fresh = TileFreshness(expires: Date().addingTimeInterval(86_400), fetched: Date())
    try source.cache.store(tiles[0], data: try pngTile(red: 1), freshness: fresh)
    try source.cache.store(tiles[1], data: try pngTile(red: 2), freshness: fresh)
    XCTAssertEqual(try source.prepare(tiles), [])
    XCTAssertEqual(server.requests().map(\.path).sorted(), ["/ok/5/16/11.png", "/ok/5/17/11.png"])
    XCTAssertEqual(try source.tileData(tiles[0]), try pngTile(red: 1))
  }

  func testWarningsSummariseFailuresAndPlaceholders() throws {
    // x + y even: ok; odd: HTTP 500.
    let template = try mixed(["ok", "error"])
    let source = try remote(template, .directory)
    XCTAssertEqual(
      try source.prepare(tiles),
      ["2 of 4 tiles could not be fetched: 2 × HTTP 500; 2 tiles drawn as placeholders"])
    XCTAssertNotNil(try source.tileData(tile(5, 16, 10)))
    XCTAssertNil(try source.tileData(tile(5, 17, 10)))
    XCTAssertNil(try source.tileData(tile(5, 16, 11)))

    // An older copy of one failing tile: it is used, so only the other is a placeholder.
    let stale = TileFreshness(
      expires: Date().addingTimeInterval(-60), fetched: Date().addingTimeInterval(-86_400))
    let old = try pngTile(red: 3)
    try source.cache.store(tile(5, 17, 10), data: old, freshness: stale)
    XCTAssertEqual(
      try source.prepare(tiles),
      [
        "2 of 2 tiles could not be fetched: 2 × HTTP 500 (older cached copies are used for 1 of them);"
          + " 1 tile drawn as a placeholder"
      ])
    XCTAssertEqual(try source.tileData(tile(5, 17, 10)), old)

    // Older copies of both: no placeholders.
    try source.cache.store(tile(5, 16, 11), data: old, freshness: stale)
    XCTAssertEqual(
      try source.prepare(tiles),
      ["2 of 2 tiles could not be fetched: 2 × HTTP 500 (older cached copies are used for 2 of them)"])
    XCTAssertEqual(server.requestCount("ok"), 2)
    XCTAssertEqual(server.requestCount("error"), 6)
  }

  func testMissingTilesAreOneWarningNotAFailure() throws {
    let source = try remote(try server.template("missing"), .mbtiles)
    XCTAssertEqual(
      try source.prepare(tiles),
      ["4 of 4 tiles are not on the server (HTTP 404); 4 tiles drawn as placeholders"])
    for id in tiles { XCTAssertNil(try source.tileData(id)) }
    XCTAssertEqual(server.requestCount("missing"), 4)
  }

  func testAnInterruptedPrepareThrows() throws {
    let source = try remote(try server.template("slow", query: "delay=30"), .mbtiles)
    source.cancellation.cancel()
    let started = Date()
    XCTAssertThrowsError(try source.prepare(tiles)) { error in
      XCTAssertEqual(error as? TileDownloadError, .interrupted(stored: 0, of: 4))
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 20)
  }

  func testProgressIsReported() throws {
    let seen = SharedList<TileDownloadProgress>()
    let source = try remote(
      try server.template("ok"), .directory, settings: .init(progress: { seen.add($0) }))
    XCTAssertEqual(try source.prepare(tiles), [])
    XCTAssertEqual(seen.list.map(\.done), [1, 2, 3, 4])
    XCTAssertEqual(seen.list.last?.total, 4)
  }
}

final class KnownAttributionTests: XCTestCase {
  func testKnownAttributions() throws {
    let osm = "© OpenStreetMap contributors"
    let cases: [(String, String?)] = [
      ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", osm),
      ("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", osm),
      ("https://b.tile.openstreetmap.org/{z}/{x}/{y}.png", osm),
      ("http://TILE.OpenStreetMap.org/{z}/{x}/{y}.png", osm),
      ("https://user:secret@tile.openstreetmap.org/{z}/{x}/{y}.png", osm),
      ("https://my-mirror.tile.openstreetmap.org/{z}/{x}/{y}.png", osm),
      ("https://{s}.tile.openstreetmap.fr/osmfr/{z}/{x}/{y}.png", osm + ", tiles: OpenStreetMap France"),
      ("https://{s}.tile.opentopomap.org/{z}/{x}/{y}.png", osm + ", SRTM | style: © OpenTopoMap (CC-BY-SA)"),
      ("https://{s}.basemaps.cartocdn.com/light_all/{z}/{x}/{y}{r}.png", osm + " © CARTO"),
      (
        "https://tile.thunderforest.com/cycle/{z}/{x}/{y}.png?apikey={key:TF_KEY}",
        "Maps © Thunderforest, Data " + osm
      ),
      // Look-alikes and others.
      ("https://tile.openstreetmap.org.example.net/{z}/{x}/{y}.png", nil),
      ("https://eviltile.openstreetmap.org/{z}/{x}/{y}.png", nil),
      ("https://openstreetmap.org/{z}/{x}/{y}.png", nil),
      ("https://tiles.example.com/{z}/{x}/{y}.png", nil),
      ("https://example.com/tile.openstreetmap.org/{z}/{x}/{y}.png", nil),
      ("http://127.0.0.1:8080/ok/{z}/{x}/{y}.png", nil),
    ]
    for (text, expected) in cases {
      let template = try TileURLTemplate(text, environment: ["TF_KEY": "k"])
      XCTAssertEqual(knownAttribution(for: template), expected, text)
    }
  }
}
