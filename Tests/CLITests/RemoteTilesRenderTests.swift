import Foundation
import ImageCodecs
import TestSupport
import Tiles
import XCTest

/// `mymap render --tiles URL-TEMPLATE`: the tiles a map needs are fetched into the tile cache, then drawn;
/// `--offline` draws from the cache alone. Against `LocalTileServer` only (127.0.0.1, never the internet).
final class RemoteTilesRenderTests: XCTestCase {
  /// Two places in California: at 300×200 the map is zoom 8 and needs a handful of tiles.
  private func renderArguments(_ sandbox: Sandbox, tiles: String, out: String, _ extra: [String]) throws
    -> [String]
  {
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    return ["render", "--locations", california, "--tiles", tiles, "--size", "300x200", "--out", out] + extra
  }

  /// Whether the pixels at the top left of the map are the server's tile drawn 1:1: its gradient (red and
  /// green step by one per pixel) over blue 128.
  private func showsServerTiles(_ png: Data?) throws -> Bool {
    let image = try PNGCodec.decode(try XCTUnwrap(png))
    for x in 2..<12 {
      let here = image.pixel(x: x, y: 3)
      let right = image.pixel(x: x + 1, y: 3)
      let below = image.pixel(x: x, y: 4)
      guard here.blue == 128, right.red == here.red &+ 1, right.green == here.green,
        below.green == here.green &+ 1, below.red == here.red
      else { return false }
    }
    return true
  }

