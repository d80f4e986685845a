import Foundation
import TestSupport
import XCTest

/// The promise of tile fetching: fetch once for your places, then render them offline from the cache; and
/// the limits that keep mymap polite when the server cannot or will not serve.
final class FetchThenOfflineTests: XCTestCase {
  private var server: LocalTileServer!

  override func setUpWithError() throws {
    server = try LocalTileServer()
  }

  override func tearDown() {
    server?.stop()
  }

  /// `tiles fetch --locations` gets every tile that `render --offline` of the same places needs, for the
  /// europe trip (zooms 0–6) and for six places around Apple Park (a street-level zoom).
  func testFetchingForThePlacesIsEnoughToRenderThemOffline() throws {
    let cupertino = RepositoryPaths.examples.appendingPathComponent("cupertino.json").path
    let cases: [(file: String, zooms: String, size: String)] = [
      (Inputs.europeTrip, "0-6", "800x600"), (cupertino, "14-16", "640x480"),
    ]
    for (file, zooms, size) in cases {
      let sandbox = try Sandbox()
      let url = FetchTesting.url(server, "ok")
      let fetch = try sandbox.run([
        "tiles", "fetch", "--url", url, "--locations", file, "--zoom", zooms, "--size", size,
        "--attribution", "Test tiles", "--quiet",
      ])
      assertSucceeded(fetch)
      let requests = server.requests().count
      let render = try sandbox.run([
        "render", "--tiles", url, "--locations", file, "--size", size, "--offline", "--out", "map.png",
        "--layout-json", "map.json",
      ])
      assertSucceeded(render)
      // Warnings about the callouts that did not fit may come; none about tiles.
      XCTAssertEqual(
        render.stderrLines.filter {
          $0.contains("tile") || $0.contains("missing") || $0.contains("placeholder")
        },
        [], "\(file): \(render.stderr)")
      XCTAssertTrue(render.stderrLines.allSatisfy { $0.hasPrefix("mymap: warning: ") }, render.stderr)
      let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "map.json")))
      XCTAssertEqual(number(layout.tiles["missing"]), 0, file)
      XCTAssertGreaterThan(number(layout.tiles["drawn"]) ?? 0, 0, file)
      XCTAssertEqual(server.requests().count, requests, "render --offline asks the server nothing")
    }
  }

  func testOfflineWithoutACacheSaysSoAndCreatesNothing() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run([
      "render", "--tiles", FetchTesting.url(server, "ok"), "--locations", Inputs.europeTrip, "--offline",
      "--attribution", "T", "--out", "map.png",
    ])
    assertFailed(
      result, status: 4, prefix: "no tiles of \(FetchTesting.url(server, "ok")) are cached yet",
      containing: ["render once without --offline or run 'mymap tiles fetch' first; nothing was written"])
    XCTAssertNil(sandbox.contents(of: "map.png"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("cache").path))
    XCTAssertEqual(server.requests().count, 0)
  }

  /// A server that keeps answering 503 is not asked for every other tile: after one tile's three attempts
  /// (and the one in flight beside it) the download stops asking, and the summary says so.
  func testABusyServerIsLeftAloneAfterItsRetries() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "busy", query: "n=9&retry_after=0"), "--bbox",
      "-180,-85,180,85", "--zoom", "0-2", "--to", "tiles", "--attribution", "T",
    ])
    XCTAssertEqual(result.status, 4, result.transcript)
    XCTAssertLessThanOrEqual(server.requestCount("busy"), 6, "\(server.requests().map(\.path))")
    let line = try XCTUnwrap(result.stderrLines.last)
    XCTAssertTrue(
      line.hasPrefix("mymap: error: 21 of 21 tiles could not be fetched: 21 × HTTP 503; "), line)
    XCTAssertTrue(line.contains(" of them were not asked for after: cannot fetch tile "), line)
    XCTAssertTrue(line.contains("server busy (HTTP 503, retry after 0 s) (after 3 attempts)"), line)
  }

  /// A Retry-After longer than mymap waits (30 s) stops the download at once: one request per tile in
  /// flight, no retries, no hammering.
  func testALongRetryAfterStopsTheDownload() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "limited", query: "n=99&retry_after=120"), "--bbox",
      "-180,-85,180,85", "--zoom", "0-3", "--to", "tiles", "--attribution", "T",
    ])
    XCTAssertEqual(result.status, 4, result.transcript)
    XCTAssertLessThanOrEqual(server.requestCount("limited"), 2)
    XCTAssertTrue(result.stderr.contains("too many requests (HTTP 429, retry after 120 s)"), result.stderr)
  }

  /// A wrong API key fails every tile the same way: the server is asked once or twice, not for every tile,
  /// and the line says what to check.
  func testARefusingServerIsAskedOnceAndTheLineSaysWhatToCheck() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "auth"), "--bbox", "-180,-85,180,85", "--zoom",
      "0-2", "--to", "tiles", "--attribution", "T",
    ])
    XCTAssertEqual(result.status, 4, result.transcript)
    XCTAssertLessThanOrEqual(server.requestCount("auth"), 2)
    let line = try XCTUnwrap(result.stderrLines.last)
    XCTAssertTrue(line.hasPrefix("mymap: error: 21 of 21 tiles could not be fetched: 21 × HTTP 401; "), line)
    XCTAssertTrue(line.hasSuffix("the server refused (HTTP 401; check the URL and its API key)"), line)
  }

  /// render has no --to: when the default cache cannot be written, the message says what can be done.
  func testAnUnwritableCacheHomeSaysWhatToDo() throws {
    let sandbox = try Sandbox()
    let blocker = try sandbox.write("not a folder", to: "blocker")
    let result = try sandbox.run(
      [
        "render", "--tiles", FetchTesting.url(server, "ok"), "--locations", Inputs.europeTrip,
        "--attribution", "T", "--out", "map.png",
      ], environment: ["XDG_CACHE_HOME": blocker + "/cache"])
    assertFailed(
      result, status: 3, prefix: "cannot write to tile cache \(blocker)/cache/mymap/tiles/",
      containing: ["check its permissions or XDG_CACHE_HOME, or render from it as it is with --offline"])
    XCTAssertNil(sandbox.contents(of: "map.png"))
    XCTAssertEqual(server.requests().count, 0)
  }

  func testTheTileLimitHasACeiling() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-180,-85,180,85", "--zoom",
      "0-22", "--max-tiles", "99999999999999999",
    ])
    assertFailed(
      result, status: 2,
      message:
        "invalid value '99999999999999999' for --max-tiles: expected a whole number from 1 to 1000000")
    let whole = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-180,-85,180,85", "--zoom",
      "0-22", "--max-tiles", "1000000",
    ])
    // Past the ceiling the advice is no longer to raise the limit.
    assertFailed(
      whole, status: 2,
      message:
        "this would fetch 23379423337813 tiles, more than the limit of 1000000 per command (tile servers are"
        + " shared: fetch fewer zooms or a smaller area)")
    let zoom12 = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-180,-85,180,85", "--zoom", "12",
    ])
    assertFailed(
      zoom12, status: 2,
      message:
        "this would fetch 16728064 tiles, more than the limit of 2000 per command (tile servers are shared:"
        + " fetch fewer zooms or a smaller area)")
    let zoom9 = try sandbox.run([
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-180,-85,180,85", "--zoom", "9",
    ])
    assertFailed(
      zoom9, status: 2,
      message:
        "this would fetch 262144 tiles, more than the limit of 2000 per command (tile servers are shared:"
        + " fetch fewer zooms or a smaller area, or raise the limit with --max-tiles 262144)")
    XCTAssertEqual(server.requests().count, 0)
  }
}
