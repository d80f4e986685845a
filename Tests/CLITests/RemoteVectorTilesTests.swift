import Foundation
import TestSupport
import XCTest

/// Street maps from a vector tile server: `render --tiles URL.pbf` fetches the vector tiles into the cache
/// and draws them with the style, `--offline` draws the same map from the cache, and `tiles fetch` fills a
/// folder or an MBTiles file that renders as a local vector tile set. The server is tile_server.py serving
/// the tiles of `Examples/tiles/helsinki.mbtiles`.
final class RemoteVectorTilesTests: XCTestCase {
  private var server: LocalTileServer!
  private let places = RepositoryPaths.examples.appendingPathComponent("helsinki.json").path
  private let mbtiles = RepositoryPaths.examples.appendingPathComponent("tiles/helsinki.mbtiles").path
  private let attribution = "© OpenMapTiles © OpenStreetMap contributors"

  override func setUpWithError() throws {
    server = try LocalTileServer()
  }

  override func tearDown() {
    server?.stop()
  }

  private func url(_ behaviour: String = "vector") -> String {
    "\(server.baseURL)/\(behaviour)/{z}/{x}/{y}.pbf?file=\(mbtiles)"
  }

  private func render(_ sandbox: Sandbox, tiles: String, out: String, _ extra: [String] = []) throws
    -> CLIResult
  {
    try sandbox.run(
      ["render", "--locations", places, "--size", "800x600", "--tiles", tiles, "--out", out] + extra)
  }

  func testAServersVectorTilesDrawTheStreetMapOnlineAndThenOffline() throws {
    let sandbox = try Sandbox()
    let online = try render(
      sandbox, tiles: url(), out: "online.png",
      ["--attribution", attribution, "--layout-json", "online.json"])
    assertSucceeded(online)
    XCTAssertEqual(online.stderrLines.filter { $0.contains("tile") }, [], online.stderr)
    XCTAssertEqual(
      server.requests().map(\.path).sorted(), ["/vector/14/9326/4742.pbf", "/vector/14/9327/4742.pbf"])

    let offline = try render(
      sandbox, tiles: url(), out: "offline.png", ["--attribution", attribution, "--offline"])
    assertSucceeded(offline)
    XCTAssertEqual(server.requests().count, 2, "--offline asks the server nothing")
    let map = try XCTUnwrap(sandbox.contents(of: "online.png"))
    XCTAssertEqual(sandbox.contents(of: "offline.png"), map, "the cache draws the same map")

    // The same street map as the MBTiles file the server serves: the same streets named in the same places.
    assertSucceeded(try render(sandbox, tiles: mbtiles, out: "local.png", ["--layout-json", "local.json"]))
    let remoteLabels = try Layout(try XCTUnwrap(sandbox.contents(of: "online.json"))).json["labels"]
    let localLabels = try Layout(try XCTUnwrap(sandbox.contents(of: "local.json"))).json["labels"]
    let remote = try XCTUnwrap(remoteLabels as? [[String: Any]])
    XCTAssertGreaterThan(remote.count, 10)
    XCTAssertEqual(
      remote.map { "\($0["text"] ?? "") \(String(describing: rect($0["rect"])))" },
      try XCTUnwrap(localLabels as? [[String: Any]]).map {
        "\($0["text"] ?? "") \(String(describing: rect($0["rect"])))"
      })
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "online.json")))
    XCTAssertEqual(number(layout.tiles["zoom"]), 14)
    XCTAssertEqual(number(layout.tiles["drawn"]), 2)
    XCTAssertEqual(number(layout.tiles["missing"]), 0)
  }

  func testTilesFetchFillsAFolderAndAnMBTilesFileThatRenderAsVectorTiles() throws {
    let sandbox = try Sandbox()
    for target in ["helsinki-tiles", "helsinki.mbtiles"] {
      let fetch = try sandbox.run([
        "tiles", "fetch", "--url", url(), "--locations", places, "--size", "800x600", "--zoom", "13-14",
        "--attribution", attribution, "--to", target,
      ])
      assertSucceeded(fetch)
      XCTAssertTrue(fetch.stdoutText.hasPrefix("fetched "), fetch.stdoutText)
      let result = try render(
        sandbox, tiles: target, out: target + ".png", ["--layout-json", target + ".json"])
      assertSucceeded(result)
      let layout = try Layout(try XCTUnwrap(sandbox.contents(of: target + ".json")))
      XCTAssertEqual(number(layout.tiles["drawn"]), 2, target)
    }
    let folder = sandbox.path("helsinki-tiles")
    XCTAssertNotNil(FileManager.default.contents(atPath: folder + "/14/9326/4742.pbf"))
    XCTAssertEqual(
      try sqliteRows(sandbox.path("helsinki.mbtiles"), "SELECT value FROM metadata WHERE name = 'format'"),
      [["pbf"]])
    XCTAssertEqual(
      sandbox.contents(of: "helsinki-tiles.png"), sandbox.contents(of: "helsinki.mbtiles.png"),
      "both caches hold the same tiles")
  }

  func testAServerThatSendsImagesForPbfTilesLeavesTheMapEmptyAndSaysSo() throws {
    let sandbox = try Sandbox()
    let result = try render(
      sandbox, tiles: "\(server.baseURL)/ok/{z}/{x}/{y}.pbf", out: "map.png", ["--attribution", "Test"])
    assertSucceeded(result)
    XCTAssertTrue(
      result.stderrLines.contains(
        "mymap: warning: 2 of 2 tiles could not be fetched: 2 × not a vector tile; 2 tiles left empty"),
      result.stderr)
    let strict = try render(
      sandbox, tiles: "\(server.baseURL)/ok/{z}/{x}/{y}.pbf", out: "strict.png",
      ["--attribution", "Test", "--offline"])
    // Nothing was cached, so an offline render, which needs every tile, fails and writes nothing.
    XCTAssertEqual(strict.status, 4, strict.transcript)
    XCTAssertNil(sandbox.contents(of: "strict.png"))
  }
}