  func testRenderFetchesTheTilesItNeedsAndRendersTheSameOffline() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "ok")
    let attribution = ["--attribution", "© Test Tiles"]
    let first = try sandbox.run(
      try renderArguments(
        sandbox, tiles: url, out: "online.png", attribution + ["--layout-json", "online.json"]))
    assertSucceeded(first)
    XCTAssertEqual(first.stderr, "", "no warning: the attribution is given")
    assertPNG(sandbox.contents(of: "online.png"), width: 300, height: 200)
    XCTAssertTrue(
      try showsServerTiles(sandbox.contents(of: "online.png")), "the map shows the server's tiles")

    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "online.json")))
    let tiles = layout.tiles
    XCTAssertEqual(tiles["source"] as? String, url)
    let zoom = try XCTUnwrap(number(tiles["zoom"]))
    let needed = try XCTUnwrap(number(tiles["needed"]))
    XCTAssertGreaterThan(needed, 0)
    XCTAssertEqual(number(tiles["drawn"]), needed)
    XCTAssertEqual(number(tiles["missing"]), 0)
    XCTAssertEqual(number(layout.camera["zoom"]), zoom)

    // Exactly the tiles drawn were asked for, once each, at the map's zoom, into the default cache.
    let requests = server.requests()
    XCTAssertEqual(Double(requests.count), needed)
    XCTAssertEqual(Set(requests.map(\.path)).count, requests.count)
    XCTAssertTrue(requests.allSatisfy { $0.path.hasPrefix("/ok/\(Int(zoom))/") }, "\(requests.map(\.path))")
    let version = try FetchTesting.version(sandbox)
    XCTAssertTrue(
      requests.allSatisfy { $0.userAgent == "mymap/\(version) (+https://example.invalid/mymap)" },
      "\(requests.map(\.userAgent))")
    let folder = try FetchTesting.defaultCache(sandbox, server)
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: folder)),
      Set(requests.map { String($0.path.dropFirst("/ok/".count)) }))
    let metadata = try FetchTesting.metadata(in: folder)
    XCTAssertEqual(metadata["source"] as? String, url)
    XCTAssertEqual(metadata["attribution"] as? String, "© Test Tiles")

    // Offline, from the cache: the same bytes, not one request, and not one byte written to the cache.
    let cached = try FetchTesting.contents(of: folder)
    let offline = try sandbox.run(
      try renderArguments(
        sandbox, tiles: url, out: "offline.png", attribution + ["--offline", "--layout-json", "offline.json"])
    )
    assertSucceeded(offline)
    XCTAssertEqual(offline.stderr, "")
    XCTAssertEqual(server.requests().count, requests.count, "--offline sends no request")
    XCTAssertEqual(sandbox.contents(of: "offline.png"), sandbox.contents(of: "online.png"))
    XCTAssertEqual(sandbox.contents(of: "offline.json"), sandbox.contents(of: "online.json"))
    XCTAssertEqual(try FetchTesting.contents(of: folder), cached, "--offline writes nothing to the cache")

    // Online again: every tile is fresh, so nothing is asked for either.
    let again = try sandbox.run(try renderArguments(sandbox, tiles: url, out: "again.png", attribution))
    assertSucceeded(again)
    XCTAssertEqual(server.requests().count, requests.count, "fresh tiles are not asked for again")
    XCTAssertEqual(sandbox.contents(of: "again.png"), sandbox.contents(of: "online.png"))
  }

  func testAWarningWhenNoAttributionIsKnown() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "ok")
    let result = try sandbox.run(try renderArguments(sandbox, tiles: url, out: "map.png", []))
    assertSucceeded(result)
    XCTAssertEqual(
      result.stderrLines,
      [
        "mymap: warning: no attribution is known for \(url); most tile providers require one on every map:"
          + " give it with --attribution TEXT"
      ])
    assertPNG(sandbox.contents(of: "map.png"), width: 300, height: 200)
    let metadata = try FetchTesting.metadata(in: try FetchTesting.defaultCache(sandbox, server))
    XCTAssertNil(metadata["attribution"])

    let credited = try sandbox.run(
      try renderArguments(sandbox, tiles: url, out: "credited.png", ["--attribution", "© Test Tiles"]))
    assertSucceeded(credited)
    XCTAssertEqual(credited.stderr, "")
    XCTAssertNotEqual(
      sandbox.contents(of: "credited.png"), sandbox.contents(of: "map.png"), "the attribution is drawn")
    let folder = try FetchTesting.defaultCache(sandbox, server)
    XCTAssertEqual(try FetchTesting.metadata(in: folder)["attribution"] as? String, "© Test Tiles")

    // Offline without --attribution: the cache's attribution, drawn without a warning.
    let cached = try FetchTesting.contents(of: folder)
    let offline = try sandbox.run(try renderArguments(sandbox, tiles: url, out: "offline.png", ["--offline"]))
    assertSucceeded(offline)
    XCTAssertEqual(offline.stderr, "", "the cache names the attribution")
    XCTAssertEqual(sandbox.contents(of: "offline.png"), sandbox.contents(of: "credited.png"))
    // An --attribution given offline is drawn, but not written to the cache's metadata.
    let other = try sandbox.run(
      try renderArguments(sandbox, tiles: url, out: "other.png", ["--offline", "--attribution", "© Other"]))
    assertSucceeded(other)
    XCTAssertEqual(other.stderr, "")
    XCTAssertNotEqual(sandbox.contents(of: "other.png"), sandbox.contents(of: "credited.png"))
    XCTAssertEqual(try FetchTesting.contents(of: folder), cached, "--offline writes nothing to the cache")
    XCTAssertEqual(server.requestCount("ok"), Set(server.requests().map(\.path)).count, "each tile once")
  }

  func testAKnownServersAttributionIsDrawnWithoutAWarning() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let osm = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    let credit = "© OpenStreetMap contributors"
    // The local server's tiles, drawn with OpenStreetMap's credit given by hand.
    let local = try sandbox.run(
      try renderArguments(
        sandbox, tiles: FetchTesting.url(server, "ok"), out: "local.png", ["--attribution", credit]))
    assertSucceeded(local)
    let localCache = try FetchTesting.defaultCache(sandbox, server)

    // The same tiles placed in the OpenStreetMap cache, as an earlier fetch would have left them; then an
    // offline render from it. Neither command may go on the network (a proxy that does not exist, to be
    // sure); the dry run tells where the cache is.
    let noNetwork = [
      "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
      "HTTPS_PROXY": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9",
    ]
    let dry = try sandbox.run(
      ["tiles", "fetch", "--url", osm, "--bbox", "-10,-10,10,10", "--zoom", "0", "--dry-run"],
      environment: noNetwork)
    assertSucceeded(dry)
    let prefix = "would fetch 1 tile of 1 into "
    XCTAssertTrue(dry.stdoutText.hasPrefix(prefix), dry.stdoutText)
    let osmCache = String(
      dry.stdoutText.dropFirst(prefix.count).prefix { $0 != ";" })
    XCTAssertTrue(
      (osmCache as NSString).lastPathComponent.hasPrefix("tile.openstreetmap.org-"), osmCache)
    for name in try FetchTesting.tileFiles(in: localCache) {
      let target = osmCache + "/" + name
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: localCache + "/" + name, toPath: target)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: osmCache + "/metadata.json"))
    try Data(#"{"generator": "mymap", "source": "\#(osm)", "tileSize": 256}"#.utf8).write(
      to: URL(fileURLWithPath: osmCache + "/metadata.json"))
    let cached = try FetchTesting.contents(of: osmCache)
    XCTAssertEqual(
      cached.keys.sorted(), (try FetchTesting.tileFiles(in: localCache) + ["metadata.json"]).sorted())
    let known = try sandbox.run(
      try renderArguments(sandbox, tiles: osm, out: "osm.png", ["--offline", "--layout-json", "osm.json"]),
      environment: noNetwork)
    assertSucceeded(known)
    XCTAssertEqual(known.stderr, "", "the credit of tile.openstreetmap.org is known")
    XCTAssertEqual(sandbox.contents(of: "osm.png"), sandbox.contents(of: "local.png"))
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "osm.json")))
    XCTAssertEqual(layout.tiles["source"] as? String, osm)
    XCTAssertEqual(number(layout.tiles["missing"]), 0)
    // The credit is drawn, but an offline render writes nothing to the cache, not even its metadata.
    XCTAssertEqual(try FetchTesting.contents(of: osmCache), cached)
    XCTAssertNil(try FetchTesting.metadata(in: osmCache)["attribution"])
  }

  func testOfflineWithAnEmptyCacheFailsAndWritesNothing() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "ok")
    let offline = try renderArguments(
      sandbox, tiles: url, out: "map.png", ["--offline", "--attribution", "T", "--layout-json", "map.json"])
    let root = sandbox.home.appendingPathComponent("cache/mymap/tiles").path

    // No cache for the server at all: said so, and nothing is made, not even the cache folder.
    let none = try sandbox.run(offline)
    XCTAssertEqual(none.status, 4, none.transcript)
    XCTAssertEqual(none.stdoutText, "")
    XCTAssertEqual(try sandbox.files(), ["california.json"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: root), "--offline makes no cache")

    // A cache of the server without the map's tiles (it holds zoom 0 only): every tile is missing.
    assertSucceeded(
      try sandbox.run(
        [
          "tiles", "fetch", "--url", url, "--bbox", "-10,-10,10,10", "--zoom", "0", "--attribution", "T",
          "-q",
        ]))
    // The message named the folder the fetch has now made.
    let folder = try FetchTesting.defaultCache(sandbox, server)
    XCTAssertEqual(
      none.stderr,
      "mymap: error: no tiles of \(url) are cached yet (\(folder)); render once without --offline or run"
        + " 'mymap tiles fetch' first; nothing was written\n")
    let cached = try FetchTesting.contents(of: folder)
    XCTAssertEqual(server.requests().map(\.path), ["/ok/0/0/0.png"])
    let missing = try sandbox.run(offline)
    XCTAssertEqual(missing.status, 4, missing.transcript)
    XCTAssertEqual(missing.stdoutText, "")
    XCTAssertEqual(try sandbox.files(), ["california.json"])
    XCTAssertEqual(try FetchTesting.contents(of: folder), cached, "--offline writes nothing to the cache")
    XCTAssertEqual(server.requests().count, 1, "--offline sends no request")

    // As many as the map needs, which a render that may fetch tells.
    let online = try sandbox.run(
      try renderArguments(
        sandbox, tiles: url, out: "online.png", ["--attribution", "T", "--layout-json", "-"]))
    assertSucceeded(online)
    let needed = try XCTUnwrap(number(try Layout(online.stdout).tiles["needed"]).map(Int.init))
    XCTAssertGreaterThan(needed, 1)
    XCTAssertEqual(
      missing.stderr,
      "mymap: error: \(needed) of \(needed) tiles are missing from \(url); nothing was written (--offline)\n")
  }

  func testAFailingServerGivesPlaceholdersAndOneWarning() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "error")
    let result = try sandbox.run(
      try renderArguments(
        sandbox, tiles: url, out: "map.png", ["--attribution", "T", "--layout-json", "map.json"]))
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "map.png"), width: 300, height: 200)
    XCTAssertFalse(try showsServerTiles(sandbox.contents(of: "map.png")), "placeholders, not tiles")
    let tiles = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json"))).tiles
    let needed = try XCTUnwrap(number(tiles["needed"]).map(Int.init))
    XCTAssertGreaterThan(needed, 1)
    XCTAssertEqual(number(tiles["drawn"]), 0)
    XCTAssertEqual(number(tiles["missing"]).map(Int.init), needed)
    XCTAssertEqual(server.requestCount("error"), needed, "HTTP 500 is not retried")
    XCTAssertTrue(
      result.stderrLines.contains(
        "mymap: warning: \(needed) of \(needed) tiles could not be fetched: \(needed) × HTTP 500;"
          + " \(needed) tiles drawn as placeholders"),
      result.transcript)
    XCTAssertEqual(
      result.stderrLines.filter { $0.contains("placeholder") }.count, 1,
      "one warning about the placeholders: \(result.transcript)")
    XCTAssertEqual(try FetchTesting.tileFiles(in: try FetchTesting.defaultCache(sandbox, server)), [])
  }

  func testMoreTilesThanMaxTilesAreRefused() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let url = FetchTesting.url(server, "ok")
    // How many tiles the map needs, from a render that may fetch them all (in a sandbox of its own, so that
    // the cache below is empty).
    let probeSandbox = try Sandbox()
    let probe = try probeSandbox.run(
      try renderArguments(
        probeSandbox, tiles: url, out: "probe.png", ["--attribution", "T", "--layout-json", "-"]))
    assertSucceeded(probe)
    let needed = try XCTUnwrap(number(try Layout(probe.stdout).tiles["needed"]).map(Int.init))
    XCTAssertGreaterThan(needed, 1)
    XCTAssertEqual(server.requests().count, needed)

    let sandbox = try Sandbox()
    let result = try sandbox.run(
      try renderArguments(
        sandbox, tiles: url, out: "map.png", ["--attribution", "T", "--max-tiles", "\(needed - 1)"]))
    assertFailed(
      result, status: 2,
      message:
        "this would fetch \(needed) tiles, more than the limit of \(needed - 1) per command (tile servers"
        + " are shared: fetch fewer zooms or a smaller area, or raise the limit with --max-tiles \(needed))")
    XCTAssertEqual(try sandbox.files(), ["california.json"])
    XCTAssertEqual(server.requests().count, needed, "no request for a refused map")

    // The limit itself goes from 1 to a million.
    for value in ["0", "1000001"] {
      assertFailed(
        try sandbox.run(
          try renderArguments(
            sandbox, tiles: url, out: "map.png", ["--attribution", "T", "--max-tiles", value])),
        status: 2,
        message: "invalid value '\(value)' for --max-tiles: expected a whole number from 1 to 1000000")
    }
    XCTAssertEqual(try sandbox.files(), ["california.json"])
    XCTAssertEqual(server.requests().count, needed)
  }

  func testAnAPIKeyNeverReachesTheLayoutTheCacheOrTheMessages() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let secret = "s3cr3t-key"
    let url = "\(server.baseURL)/ok/{key:TILE_KEY}/{z}/{x}/{y}.png?key={key:TILE_KEY}"
    let result = try sandbox.run(
      try renderArguments(sandbox, tiles: url, out: "map.png", ["--layout-json", "map.json"]),
      environment: ["TILE_KEY": secret])
    assertSucceeded(result)
    XCTAssertEqual(result.stderrLines.count, 1, "the attribution warning: \(result.transcript)")
    XCTAssertTrue(result.stderr.contains(url), result.stderr)
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json")))
    XCTAssertEqual(layout.tiles["source"] as? String, url)
    XCTAssertEqual(number(layout.tiles["drawn"]), number(layout.tiles["needed"]))
    XCTAssertTrue(server.requests().allSatisfy { $0.path.hasPrefix("/ok/\(secret)/") }, "the key is sent")
    XCTAssertFalse(result.stderr.contains(secret) || result.stdoutText.contains(secret))
    XCTAssertEqual(try FetchTesting.filesContaining(secret, under: sandbox.url.path), [])

    // A failing server's warning names the source without the key either.
    let failing = "\(server.baseURL)/error/{key:TILE_KEY}/{z}/{x}/{y}.png?key={key:TILE_KEY}"
    let failed = try sandbox.run(
      try renderArguments(sandbox, tiles: failing, out: "failed.png", ["--attribution", "T"]),
      environment: ["TILE_KEY": secret])
    assertSucceeded(failed)
    XCTAssertFalse(failed.stderr.contains(secret), failed.stderr)
    XCTAssertEqual(try FetchTesting.filesContaining(secret, under: sandbox.url.path), [])
  }

  func testRetinaTemplatesGet512PixelTilesAtScale2() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = "\(server.baseURL)/retina/{z}/{x}/{y}{r}.png"
    let result = try sandbox.run(
      try renderArguments(
        sandbox, tiles: url, out: "map.png",
        ["--scale", "2", "--attribution", "T", "--layout-json", "map.json"]))
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "map.png"), width: 600, height: 400)
    let tiles = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json"))).tiles
    XCTAssertEqual(number(tiles["drawn"]), number(tiles["needed"]))
    let requests = server.requests()
    XCTAssertEqual(Double(requests.count), number(tiles["needed"]))
    XCTAssertTrue(requests.allSatisfy { $0.path.hasSuffix("@2x.png") }, "\(requests.map(\.path))")
    let root = sandbox.home.appendingPathComponent("cache/mymap/tiles").path
    let folders = try FileManager.default.contentsOfDirectory(atPath: root)
    XCTAssertEqual(folders.count, 1)
    XCTAssertTrue(folders.first?.hasSuffix("@2x") == true, "\(folders)")
    for name in try FetchTesting.tileFiles(in: root + "/" + folders[0]) {
      let image = try PNGCodec.decode(
        try Data(contentsOf: URL(fileURLWithPath: root + "/" + folders[0] + "/" + name)))
      XCTAssertEqual([image.width, image.height], [512, 512], name)
    }
  }
}
