import Foundation
import ImageCodecs
import TestSupport
import Tiles
import XCTest

/// `mymap tiles fetch`, run as a user would, against `LocalTileServer` only (127.0.0.1, never the internet).
///
/// The server answers each path after its first segment (`ok`, `busy`, `etag`, …; see
/// `Tests/Fixtures/tileserver/tile_server.py`) and logs every request, so the tests see what mymap asked for.
final class TilesFetchCommandTests: XCTestCase {
  // MARK: - Fetching an area

  func testFetchByBoxGetsExactlyTheTilesOfTheSlippyMapFormula() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "ok")
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", url, "--bbox", "2.25,48.81,2.42,48.90", "--zoom", "10-13",
        "--attribution", "© Test Tiles",
      ])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")

    let expected = FetchTesting.slippyTiles(
      west: 2.25, south: 48.81, east: 2.42, north: 48.90, zooms: 10...13)
    XCTAssertEqual(
      expected.count,
      FetchTesting.slippyCount(west: 2.25, south: 48.81, east: 2.42, north: 48.90, zooms: 10...13))
    let folder = try FetchTesting.defaultCache(sandbox, server)
    XCTAssertEqual(
      result.stdoutText,
      "fetched \(expected.count) tiles (\(FetchTesting.byteText(expected.count * FetchTesting.okTileBytes)))"
        + " into \(folder)\n")
    XCTAssertEqual(Set(try FetchTesting.tileFiles(in: folder)), Set(expected.map { $0 + ".png" }))
    XCTAssertEqual(Set(server.requests().map(\.path)), Set(expected.map { "/ok/\($0).png" }))
    XCTAssertEqual(server.requests().count, expected.count, "each tile is asked for once")

    let metadata = try FetchTesting.metadata(in: folder)
    XCTAssertEqual(metadata["generator"] as? String, "mymap")
    XCTAssertEqual(metadata["source"] as? String, url)
    XCTAssertEqual(metadata["attribution"] as? String, "© Test Tiles")
    XCTAssertEqual(metadata["tileSize"] as? Int, 256)
    XCTAssertEqual(metadata["minzoom"] as? Int, 10)
    XCTAssertEqual(metadata["maxzoom"] as? Int, 13)
    XCTAssertEqual(metadata["format"] as? String, "png")

    // The tiles are the server's bytes: 256×256, the server's gradient (red = x, green = y, blue = 128).
    let tile = try XCTUnwrap(expected.sorted().first)
    let image = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(tile).png")))
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(image.height, 256)
    XCTAssertTrue(image.pixel(x: 10, y: 20) == (10, 20, 128, 255), "\(image.pixel(x: 10, y: 20))")

    // `tiles info` reads what was written.
    let info = try sandbox.run(["tiles", "info", folder])
    assertSucceeded(info)
    let total = info.stdoutText.split(separator: "\n").first { $0.hasPrefix("total") }
    XCTAssertEqual(
      total?.split(separator: " ").map(String.init),
      ["total", "\(expected.count)", "\(expected.count * FetchTesting.okTileBytes)"], info.stdoutText)
  }

  func testFetchByBoxAcrossThe180thMeridian() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "170,-20,-170,-10", "--zoom",
        "2-4", "--to", "pacific", "--attribution", "T",
      ])
    assertSucceeded(result)
    let expected = FetchTesting.slippyTiles(west: 170, south: -20, east: -170, north: -10, zooms: 2...4)
    XCTAssertTrue(result.stdoutText.hasPrefix("fetched \(expected.count) tiles ("), result.stdoutText)
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: sandbox.path("pacific"))), Set(expected.map { $0 + ".png" }))
    // Both sides of the meridian: the last column and the first.
    XCTAssertTrue(expected.contains("4/15/8") && expected.contains("4/0/8"), "\(expected.sorted())")
  }

  func testFetchByLocationsFileCoversTheRegionRenderWouldFit() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--locations", california, "--zoom",
        "6-10",
        "--to", "tiles", "--attribution", "T",
      ])
    assertSucceeded(result)
    // The places' box with 10 % more span, around its centre (as `render` fits it), grown at every zoom by
    // half an 800×600 map and 64 pixels: whatever a render of that size centred on the places shows.
    let box = FetchTesting.regionBox([(37.3349, -122.0090), (37.7955, -122.3937)])
    let expected = FetchTesting.slippyTiles(
      west: box.west, south: box.south, east: box.east, north: box.north, zooms: 6...10,
      margin: FetchTesting.viewMargin())
    XCTAssertEqual(expected.count, 115)
    let bare = FetchTesting.slippyTiles(
      west: box.west, south: box.south, east: box.east, north: box.north, zooms: 6...10)
    XCTAssertTrue(expected.isStrictSuperset(of: bare), "the margin adds tiles around the box")
    XCTAssertEqual(
      result.stdoutText,
      "fetched \(expected.count) tiles (\(FetchTesting.byteText(expected.count * FetchTesting.okTileBytes)))"
        + " into tiles\n")
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: sandbox.path("tiles"))), Set(expected.map { $0 + ".png" }))
    XCTAssertEqual(server.requests().count, expected.count)

    // --size sets the margin: half of 300×200 and 64 pixels.
    let small = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--locations", california, "--zoom",
        "6-10", "--size", "300x200", "--to", "small", "--attribution", "T",
      ])
    assertSucceeded(small)
    let expectedSmall = FetchTesting.slippyTiles(
      west: box.west, south: box.south, east: box.east, north: box.north, zooms: 6...10,
      margin: FetchTesting.viewMargin(width: 300, height: 200))
    XCTAssertTrue(expectedSmall.isStrictSubset(of: expected))
    XCTAssertEqual(
      small.stdoutText,
      "fetched \(expectedSmall.count) tiles"
        + " (\(FetchTesting.byteText(expectedSmall.count * FetchTesting.okTileBytes))) into small\n")
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: sandbox.path("small"))), Set(expectedSmall.map { $0 + ".png" }))
    XCTAssertEqual(server.requests().count, expected.count + expectedSmall.count)

    // A --bbox gets no margin, whatever --size says.
    let bbox = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox",
        "\(box.west),\(box.south),\(box.east),\(box.north)", "--zoom", "6-10", "--size", "300x200", "--to",
        "bbox", "--attribution", "T",
      ])
    assertSucceeded(bbox)
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: sandbox.path("bbox"))), Set(bare.map { $0 + ".png" }))
  }

  func testFetchByTheStoreFollowsTheFilters() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    try sandbox.add([
      "--lat", "48.8584", "--lon", "2.2945", "--description", "Eiffel", "--category", "Landmark",
    ])
    try sandbox.add([
      "--lat", "48.8530", "--lon", "2.3499", "--description", "Notre-Dame", "--category", "Landmark",
    ])
    try sandbox.add([
      "--lat", "41.8902", "--lon", "12.4922", "--description", "Colosseum", "--category", "Park",
    ])
    let url = FetchTesting.url(server, "ok")

    let landmarks = try sandbox.run(
      ["tiles", "fetch", "--url", url, "--zoom", "11-14", "--category", "Landmark", "--to", "paris", "-q"])
    XCTAssertEqual(landmarks.status, 0, landmarks.transcript)
    XCTAssertEqual(landmarks.stdoutText, "", "--quiet prints nothing")
    XCTAssertEqual(landmarks.stderr, "", "--quiet prints no warning either")
    let box = FetchTesting.regionBox([(48.8584, 2.2945), (48.8530, 2.3499)])
    let expected = FetchTesting.slippyTiles(
      west: box.west, south: box.south, east: box.east, north: box.north, zooms: 11...14,
      margin: FetchTesting.viewMargin())
    XCTAssertEqual(expected.count, 99)
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: sandbox.path("paris"))), Set(expected.map { $0 + ".png" }))

    // All three places, from the store named with --store.
    let all = try sandbox.run(
      ["tiles", "fetch", "--url", url, "--zoom", "3-5", "--store", sandbox.storePath, "--to", "europe"]
        + ["--attribution", "T"])
    assertSucceeded(all)
    let wide = FetchTesting.regionBox([(48.8584, 2.2945), (48.8530, 2.3499), (41.8902, 12.4922)])
    let expectedWide = FetchTesting.slippyTiles(
      west: wide.west, south: wide.south, east: wide.east, north: wide.north, zooms: 3...5,
      margin: FetchTesting.viewMargin())
    XCTAssertEqual(expectedWide.count, 65)
    XCTAssertTrue(
      all.stdoutText.hasPrefix("fetched \(expectedWide.count) tiles ("), all.stdoutText)
    XCTAssertEqual(
      Set(try FetchTesting.tileFiles(in: sandbox.path("europe"))), Set(expectedWide.map { $0 + ".png" }))

    let none = try sandbox.run(["tiles", "fetch", "--url", url, "--zoom", "3", "--category", "Bar"])
    assertFailed(
      none, status: 2,
      message: "no places to fetch tiles for (none given, stored or matching the filters); use --bbox")
  }

  // MARK: - MBTiles

  func testFetchIntoAnMBTilesFileThenInfoAndRenderFromIt() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    let url = FetchTesting.url(server, "ok")
    let fetch = ["tiles", "fetch", "--url", url, "--locations", california, "--zoom", "7-8"]
    let result = try sandbox.run(fetch + ["--to", "ca.mbtiles", "--attribution", "© Test Tiles"])
    assertSucceeded(result)
    let box = FetchTesting.regionBox([(37.3349, -122.0090), (37.7955, -122.3937)])
    let expected = FetchTesting.slippyTiles(
      west: box.west, south: box.south, east: box.east, north: box.north, zooms: 7...8,
      margin: FetchTesting.viewMargin())
    XCTAssertEqual(expected.count, 40)
    XCTAssertEqual(
      result.stdoutText,
      "fetched \(expected.count) tiles (\(FetchTesting.byteText(expected.count * FetchTesting.okTileBytes)))"
        + " into ca.mbtiles\n")
    XCTAssertEqual(
      try sandbox.files(), ["ca.mbtiles", "california.json"], "no journal or temporary file is left")
    let file = try XCTUnwrap(sandbox.contents(of: "ca.mbtiles"))
    XCTAssertNotNil(file.range(of: Data("© Test Tiles".utf8)), "the attribution is in the metadata table")
    XCTAssertNotNil(file.range(of: Data(url.utf8)), "the source is in the metadata table")

    let info = try sandbox.run(["tiles", "info", "ca.mbtiles"])
    assertSucceeded(info)
    let lines = info.stdoutText.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    XCTAssertEqual(info.stdoutText.split(separator: "\n").first, "ca.mbtiles (MBTiles file)")
    for zoom in 7...8 {
      let count = expected.filter { $0.hasPrefix("\(zoom)/") }.count
      XCTAssertTrue(
        lines.contains { $0 == ["\(zoom)", "\(count)", "\(count * FetchTesting.okTileBytes)"] },
        info.stdoutText)
    }
    XCTAssertTrue(lines.contains { $0.first == "total" && $0.dropFirst().first == "\(expected.count)" })

    // A second fetch finds every tile fresh in the file and asks for nothing.
    let requestsBefore = server.requests().count
    let again = try sandbox.run(fetch + ["--to", "ca.mbtiles", "--attribution", "© Test Tiles"])
    assertSucceeded(again)
    XCTAssertEqual(
      again.stdoutText,
      "fetched 0 tiles (0 B) into ca.mbtiles; \(expected.count) fresh in the cache already\n")
    XCTAssertEqual(server.requests().count, requestsBefore)

    // Rendering from the file: every tile drawn, the file's attribution on the map; the same picture as a
    // render straight from the server with that attribution.
    let render = try sandbox.run(
      [
        "render", "--locations", california, "--tiles", "ca.mbtiles", "--size", "300x200", "--out",
        "file.png",
        "--layout-json", "-",
      ])
    assertSucceeded(render)
    XCTAssertEqual(render.stderr, "")
    let tiles = try Layout(render.stdout).tiles
    XCTAssertEqual(number(tiles["zoom"]), 8)
    XCTAssertEqual(number(tiles["missing"]), 0)
    XCTAssertEqual(number(tiles["drawn"]), number(tiles["needed"]))
    assertPNG(sandbox.contents(of: "file.png"), width: 300, height: 200)
    let remote = try sandbox.run(
      [
        "render", "--locations", california, "--tiles", url, "--size", "300x200", "--out", "server.png",
        "--attribution", "© Test Tiles",
      ])
    assertSucceeded(remote)
    XCTAssertEqual(sandbox.contents(of: "file.png"), sandbox.contents(of: "server.png"))
  }

  // MARK: - Dry run and the tile limit

  func testDryRunSaysWhatWouldBeFetchedAndSendsNothing() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--to", "tiles",
      "--attribution", "T",
    ]
    let dry = try sandbox.run(fetch + ["--zoom", "0-1", "--dry-run"])
    assertSucceeded(dry)
    XCTAssertEqual(
      dry.stdoutText,
      "would fetch 5 tiles of 5 into tiles; nothing was fetched\n")
    XCTAssertEqual(server.requests().count, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("tiles")), "a dry run makes no cache")
    let over = try sandbox.run(fetch + ["--zoom", "0-1", "--dry-run", "--max-tiles", "3"])
    assertSucceeded(over)
    XCTAssertEqual(
      over.stdoutText,
      "would fetch 5 tiles of 5 into tiles; that is over the limit of 3: the fetch needs --max-tiles 5;"
        + " nothing was fetched\n")

    assertSucceeded(try sandbox.run(fetch + ["--zoom", "0-1"]))
    XCTAssertEqual(server.requests().count, 5)
    let second = try sandbox.run(fetch + ["--zoom", "0-2", "--dry-run"])
    assertSucceeded(second)
    XCTAssertEqual(
      second.stdoutText,
      "would fetch 4 tiles of 9 into tiles (5 fresh in the cache); nothing was fetched\n")
    XCTAssertEqual(server.requests().count, 5)
    XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path("tiles")).count, 5)
  }

  func testMoreThan2000TilesAreRefusedUnlessMaxTilesAllowsThem() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "ok")
    let world = FetchTesting.slippyCount(west: -180, south: -85, east: 180, north: 85, zooms: 0...6)
    XCTAssertEqual(world, 1 + 4 + 16 + 64 + 256 + 1024 + 4096)
    let refused = try sandbox.run(
      ["tiles", "fetch", "--url", url, "--bbox", "-180,-85,180,85", "--zoom", "0-6", "--attribution", "T"])
    assertFailed(
      refused, status: 2,
      message: "this would fetch \(world) tiles, more than the limit of 2000 per command (tile servers are"
        + " shared: fetch fewer zooms or a smaller area, or raise the limit with --max-tiles \(world))")
    XCTAssertEqual(server.requests().count, 0)

    // --max-tiles: 5 tiles are one too many for 4, and just right for 5.
    let fetch = [
      "tiles", "fetch", "--url", url, "--bbox", "-10,-10,10,10", "--to", "tiles", "--attribution", "T",
    ]
    assertFailed(
      try sandbox.run(fetch + ["--zoom", "0-1", "--max-tiles", "4"]), status: 2,
      message: "this would fetch 5 tiles, more than the limit of 4 per command (tile servers are"
        + " shared: fetch fewer zooms or a smaller area, or raise the limit with --max-tiles 5)")
    XCTAssertEqual(server.requests().count, 0)
    let allowed = try sandbox.run(fetch + ["--zoom", "0-1", "--max-tiles", "5"])
    assertSucceeded(allowed)
    XCTAssertTrue(allowed.stdoutText.hasPrefix("fetched 5 tiles ("), allowed.stdoutText)
    // The limit counts the tiles to fetch, not those already fresh in the cache: 9 at zooms 0-2, 4 new.
    let more = try sandbox.run(fetch + ["--zoom", "0-2", "--max-tiles", "4"])
    assertSucceeded(more)
    XCTAssertTrue(more.stdoutText.hasPrefix("fetched 4 tiles ("), more.stdoutText)
    XCTAssertTrue(more.stdoutText.hasSuffix("; 5 fresh in the cache already\n"), more.stdoutText)
    XCTAssertEqual(server.requests().count, 9)
  }

  // MARK: - What the server says

  func testEachKindOfFailureGivesOneSummaryLineExit4AndNoGarbage() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    func fetch(_ behaviour: String, query: String = "", zoom: String = "0-1") -> [String] {
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, behaviour, query: query), "--bbox",
        "-10,-10,10,10",
        "--zoom", zoom, "--to", behaviour, "--attribution", "T",
      ]
    }
    // A cut-off body is retried with back-off (1 s, then 2 s): one tile, run alongside the others.
    let truncated = try sandbox.start(fetch("truncated", zoom: "0"))
    let cases: [(behaviour: String, kind: String)] = [
      ("html", "not an image"), ("garbage", "not an image"), ("error", "HTTP 500"), ("small", "wrong size"),
    ]
    for item in cases {
      let result = try sandbox.run(fetch(item.behaviour))
      XCTAssertEqual(result.status, 4, result.transcript)
      XCTAssertEqual(
        result.stderr, "mymap: error: 5 of 5 tiles could not be fetched: 5 × \(item.kind)\n", item.behaviour)
      XCTAssertEqual(result.stdoutText, "fetched 0 tiles (0 B) into \(item.behaviour)\n", item.behaviour)
      XCTAssertEqual(
        try FetchTesting.filesBesideTheDatabase(in: sandbox.path(item.behaviour)), ["metadata.json"],
        "\(item.behaviour): nothing but the cache's own files")
      XCTAssertEqual(server.requestCount(item.behaviour), 5, "\(item.behaviour): each tile once, no retry")
    }
    // A server still busy (503) or limiting (429) after a tile's 3 attempts is not asked for the other tiles.
    // The tiles go out zoom by zoom, row by row, two at a time: 0/0/0 and 1/0/0 start together, and the one
    // in flight when the other gives up is finished (tried 3 times too) unless it had not started yet.
    let refusing: [(behaviour: String, kind: String, reason: String)] = [
      ("busy", "HTTP 503", "server busy (HTTP 503, retry after 0 s)"),
      ("limited", "HTTP 429", "too many requests (HTTP 429, retry after 0 s)"),
    ]
    for item in refusing {
      let query = "n=5&retry_after=0"
      let result = try sandbox.run(fetch(item.behaviour, query: query))
      XCTAssertEqual(result.status, 4, result.transcript)
      let requested = server.requests().map(\.path).filter { $0.hasPrefix("/\(item.behaviour)/") }
      let asked = Set(requested.map { String($0.dropFirst(item.behaviour.count + 2).dropLast(".png".count)) })
      XCTAssertTrue(
        (1...2).contains(asked.count) && asked.isSubset(of: ["0/0/0", "1/0/0"]),
        "\(item.behaviour): \(requested)")
      XCTAssertEqual(requested.count, 3 * asked.count, "\(item.behaviour): 3 attempts for each tile asked")
      let first = asked.contains("0/0/0") ? "0/0/0" : "1/0/0"
      let url = FetchTesting.url(server, item.behaviour, query: query)
      XCTAssertEqual(
        result.stderr,
        "mymap: error: 5 of 5 tiles could not be fetched: 5 × \(item.kind); \(5 - asked.count) of them were"
          + " not asked for after: cannot fetch tile \(first) from \(url): \(item.reason) (after 3"
          + " attempts)\n",
        item.behaviour)
      XCTAssertEqual(result.stdoutText, "fetched 0 tiles (0 B) into \(item.behaviour)\n", item.behaviour)
      XCTAssertEqual(
        try FetchTesting.filesBesideTheDatabase(in: sandbox.path(item.behaviour)), ["metadata.json"],
        "\(item.behaviour): nothing but the cache's own files")
    }
    let cut = truncated.wait()
    XCTAssertEqual(cut.status, 4, cut.transcript)
    XCTAssertEqual(cut.stderr, "mymap: error: 1 of 1 tiles could not be fetched: 1 × cut off\n")
    XCTAssertEqual(cut.stdoutText, "fetched 0 tiles (0 B) into truncated\n")
    XCTAssertEqual(
      try FetchTesting.filesBesideTheDatabase(in: sandbox.path("truncated")), ["metadata.json"])
    XCTAssertEqual(server.requestCount("truncated"), 3, "a cut-off answer is tried 3 times")
  }

  func testSomeTilesFetchedAndSomeFailedAreCountedApart() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    // `busy?n=3` answers 503 to the first 3 requests of each path, asking for a retry at once (that waits
    // are as long as Retry-After says is shown by TileFetcherTests). The box holds one tile per zoom (0/0/0,
    // 1/0/1, 2/1/2), so all the tiles of a run are in flight at once: the refusal of one of them (after its
    // retries) leaves no tile unasked, and every tile counts.
    let url = FetchTesting.url(server, "busy", query: "n=3&retry_after=0")
    let fetch = [
      "tiles", "fetch", "--url", url, "--bbox", "-10,-10,-5,-5", "--to", "tiles", "--attribution", "T",
    ]
    func requests() -> [String: Int] {
      server.requests().reduce(into: [:]) { counts, request in counts[request.path, default: 0] += 1 }
    }
    // Zoom 0: its one tile is refused three times.
    let first = try sandbox.run(fetch + ["--zoom", "0"])
    XCTAssertEqual(first.status, 4, first.transcript)
    XCTAssertEqual(first.stderr, "mymap: error: 1 of 1 tiles could not be fetched: 1 × HTTP 503\n")
    XCTAssertEqual(first.stdoutText, "fetched 0 tiles (0 B) into tiles\n")
    XCTAssertEqual(requests(), ["/busy/0/0/0.png": 3])
    // Zooms 0-1: 0/0/0 is asked a fourth time (200); 1/0/1 is new and refused three times.
    let second = try sandbox.run(fetch + ["--zoom", "0-1"])
    XCTAssertEqual(second.status, 4, second.transcript)
    XCTAssertEqual(second.stderr, "mymap: error: 1 of 2 tiles could not be fetched: 1 × HTTP 503\n")
    XCTAssertEqual(
      second.stdoutText, "fetched 1 tile (\(FetchTesting.byteText(FetchTesting.okTileBytes))) into tiles\n")
    XCTAssertEqual(requests(), ["/busy/0/0/0.png": 4, "/busy/1/0/1.png": 3])
    XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path("tiles")), ["0/0/0.png"])
    // Zooms 0-2: 0/0/0 is fresh, 1/0/1 is fetched on its fourth request, 2/1/2 is refused.
    let third = try sandbox.run(fetch + ["--zoom", "0-2"])
    XCTAssertEqual(third.status, 4, third.transcript)
    XCTAssertEqual(third.stderr, "mymap: error: 1 of 2 tiles could not be fetched: 1 × HTTP 503\n")
    XCTAssertEqual(
      third.stdoutText,
      "fetched 1 tile (\(FetchTesting.byteText(FetchTesting.okTileBytes))) into tiles; 1 fresh in the cache"
        + " already\n")
    XCTAssertEqual(requests(), ["/busy/0/0/0.png": 4, "/busy/1/0/1.png": 4, "/busy/2/1/2.png": 3])
    XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path("tiles")), ["0/0/0.png", "1/0/1.png"])
  }

  func testBusyAndRateLimitedServersAreRetried() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    for behaviour in ["busy", "limited"] {
      let result = try sandbox.run(
        [
          "tiles", "fetch", "--url", FetchTesting.url(server, behaviour, query: "n=2&retry_after=0"),
          "--bbox",
          "-10,-10,10,10", "--zoom", "0-1", "--to", behaviour, "--attribution", "T",
        ])
      assertSucceeded(result)
      XCTAssertEqual(result.stderr, "")
      XCTAssertTrue(result.stdoutText.hasPrefix("fetched 5 tiles ("), result.stdoutText)
      XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path(behaviour)).count, 5)
      XCTAssertEqual(server.requestCount(behaviour), 15, "two refusals, then the tile, for each of 5")
    }
  }

  func testAFolderThatIsNotACacheIsRefusedWithAdviceNamingTo() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("photos"), withIntermediateDirectories: true)
    try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("photos/a.jpg")))
    let port = try closedLocalPort()
    let result = try sandbox.run([
      "tiles", "fetch", "--url", "http://127.0.0.1:\(port)/{z}/{x}/{y}.png", "--bbox", "-10,-10,-5,-5",
      "--zoom", "0", "--to", "photos", "--attribution", "T",
    ])
    assertFailed(
      result, status: 3,
      message:
        "photos is not empty and is not a mymap tile cache (it has no metadata.json written by mymap); "
        + "choose an empty or new folder with --to")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("photos")), ["a.jpg"])
  }

  func testACacheThatCannotBeWrittenStopsTheFetchWithExit3() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    // One tile per zoom: 0/0/0, then 1/0/1.
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,-5,-5", "--to", "tiles",
      "--attribution", "T",
    ]
    assertSucceeded(try sandbox.run(fetch + ["--zoom", "0"]))
    // A file where the folder of zoom 1 must go: the tile of zoom 1 cannot be stored.
    try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("tiles/1")))
    let result = try sandbox.run(fetch + ["--zoom", "0-1"])
    assertFailed(
      result, status: 3, prefix: "cannot write to tile cache tiles (cannot create folder tiles/1/0: ",
      containing: ["); check its permissions or choose another cache with --to"])
    XCTAssertEqual(server.requests().map(\.path), ["/ok/0/0/0.png", "/ok/1/0/1.png"])
    XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path("tiles")), ["0/0/0.png"])
  }

  /// A cache failure cancels the requests in flight while others finish: this once deadlocked
  /// (URLSessionTask.cancel() called from the cancellation handler). Several runs with four tiles in flight.
  func testACacheFailureWithRequestsInFlightNeverHangs() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    for _ in 0..<6 {
      let sandbox = try Sandbox()
      let fetch = [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--to", "tiles",
        "--attribution", "T",
      ]
      assertSucceeded(try sandbox.run(fetch + ["--zoom", "0"]))
      try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("tiles/1")))
      let result = try sandbox.run(fetch + ["--zoom", "0-1"])
      XCTAssertEqual(result.status, 3, result.transcript)
    }
  }

  func testTilesTheServerDoesNotHaveAreNotAnError() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "missing"), "--bbox", "-10,-10,10,10", "--zoom",
        "0-1", "--to", "tiles", "--attribution", "T",
      ])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(result.stdoutText, "fetched 0 tiles (0 B) into tiles; 5 not on the server\n")
    XCTAssertEqual(
      try FetchTesting.filesBesideTheDatabase(in: sandbox.path("tiles")), ["metadata.json"])
    XCTAssertEqual(server.requestCount("missing"), 5, "a 404 is not retried")
  }

  // MARK: - Freshness

  func testASecondRunSendsNothingForFreshTiles() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--zoom", "0-1",
      "--attribution", "T",
    ]
    assertSucceeded(try sandbox.run(fetch))
    XCTAssertEqual(server.requests().count, 5)
    let folder = try FetchTesting.defaultCache(sandbox, server)
    let before = try FetchTesting.tileFiles(in: folder).map {
      try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))
    }
    let again = try sandbox.run(fetch)
    assertSucceeded(again)
    XCTAssertEqual(again.stdoutText, "fetched 0 tiles (0 B) into \(folder); 5 fresh in the cache already\n")
    XCTAssertEqual(server.requests().count, 5, "no request at all for fresh tiles")
    let after = try FetchTesting.tileFiles(in: folder).map {
      try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))
    }
    XCTAssertEqual(before, after)
  }

  func testStaleTilesAreRevalidatedWithTheirETag() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "etag", query: "max_age=0"), "--bbox",
      "-10,-10,10,10", "--zoom", "0-1", "--to", "tiles", "--attribution", "T",
    ]
    let first = try sandbox.run(fetch)
    assertSucceeded(first)
    XCTAssertTrue(first.stdoutText.hasPrefix("fetched 5 tiles ("), first.stdoutText)
    XCTAssertEqual(server.requests().map(\.ifNoneMatch), Array(repeating: nil, count: 5))
    let tile = try XCTUnwrap(sandbox.contents(of: "tiles/0/0/0.png"))

    let second = try sandbox.run(fetch)
    assertSucceeded(second)
    XCTAssertEqual(second.stdoutText, "fetched 0 tiles (0 B) into tiles; 5 unchanged on the server\n")
    let revalidations = Array(server.requests().dropFirst(5))
    XCTAssertEqual(revalidations.count, 5)
    XCTAssertEqual(Set(revalidations.map(\.path)), Set(server.requests().prefix(5).map(\.path)))
    for request in revalidations {
      XCTAssertEqual(request.ifNoneMatch, "\"v1\"", request.path)
    }
    XCTAssertEqual(sandbox.contents(of: "tiles/0/0/0.png"), tile, "a 304 keeps the tile")
    XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path("tiles")).count, 5)
  }

  func testTilesWithOnlyLastModifiedAreKeptForAWeek() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "lastmod"), "--bbox", "-10,-10,10,10", "--zoom",
      "0",
      "--to", "tiles", "--attribution", "T",
    ]
    assertSucceeded(try sandbox.run(fetch))
    let again = try sandbox.run(fetch)
    assertSucceeded(again)
    XCTAssertEqual(again.stdoutText, "fetched 0 tiles (0 B) into tiles; 1 fresh in the cache already\n")
    XCTAssertEqual(server.requests().count, 1)
  }

  // MARK: - Who is asking, and secrets

  func testRequestsCarryMymapsUserAgentWithTheContact() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let version = try FetchTesting.version(sandbox)
    let fetch = ["tiles", "fetch", "--bbox", "-10,-10,10,10", "--zoom", "0", "--attribution", "T"]
    assertSucceeded(try sandbox.run(fetch + ["--url", FetchTesting.url(server, "ok"), "--to", "plain"]))
    assertSucceeded(
      try sandbox.run(
        fetch + ["--url", FetchTesting.url(server, "ok"), "--to", "flag", "--contact", "me@example.org"]))
    assertSucceeded(
      try sandbox.run(
        fetch + ["--url", FetchTesting.url(server, "ok"), "--to", "environment"],
        environment: ["MYMAP_CONTACT": "https://example.org/who"]))
    XCTAssertEqual(
      server.requests().map(\.userAgent),
      [
        "mymap/\(version) (+https://example.invalid/mymap)",
        "mymap/\(version) (+https://example.invalid/mymap; me@example.org)",
        "mymap/\(version) (+https://example.invalid/mymap; https://example.org/who)",
      ])
  }

  func testAnAPIKeyFromTheEnvironmentIsSentButNeverWrittenOrShown() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let secret = "s3cr3t-key"
    let environment = ["TILE_KEY": secret]
    // The key in the path too, so that the request log shows it was used.
    let url = "\(server.baseURL)/ok/{key:TILE_KEY}/{z}/{x}/{y}.png?apikey={key:TILE_KEY}"
    let failing = "\(server.baseURL)/error/{key:TILE_KEY}/{z}/{x}/{y}.png?apikey={key:TILE_KEY}"
    var results: [CLIResult] = []
    for arguments in [
      ["--url", url, "--attribution", "T"],
      ["--url", url, "--attribution", "T", "--zoom", "0-2"],  // a second run: fresh and new tiles
      ["--url", url, "--to", "keyed.mbtiles"],  // no attribution: the warning names the source
      ["--url", url, "--dry-run"],
      ["--url", failing, "--attribution", "T"],
    ] {
      var full = ["tiles", "fetch", "--bbox", "-10,-10,10,10"] + arguments
      if !arguments.contains("--zoom") { full += ["--zoom", "0-1"] }
      results.append(try sandbox.run(full, environment: environment))
    }
    XCTAssertEqual(results.map(\.status), [0, 0, 0, 0, 4], results.map(\.transcript).joined(separator: "\n"))
    XCTAssertEqual(
      results[2].stderr,
      "mymap: warning: no attribution is known for \(url); most tile providers require one on every map:"
        + " give it with --attribution TEXT\n")
    for result in results {
      XCTAssertFalse(result.stdoutText.contains(secret), result.stdoutText)
      XCTAssertFalse(result.stderr.contains(secret), result.stderr)
    }
    XCTAssertTrue(
      server.requests().contains { $0.path == "/ok/\(secret)/0/0/0.png" }, "the key is sent to the server")
    XCTAssertEqual(try FetchTesting.filesContaining(secret, under: sandbox.home.path), [])
    XCTAssertEqual(try FetchTesting.filesContaining(secret, under: sandbox.url.path), [])
    let folder = try FetchTesting.defaultCache(sandbox, server, behaviour: "ok")
    XCTAssertEqual(try FetchTesting.metadata(in: folder)["source"] as? String, url)
    XCTAssertFalse(folder.contains(secret))
    XCTAssertNotNil(sandbox.contents(of: "keyed.mbtiles")?.range(of: Data(url.utf8)))

    // Without the variable the template cannot be used.
    assertFailed(
      try sandbox.run(["tiles", "fetch", "--url", url, "--bbox", "-10,-10,10,10", "--zoom", "0"]), status: 2,
      message:
        "the tile URL template needs an API key from the environment variable TILE_KEY, which is not set")
  }

  func testAPasswordInTheURLIsRedacted() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let password = "pa55w0rd-xyz"
    let url = "http://mapper:\(password)@127.0.0.1:\(server.port)/\(server.namespace)/ok/{z}/{x}/{y}.png"
    let result = try sandbox.run(["tiles", "fetch", "--url", url, "--bbox", "-10,-10,10,10", "--zoom", "0"])
    assertSucceeded(result)
    let redacted = "http://mapper:***@127.0.0.1:\(server.port)/\(server.namespace)/ok/{z}/{x}/{y}.png"
    XCTAssertTrue(result.stderr.contains(redacted), result.stderr)
    XCTAssertFalse(
      result.stderr.contains(password) || result.stdoutText.contains(password), result.transcript)
    XCTAssertEqual(try FetchTesting.filesContaining(password, under: sandbox.home.path), [])
    let root = sandbox.home.appendingPathComponent("cache/mymap/tiles").path
    let folders = try FileManager.default.contentsOfDirectory(atPath: root)
    XCTAssertEqual(folders.count, 1)
    XCTAssertEqual(try FetchTesting.metadata(in: root + "/" + folders[0])["source"] as? String, redacted)
  }

  func testRetinaTilesAreFetchedAt512Pixels() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = "\(server.baseURL)/retina/{z}/{x}/{y}{r}.png"
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", url, "--bbox", "-10,-10,10,10", "--zoom", "0-1", "--retina",
        "--attribution", "T",
      ])
    assertSucceeded(result)
    XCTAssertEqual(Set(server.requests().map(\.path)).count, 5)
    XCTAssertTrue(server.requests().allSatisfy { $0.path.hasSuffix("@2x.png") }, "\(server.requests())")
    let root = sandbox.home.appendingPathComponent("cache/mymap/tiles").path
    let folders = try FileManager.default.contentsOfDirectory(atPath: root)
    XCTAssertEqual(folders.count, 1)
    XCTAssertTrue(folders.first?.hasSuffix("@2x") == true, "\(folders)")
    let folder = root + "/" + folders[0]
    XCTAssertEqual(try FetchTesting.metadata(in: folder)["tileSize"] as? Int, 512)
    let tile = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: folder + "/0/0/0.png")))
    XCTAssertEqual([tile.width, tile.height], [512, 512])
  }

  // MARK: - Bad usage

  func testUsageErrorsAreOneLineWithExit2AndTouchNothing() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = FetchTesting.url(server, "ok")
    let cases: [([String], String)] = [
      (
        ["--url", "\(server.baseURL)/ok/{x}/{y}.png", "--bbox", "0,0,1,1", "--zoom", "1"],
        "the tile URL template has no {z} placeholder"
      ),
      (
        ["--url", "\(server.baseURL)/ok/{z}/{y}.png", "--bbox", "0,0,1,1", "--zoom", "1"],
        "the tile URL template has no {x} placeholder"
      ),
      (
        ["--url", "\(server.baseURL)/ok/{z}/{x}.png", "--bbox", "0,0,1,1", "--zoom", "1"],
        "the tile URL template has no {y} or {-y} placeholder"
      ),
      (
        ["--url", "ftp://127.0.0.1/{z}/{x}/{y}.png", "--bbox", "0,0,1,1", "--zoom", "1"],
        "a tile URL template must start with http:// or https://"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--locations", "x.json", "--zoom", "1"],
        "give only one of --bbox, --locations and --store"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--store", "s.sqlite", "--zoom", "1"],
        "give only one of --bbox, --locations and --store"
      ),
      (
        ["--url", url, "--locations", "x.json", "--store", "s.sqlite", "--zoom", "1"],
        "give only one of --bbox, --locations and --store"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--zoom", "1", "--max-tiles", "0"],
        "invalid value '0' for --max-tiles: expected a whole number from 1 to 1000000"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--zoom", "1", "--max-tiles", "1000001"],
        "invalid value '1000001' for --max-tiles: expected a whole number from 1 to 1000000"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--zoom", "1", "--max-tiles", "-3"],
        "invalid value '-3' for --max-tiles: expected a whole number from 1 to 1000000"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--zoom", "1", "--retina"],
        "--retina needs a template with {r} (where the server wants @2x)"
      ),
      (
        ["--url", url, "--bbox", "0,0,1,1", "--zoom", "1", "--bogus"],
        "unknown option '--bogus'"
      ),
    ]
    for (arguments, message) in cases {
      let result = try sandbox.run(["tiles", "fetch"] + arguments)
      assertFailed(result, status: 2, message: message)
    }
    // Without --url or --zoom (the exact wording after the option's name is the parser's).
    assertFailed(
      try sandbox.run(["tiles", "fetch", "--bbox", "0,0,1,1", "--zoom", "1"]), status: 2,
      prefix: "missing --url TEMPLATE")
    assertFailed(
      try sandbox.run(["tiles", "fetch", "--url", url, "--bbox", "0,0,1,1"]), status: 2,
      prefix: "missing --zoom A-B")
    XCTAssertEqual(server.requests().count, 0)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("cache/mymap").path),
      "no cache is made for a command that cannot run")
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testBadZoomAndBoxValuesSayWhatIsWrongInPlainWords() throws {
    let sandbox = try Sandbox()
    let url = "http://127.0.0.1:9/ok/{z}/{x}/{y}.png"
    let zoom: [(String, String)] = [
      ("5-3", "the first zoom must not be above the second"),
      ("23", "zooms go from 0 to 22"),
      ("abc", "expected a zoom like 12 or a range like 10-14"),
    ]
    for (value, reason) in zoom {
      assertFailed(
        try sandbox.run(["tiles", "fetch", "--url", url, "--bbox", "0,0,1,1", "--zoom", value]), status: 2,
        message: "invalid value '\(value)' for --zoom: \(reason)")
    }
    let boxes: [(String, String)] = [
      ("0,0,1", "expected four numbers west,south,east,north, like 2.25,48.81,2.42,48.90"),
      ("0,1,1,0", "south must not be above north"),
      ("0,0,200,1", "longitudes go from -180 to 180"),
      ("0,-91,1,1", "latitudes go from -90 to 90"),
    ]
    for (value, reason) in boxes {
      assertFailed(
        try sandbox.run(["tiles", "fetch", "--url", url, "--bbox", value, "--zoom", "1"]), status: 2,
        message: "invalid value '\(value)' for --bbox: \(reason)")
    }
  }

  // MARK: - Ctrl-C

  func testCtrlCStopsWithExit130AndLeavesAConsistentCache() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    // 85 tiles, each answered after 0.2 s, two at a time: about 9 s if nothing stopped it. Ctrl-C comes
    // once the first tile is in the cache.
    let total = FetchTesting.slippyCount(west: -170, south: -80, east: 170, north: 80, zooms: 0...3)
    XCTAssertEqual(total, 85)
    let running = try sandbox.start(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "slow", query: "delay=0.2"), "--bbox",
        "-170,-80,170,80", "--zoom", "0-3", "--to", "tiles", "--attribution", "T",
      ])
    try FetchTesting.waitUntil("a tile is in the cache", running) {
      (try? FetchTesting.tileFiles(in: sandbox.path("tiles")).isEmpty) == false
    }
    kill(running.process.processIdentifier, SIGINT)
    let result = running.wait()

    XCTAssertEqual(result.status, 130, result.transcript)
    XCTAssertEqual(result.stdoutText, "")
    let last = try XCTUnwrap(result.stderrLines.last)
    let stored = try FetchTesting.interruptedCount(last, total: total)
    XCTAssertGreaterThan(stored, 0, "tiles answered before Ctrl-C are kept: \(result.transcript)")
    XCTAssertLessThan(stored, total)
    for line in result.stderrLines.dropLast() {
      XCTAssertTrue(line.hasPrefix("mymap: "), "unexpected stderr line \(line.debugDescription)")
    }
    try FetchTesting.assertConsistentCache(sandbox, folder: "tiles", tiles: stored)
  }

  func testCtrlCLetsTheTilesInFlightFinish() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    // Each tile takes 0.5 s; Ctrl-C comes as soon as the server has the first two requests, so both are in
    // flight. "The tiles in flight finish": they are stored, and counted.
    let running = try sandbox.start(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "slow", query: "delay=0.5"), "--bbox",
        "-170,-80,170,80", "--zoom", "0-3", "--to", "tiles", "--attribution", "T",
      ])
    try FetchTesting.waitUntil("the server has two requests", running) { server.requests().count >= 2 }
    kill(running.process.processIdentifier, SIGINT)
    let result = running.wait()
    XCTAssertEqual(result.status, 130, result.transcript)
    XCTAssertEqual(
      result.stderrLines.first,
      "mymap: stopping after the tiles in flight (Ctrl-C again to quit at once)")
    let stored = try FetchTesting.interruptedCount(try XCTUnwrap(result.stderrLines.last), total: 85)
    XCTAssertGreaterThanOrEqual(
      stored, 1, "the tiles in flight at Ctrl-C are finished and kept: \(result.transcript)")
    try FetchTesting.assertConsistentCache(sandbox, folder: "tiles", tiles: stored)
  }

  // MARK: - The progress line

  func testProgressLineIsDrawnOnATerminal() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--zoom", "0-3",
      "--attribution", "T",
    ]
    let terminal = try FetchTesting.runInTerminal(sandbox, fetch + ["--to", "terminal"])
    XCTAssertEqual(terminal.status, 0, terminal.output)
    XCTAssertTrue(terminal.output.contains("\rtiles 13/13  100%"), terminal.output.debugDescription)
    let progress = terminal.output.components(separatedBy: "\rtiles ").dropFirst()
    XCTAssertFalse(progress.isEmpty)
    for piece in progress {
      XCTAssertNotNil(piece.range(of: #"^\d+/13  \d+%"#, options: .regularExpression), piece.debugDescription)
    }
    XCTAssertTrue(terminal.output.contains("fetched 13 tiles ("), terminal.output.debugDescription)

    // --quiet: nothing at all, even on a terminal.
    let quiet = try FetchTesting.runInTerminal(sandbox, fetch + ["--to", "quiet", "--quiet"])
    XCTAssertEqual(quiet.status, 0, quiet.output)
    XCTAssertEqual(quiet.output, "")
    XCTAssertEqual(try FetchTesting.tileFiles(in: sandbox.path("quiet")).count, 13)
  }

  func testADumbTerminalGetsNoRedrawnLine() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--zoom", "0-3",
      "--attribution", "T", "--to", "dumb",
    ]
    let dumb = try FetchTesting.runInTerminal(sandbox, fetch, environment: ["TERM": "dumb"])
    XCTAssertEqual(dumb.status, 0, dumb.output)
    XCTAssertFalse(dumb.output.contains("\rtiles"), dumb.output.debugDescription)
    XCTAssertFalse(dumb.output.contains("\u{1B}"), dumb.output.debugDescription)
    XCTAssertTrue(dumb.output.contains("fetched 13 tiles ("), dumb.output.debugDescription)
  }

  func testNoProgressLineWithoutATerminal() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--zoom", "0-3",
        "--to", "tiles", "--attribution", "T",
      ])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    XCTAssertFalse(result.stdoutText.contains("\r"))
    XCTAssertTrue(result.stdoutText.hasPrefix("fetched 13 tiles ("), result.stdoutText)
  }

  func testFetchingLeavesNoNewFoldersInTheHome() throws {
    // Making a URL session makes FoundationNetworking create `$XDG_DATA_HOME/<the executable's folder>` (for
    // cookies) and `$XDG_CACHE_HOME/org.swift.foundation.URLCache/mymap`; mymap uses neither and removes
    // them again, but only when they are new and empty.
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let home = sandbox.home
    let files = FileManager.default
    func everything() -> [String] {
      (files.enumerator(atPath: home.path)?.allObjects as? [String] ?? []).sorted()
    }
    let arguments = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "2.3,48.85,2.31,48.86",
      "--zoom", "12", "--attribution", "T",
    ]
    let before = everything()
    assertSucceeded(try sandbox.run(arguments + ["--to", "first"]))
    XCTAssertEqual(server.requestCount("ok"), 1, "the fetch made no request")
    XCTAssertEqual(everything(), before, "the fetch left new folders in HOME")

    // The same folders, made (empty) before the run, stay.
    let executableFolder = try MymapBinary.url().deletingLastPathComponent().deletingPathExtension()
      .lastPathComponent
    let existing = ["data/\(executableFolder)", "cache/org.swift.foundation.URLCache/mymap"]
    for folder in existing {
      try files.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let prepared = everything()
    XCTAssertEqual(prepared.count, 5, "\(prepared)")
    assertSucceeded(try sandbox.run(arguments + ["--to", "second"]))
    XCTAssertEqual(server.requestCount("ok"), 2, "the fetch made no request")
    XCTAssertEqual(everything(), prepared)
  }
}

