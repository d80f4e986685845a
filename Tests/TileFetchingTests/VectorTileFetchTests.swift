import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import TileFetching

/// Vector tiles from a tile server: a `.pbf` or `.mvt` template asks for them, the fetcher checks that what
/// comes back decodes as a Mapbox Vector Tile, and the download caches them as `.pbf` files or in an
/// MBTiles file whose `format` is `pbf`, which then reads back as a vector tile source.
final class VectorTileFetchTests: XCTestCase {
  private var server: FakeTileServer!
  private let someTile = TileID(z: 14, x: 9326, y: 4742)!

  override func setUp() {
    server = FakeTileServer()
  }

  private func fetcher() -> TileFetcher {
    server.fetcher(version: "0.0.1-test", policy: TileFetchPolicy(baseDelay: 0, timeout: 5))
  }

  func testATemplateEndingInPbfOrMvtAsksForVectorTiles() throws {
    XCTAssertEqual(try server.template("vector", fileExtension: "pbf").content, .vector)
    XCTAssertEqual(try server.template("vector", fileExtension: "mvt").content, .vector)
    XCTAssertEqual(try server.template("vector", query: "key=1", fileExtension: "pbf").content, .vector)
    XCTAssertEqual(try server.template("ok").content, .raster)
    XCTAssertEqual(try server.template("ok", fileExtension: "webp").content, .raster)
    // Vector tiles cover 512 pixels of the map at mymap's zoom, whatever the retina setting.
    XCTAssertEqual(try server.template("vector", fileExtension: "pbf").tileSize(retina: false), 512)
    XCTAssertEqual(try server.template("vector", fileExtension: "pbf").tileSize(retina: true), 512)
    XCTAssertEqual(try server.template("ok").tileSize(retina: true), 512)
    XCTAssertEqual(try server.template("ok").tileSize(retina: false), 256)
  }

  func testAVectorTileComesBackAsItsBytes() async throws {
    let template = try server.template("vector", fileExtension: "pbf")
    let result = try await fetcher().fetch(someTile, from: template, expectedSize: 512, content: .vector)
    guard case .vectorTile(let data, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(data, FakeTileServer.vectorTile)
    XCTAssertEqual(server.requests().map(\.path), ["/vector/14/9326/4742.pbf"])
  }

  func testAnythingElseIsNotAVectorTileAndIsNotRetried() async throws {
    for behaviour in ["ok", "html", "garbage"] {
      let template = try server.template(behaviour, fileExtension: "pbf")
      let error = await expectTileFetchError {
        try await fetcher().fetch(someTile, from: template, expectedSize: 512, content: .vector)
      }
      let contentType = behaviour == "html" ? "text/html; charset=utf-8" : "image/png"
      XCTAssertEqual(error?.reason, .notAVectorTile(contentType: contentType), behaviour)
      XCTAssertEqual(error?.attempts, 1, behaviour)
    }
    let error = await expectTileFetchError {
      try await fetcher().fetch(
        someTile, from: try server.template("html", fileExtension: "pbf"), expectedSize: 512, content: .vector
      )
    }
    XCTAssertEqual(
      error.map { "\($0)" },
      "cannot fetch tile 14/9326/4742 from \(server.baseURL)/html/{z}/{x}/{y}.pbf: the server sent something that is not a"
        + " vector tile (Content-Type text/html; charset=utf-8)")
  }

  func testTheDownloadCachesVectorTilesAsPbf() async throws {
    let template = try server.template("vector", fileExtension: "pbf")
    let root = try makeTemporaryFolder(self)
    let tiles = [someTile, TileID(z: 14, x: 9327, y: 4742)!]
    for path in [root + "/folder", root + "/cache.mbtiles"] {
      let cache = try openTileCache(
        at: path, for: TileCacheDescription(source: template.redacted, attribution: "© Test", tileSize: 512))
      let download = TileDownload(template: template, fetcher: fetcher(), cache: cache, concurrency: 2)
      let report = try await download.run(try download.pending(tiles))
      XCTAssertEqual(report.stored, 2, path)
      XCTAssertNil(report.failureSummary, path)
      let source = try openTileCache(
        at: path, for: TileCacheDescription(source: template.redacted, attribution: "© Test", tileSize: 512)
      ).tileSource()
      XCTAssertEqual(source.content, .vector, path)
      XCTAssertEqual(try source.tileData(someTile), FakeTileServer.vectorTile, path)
    }
    XCTAssertEqual(
      FileManager.default.contents(atPath: root + "/folder/14/9326/4742.pbf"), FakeTileServer.vectorTile)
    XCTAssertEqual(
      try sqliteRows(root + "/cache.mbtiles", "SELECT value FROM metadata WHERE name = 'format'"), [["pbf"]])
  }
}