// MARK: - Helpers shared with RemoteTilesRenderTests

/// What the tests of tile fetching share: the expected tiles, computed independently of mymap, and ways to
/// look at a cache.
enum FetchTesting {
  /// The size of the server's 256×256 PNG (`/ok/`).
  static let okTileBytes = 139_325

  /// A template for one behaviour of the local server.
  static func url(_ server: LocalTileServer, _ behaviour: String, query: String = "") -> String {
    "\(server.baseURL)/\(behaviour)/{z}/{x}/{y}.png" + (query.isEmpty ? "" : "?" + query)
  }

  /// The `z/x/y` names of the tiles covering a box, from the slippy-map formulas
  /// (x = ⌊(lon + 180) / 360 · 2^z⌋, y = ⌊(1 − ln(tan φ + sec φ) / π) / 2 · 2^z⌋); west > east crosses 180°.
  static func slippyTiles(
    west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>
  ) -> Set<String> {
    var result = Set<String>()
    for zoom in zooms {
      let (columns, rows) = ranges(west: west, south: south, east: east, north: north, zoom: zoom)
      for x in columns {
        for y in rows { result.insert("\(zoom)/\(x)/\(y)") }
      }
    }
    return result
  }

  /// The number of tiles covering a box: the sum over the zooms of columns × rows.
  static func slippyCount(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>)
    -> Int
  {
    zooms.reduce(0) { sum, zoom in
      let (columns, rows) = ranges(west: west, south: south, east: east, north: north, zoom: zoom)
      return sum + columns.count * rows.count
    }
  }

  private static func ranges(west: Double, south: Double, east: Double, north: Double, zoom: Int)
    -> (columns: [Int], rows: ClosedRange<Int>)
  {
    let count = 1 << zoom
    func column(_ longitude: Double) -> Int {
      min(Int(((longitude + 180) / 360 * Double(count)).rounded(.down)), count - 1)
    }
    func row(_ latitude: Double) -> Int {
      let radians = latitude * .pi / 180
      let y = (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * Double(count)
      return min(max(Int(y.rounded(.down)), 0), count - 1)
    }
    let columns =
      west <= east
      ? Array(column(west)...column(east)) : Array(column(west)..<count) + Array(0...column(east))
    return (columns, row(north)...row(south))
  }

  /// The margin `tiles fetch --locations` (or the store) adds around the places' box at every zoom for maps
  /// of `width`×`height` (`--size`, 800x600 by default): half a map and 64 pixels more on every side.
  static func viewMargin(width: Double = 800, height: Double = 600) -> (width: Double, height: Double) {
    (width / 2 + 64, height / 2 + 64)
  }

  /// The `z/x/y` names of the tiles covering a box grown by `margin` pixels on every side, in pixels of
  /// 256-pixel tiles at each zoom (2^z · 256 pixels around the world): the box's corners by the slippy-map
  /// formulas, moved out by the margin; rows clamped to the grid, every column when the grown box is as wide
  /// as the world or wider, columns wrapped across 180° otherwise (west > east crosses it).
  static func slippyTiles(
    west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>,
    margin: (width: Double, height: Double)
  ) -> Set<String> {
    var result = Set<String>()
    for zoom in zooms {
      let count = 1 << zoom
      let world = 256 * Double(count)
      func pixelX(_ longitude: Double) -> Double { (longitude + 180) / 360 * world }
      func pixelY(_ latitude: Double) -> Double {
        let radians = latitude * .pi / 180
        let y = (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * world
        return y.isNaN ? (latitude > 0 ? 0 : world) : min(max(y, 0), world)
      }
      let left = pixelX(west)
      let right = pixelX(east) + (west > east ? world : 0)
      let columns: [Int]
      if right - left + 2 * margin.width >= world {
        columns = Array(0..<count)
      } else {
        let first = Int(((left - margin.width) / 256).rounded(.down))
        let last = Int(((right + margin.width) / 256).rounded(.down))
        columns = (first...last).map { (($0 % count) + count) % count }
      }
      let top = max(pixelY(north) - margin.height, 0)
      let bottom = min(pixelY(south) + margin.height, world)
      let rows =
        min(Int((top / 256).rounded(.down)), count - 1)...min(Int((bottom / 256).rounded(.down)), count - 1)
      for x in columns {
        for y in rows { result.insert("\(zoom)/\(x)/\(y)") }
      }
    }
    return result
  }

  /// The box `render` fits to several places: their bounding box with 10 % more span around its centre.
  static func regionBox(_ places: [(latitude: Double, longitude: Double)])
    -> (west: Double, south: Double, east: Double, north: Double)
  {
    let latitudes = places.map(\.latitude)
    let longitudes = places.map(\.longitude)
    let (south, north) = (latitudes.min()!, latitudes.max()!)
    let (west, east) = (longitudes.min()!, longitudes.max()!)
    let (centerLatitude, centerLongitude) = ((south + north) / 2, (west + east) / 2)
    let (halfHeight, halfWidth) = ((north - south) * 1.1 / 2, (east - west) * 1.1 / 2)
    return (
      centerLongitude - halfWidth, centerLatitude - halfHeight, centerLongitude + halfWidth,
      centerLatitude + halfHeight
    )
  }

  /// `812 B`, `14.2 kB`, `2.3 MB`: how the result line gives sizes (powers of 1000).
  static func byteText(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) B" }
    if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1e3) }
    return String(format: "%.1f MB", Double(bytes) / 1e6)
  }

  /// The version `mymap --version` prints.
  static func version(_ sandbox: Sandbox) throws -> String {
    let result = try sandbox.run(["--version"])
    XCTAssertEqual(result.status, 0, result.transcript)
    let text = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertTrue(text.hasPrefix("mymap "), text)
    return String(text.dropFirst("mymap ".count))
  }

  /// The default cache folder of `behaviour` on `server`: `$XDG_CACHE_HOME/mymap/tiles/127.0.0.1_PORT-<hash>`
  /// (the one and only such folder when `behaviour` is nil).
  static func defaultCache(
    _ sandbox: Sandbox, _ server: LocalTileServer, behaviour: String? = nil, file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> String {
    let root = sandbox.home.appendingPathComponent("cache/mymap/tiles").path
    var folders = try FileManager.default.contentsOfDirectory(atPath: root).filter {
      $0.range(of: #"^127\.0\.0\.1_\#(server.port)-[0-9a-f]{8}$"#, options: .regularExpression) != nil
    }
    if let behaviour {
      folders = try folders.filter {
        (try metadata(in: root + "/" + $0)["source"] as? String)?.contains("/\(behaviour)/") == true
      }
    }
    XCTAssertEqual(folders.count, 1, "cache folders in \(root): \(folders)", file: file, line: line)
    return root + "/" + (folders.first ?? "")
  }

  /// Every file under `folder` (hidden ones too), as sorted relative paths.
  static func allFiles(in folder: String) throws -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var files: [String] = []
    while let name = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        files.append(name)
      }
    }
    return files.sorted()
  }

  /// The files under `folder` but `freshness.sqlite` (with SQLite's `-wal` and `-shm` beside it), which a
  /// tile folder always has; sorted.
  static func filesBesideTheDatabase(in folder: String, file: StaticString = #filePath, line: UInt = #line)
    throws -> [String]
  {
    let names = try allFiles(in: folder)
    XCTAssertTrue(names.contains("freshness.sqlite"), "\(folder): \(names)", file: file, line: line)
    return names.filter { !$0.hasPrefix("freshness.sqlite") }
  }

  /// Every file under `folder` with its bytes, by relative path: equal before and after a command that
  /// wrote nothing there.
  static func contents(of folder: String) throws -> [String: Data] {
    var contents: [String: Data] = [:]
    for name in try allFiles(in: folder) {
      contents[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return contents
  }

  /// The tile files under `folder` (`z/x/y.png`), sorted.
  static func tileFiles(in folder: String) throws -> [String] {
    try allFiles(in: folder).filter {
      $0.range(of: #"^\d+/\d+/\d+\.(png|jpg|webp)$"#, options: .regularExpression) != nil
    }
  }

  /// `metadata.json` of a tile folder, parsed.
  static func metadata(in folder: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/metadata.json"))
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The files under `folder` whose bytes contain `text`.
  static func filesContaining(_ text: String, under folder: String) throws -> [String] {
    try allFiles(in: folder).filter {
      (FileManager.default.contents(atPath: folder + "/" + $0) ?? Data()).range(of: Data(text.utf8)) != nil
    }
  }

  /// Waits (20 s at most) until `condition` holds while `running` still runs. mymap ending first, or the
  /// time running out, fails the test and throws: a crash before the awaited moment is a failure, never a
  /// skip.
  static func waitUntil(
    _ what: String, _ running: RunningMymap, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () -> Bool
  ) throws {
    let deadline = Date().addingTimeInterval(20)
    while !condition() {
      guard running.process.isRunning else {
        let result = running.wait(file: file, line: line)
        XCTFail("mymap ended before \(what)\n\(result.transcript)", file: file, line: line)
        throw WaitFailure(description: "mymap ended before \(what)")
      }
      guard Date() < deadline else {
        XCTFail("not within 20 s: \(what)", file: file, line: line)
        throw WaitFailure(description: "not within 20 s: \(what)")
      }
      usleep(5_000)
    }
  }

  /// Why `waitUntil` gave up.
  struct WaitFailure: Error, CustomStringConvertible {
    let description: String
  }

  /// N from `mymap: error: interrupted: N of TOTAL tiles were fetched and kept; the cache is consistent`.
  static func interruptedCount(
    _ line: String, total: Int, file: StaticString = #filePath, line number: UInt = #line
  )
    throws -> Int
  {
    let pattern =
      #"^mymap: error: interrupted: (\d+) of \#(total) tiles were fetched and kept; the cache is consistent$"#
    guard let match = line.range(of: pattern, options: .regularExpression) else {
      XCTFail("not the interruption line: \(line.debugDescription)", file: file, line: number)
      return -1
    }
    let text = String(line[match])
    let digits = text.dropFirst("mymap: error: interrupted: ".count).prefix { $0.isNumber }
    return Int(digits) ?? -1
  }

  /// The cache `folder` of the sandbox holds `tiles` tiles that all decode, no temporary file, and
  /// `tiles info` reads it.
  static func assertConsistentCache(
    _ sandbox: Sandbox, folder: String, tiles: Int, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let path = sandbox.path(folder)
    let names = try allFiles(in: path)
    let leftovers = names.filter { ($0 as NSString).lastPathComponent.hasPrefix(".") || $0.contains(".tmp") }
    XCTAssertEqual(leftovers, [], "temporary files left in the cache", file: file, line: line)
    let tileNames = try tileFiles(in: path)
    XCTAssertEqual(tileNames.count, tiles, "tiles in the cache: \(tileNames)", file: file, line: line)
    for name in tileNames {
      let data = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
      do {
        let image = try PNGCodec.decode(data)
        XCTAssertEqual([image.width, image.height], [256, 256], name, file: file, line: line)
      } catch {
        XCTFail("\(name) does not decode: \(error)", file: file, line: line)
      }
    }
    let info = try sandbox.run(["tiles", "info", folder])
    XCTAssertEqual(info.status, 0, info.transcript, file: file, line: line)
    let total = info.stdoutText.split(separator: "\n").first { $0.hasPrefix("total") }
    XCTAssertEqual(
      total?.split(separator: " ").dropFirst().first.map(String.init), "\(tiles)", info.stdoutText,
      file: file, line: line)
  }

  /// Runs `mymap` with stdout and stderr on a pseudo-terminal (util-linux `script`, else Python's `pty`)
  /// and returns what the terminal showed, with the exit code. Fails when neither is there.
  static func runInTerminal(
    _ sandbox: Sandbox, _ arguments: [String], environment extra: [String: String] = [:]
  ) throws -> (status: Int32, output: String) {
    let binary = try MymapBinary.url().path
    let process = Process()
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/script") {
      let command = ([binary] + arguments).map(shellQuoted).joined(separator: " ")
      process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
      process.arguments = ["-qec", command, "/dev/null"]
    } else if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      process.arguments = ["-c", pythonPTY, binary] + arguments
    } else {
      throw TestPrerequisiteMissing(
        "neither /usr/bin/script nor /usr/bin/python3 is there to make a pseudo-terminal")
    }
    process.currentDirectoryURL = sandbox.url
    var environment = [
      "HOME": sandbox.home.path,
      "MYMAP_HOME": sandbox.home.appendingPathComponent("mymap").path,
      "XDG_DATA_HOME": sandbox.home.appendingPathComponent("data").path,
      "XDG_CACHE_HOME": sandbox.home.appendingPathComponent("cache").path,
      "TZ": "UTC",
      "TERM": "xterm",
    ]
    for key in ["PATH", "LD_LIBRARY_PATH"] {
      if let value = ProcessInfo.processInfo.environment[key] { environment[key] = value }
    }
    environment.merge(Sandbox.noProfile) { $1 }
    environment.merge(extra) { $1 }
    process.environment = environment
    let capture = try TemporaryDirectory(prefix: "mymap-pty")
    let outputURL = try capture.write(Data(), to: "output")
    let handle = try FileHandle(forWritingTo: outputURL)
    defer { try? handle.close() }
    process.standardOutput = handle
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(30)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let output = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
    return (process.terminationStatus, output)
  }

  private static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// Runs argv[1:] on a new pseudo-terminal, copies what it shows to stdout, exits with its code.
  private static let pythonPTY = """
    import os, pty, sys
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.argv[1], sys.argv[1:])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(out)
    sys.exit(os.waitstatus_to_exitcode(status))
    """
}
