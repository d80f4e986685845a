import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import TileFetching

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What `TileFetcher` makes of what a server answers: statuses, retries and their waits, time-outs,
/// revalidation, the stop switch. The server is `FakeTileServer` (tile_server.py's behaviours through a fake
/// transport) and the clock a `VirtualClock`, so that every wait is recorded instead of waited for; what
/// only the real network shows is in `CurlTransportTests`.
final class TileFetcherTests: XCTestCase {
  private var server: FakeTileServer!
  private let someTile = TileID(z: 3, x: 5, y: 2)!

  override func setUp() {
    server = FakeTileServer()
  }

  /// The recorded waits.
  private var sleeps: [Double] { server.clock.sleeps }

  private func fetcher(
    timeout: Double = 5, baseDelay: Double = 0.25, contact: String? = nil,
    maximumTileBytes: Int = TileFetchPolicy.defaultMaximumTileBytes
  ) -> TileFetcher {
    let policy = TileFetchPolicy(
      baseDelay: baseDelay, maximumRetryAfter: 30, timeout: timeout, maximumTileBytes: maximumTileBytes)
    return server.fetcher(contact: contact, policy: policy)
  }

  private func fetch(_ behaviour: String, query: String = "", expectedSize: Int = 256, timeout: Double = 5)
    async throws -> FetchedTile
  {
    try await fetcher(timeout: timeout).fetch(
      someTile, from: server.template(behaviour, query: query), expectedSize: expectedSize)
  }

  /// The `TileFetchError` a fetch throws; fails the test when it returns instead.
  private func fetchError(
    _ behaviour: String, query: String = "", expectedSize: Int = 256, timeout: Double = 5,
    file: StaticString = #filePath, line: UInt = #line
  ) async -> TileFetchError? {
    await expectTileFetchError(file: file, line: line) {
      try await fetch(behaviour, query: query, expectedSize: expectedSize, timeout: timeout)
    }
  }

  // MARK: Outcomes

  func testValidTileReturnsItsBytesAndImage() async throws {
    let result = try await fetch("ok")
    guard case .image(let data, let image, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(data, FakeTileServer.png256)
    XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(image.height, 256)
    XCTAssertEqual(try ImageDecoder.decode(data), image)
    XCTAssertEqual(image.pixel(x: 10, y: 20).red, 10)
    XCTAssertEqual(server.requestCount("ok"), 1)
    XCTAssertEqual(server.requests().first?.path, "/ok/3/5/2.png")
    XCTAssertEqual(
      server.transport.requests.first?.header("Accept"), "image/png,image/jpeg,image/webp;q=0.9,*/*;q=0.1")
    XCTAssertEqual(sleeps, [])
  }

  func testNotFoundIsMissingAndNotRetried() async throws {
    let result = try await fetch("missing")
    XCTAssertEqual(result, .missing)
    XCTAssertEqual(server.requestCount("missing"), 1)
  }

  func testHTMLServedAs200IsNotAnImage() async {
    let error = await fetchError("html")
    XCTAssertEqual(error?.reason, .notAnImage(contentType: "text/html; charset=utf-8"))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("html"), 1)
    XCTAssertTrue(error?.description.contains("not an image") ?? false, error?.description ?? "")
  }

  func testGarbageLabelledPNGIsNotAnImage() async {
    let error = await fetchError("garbage")
    XCTAssertEqual(error?.reason, .notAnImage(contentType: "image/png"))
    XCTAssertEqual(error?.isTransient, false)
  }

  func testSmallerImageIsTheWrongSize() async {
    let error = await fetchError("small")
    XCTAssertEqual(error?.reason, .wrongSize(width: 16, height: 16, expected: 256))
    XCTAssertEqual(server.requestCount("small"), 1)
  }

  func testLargerImageIsTheWrongSize() async {
    let error = await fetchError("ok", expectedSize: 128)
    XCTAssertEqual(error?.reason, .wrongSize(width: 256, height: 256, expected: 128))
    XCTAssertEqual(
      error?.description,
      "cannot fetch tile \(someTile) from \(server.baseURL)/ok/{z}/{x}/{y}.png: "
        + "the image is 256×256 pixels, expected 128×128")
  }

  func testTruncatedBodyIsRetriedThenReported() async {
    let error = await fetchError("truncated")
    guard case .truncated(let missing) = error?.reason else {
      return XCTFail("expected a truncated body, got \(String(describing: error))")
    }
    XCTAssertGreaterThan(missing ?? 0, 0)
    XCTAssertTrue(error?.description.contains("cut off") ?? false, error?.description ?? "")
    XCTAssertEqual(error?.attempts, 3)
    XCTAssertEqual(server.requestCount("truncated"), 3)
    // Back-off without Retry-After: 0.25 s, then 0.5 s.
    XCTAssertEqual(sleeps, [0.25, 0.5])
  }

  /// The transport delivers a body shorter than its Content-Length only when the connection did not say
  /// so; the fetcher checks the length itself, except for a compressed body (decompressed on the way).
  func testABodyShorterThanItsAnnouncedLengthIsCutOffUnlessItWasCompressed() async throws {
    let png = FakeTileServer.png256
    let short = "http://tiles.fake.test/short/3/5/2.png"
    let gzip = "http://tiles.fake.test/gzip/3/5/2.png"
    let transport = FakeTransport(
      clock: server.clock,
      script: [
        short: [
          .status(200, headers: ["Content-Type": "image/png"], body: png, announcedLength: png.count + 10)
        ],
        gzip: [
          .status(
            200, headers: ["Content-Type": "image/png", "Content-Encoding": "gzip"], body: png,
            announcedLength: 5_000)
        ],
      ])
    let fetcher = TileFetcher(version: "9.8.7", transport: transport, clock: server.clock)
    do {
      let result = try await fetcher.fetch(
        someTile, from: TileURLTemplate("http://tiles.fake.test/short/{z}/{x}/{y}.png", environment: [:]),
        expectedSize: 256)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .truncated(bytesMissing: 10))
      XCTAssertEqual(error.attempts, 3)
    }
    // The default policy's back-off: 1 s, then 2 s.
    XCTAssertEqual(sleeps, [1, 2])
    let result = try await fetcher.fetch(
      someTile, from: TileURLTemplate("http://tiles.fake.test/gzip/{z}/{x}/{y}.png", environment: [:]),
      expectedSize: 256)
    guard case .image(let data, _, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(data, png)
    XCTAssertEqual(transport.requests.map(\.url.absoluteString), [short, short, short, gzip])
  }

  func testServerErrorIsReportedWithoutRetrying() async {
    let error = await fetchError("error")
    XCTAssertEqual(error?.reason, .httpStatus(500, retryAfter: nil))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("error"), 1)
    XCTAssertEqual(sleeps, [])
  }

  // MARK: Retries

  func testBusyServerIsRetriedUntilItAnswers() async throws {
    let result = try await fetch("busy", query: "n=2&retry_after=0")
    guard case .image(_, let image, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(server.requestCount("busy"), 3)
    XCTAssertEqual(sleeps, [0, 0])
  }

  func testRetriesStopAfterThreeAttempts() async {
    let error = await fetchError("busy", query: "n=10&retry_after=0")
    XCTAssertEqual(error?.reason, .httpStatus(503, retryAfter: 0))
    XCTAssertEqual(error?.attempts, 3)
    XCTAssertEqual(server.requestCount("busy"), 3)
    XCTAssertEqual(sleeps, [0, 0])
    XCTAssertTrue(error?.description.contains("(after 3 attempts)") ?? false, error?.description ?? "")
  }

  func testRateLimitHonoursRetryAfter() async throws {
    let result = try await fetch("limited", query: "n=1&retry_after=7")
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(server.requestCount("limited"), 2)
    XCTAssertEqual(sleeps, [7])
  }

  func testRetryAfterBeyondTheCapFailsAtOnce() async {
    let error = await fetchError("limited", query: "n=5&retry_after=3600")
    XCTAssertEqual(error?.reason, .httpStatus(429, retryAfter: 3600))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("limited"), 1)
    XCTAssertEqual(sleeps, [])
    XCTAssertTrue(error?.description.contains("retry after 3600 s") ?? false, error?.description ?? "")
  }

  func testDroppedConnectionIsRetried() async throws {
    let result = try await fetch("reset", query: "n=1")
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(server.requestCount("reset"), 2)
    XCTAssertEqual(sleeps, [0.25])
  }

  func testSlowServerTimesOutWithBackoffBetweenAttempts() async {
    let started = server.clock.now()
    let error = await fetchError("slow", query: "delay=4", timeout: 1)
    let elapsed = server.clock.now().timeIntervalSince(started)
    XCTAssertEqual(error?.reason, .timedOut)
    XCTAssertEqual(error?.attempts, 3)
    XCTAssertEqual(server.requestCount("slow"), 3)
    XCTAssertEqual(sleeps, [0.25, 0.5])
    // Three requests that each waited the 1 s timeout, not the server's 4 s, and the two waits.
    XCTAssertEqual(elapsed, 3 + 0.25 + 0.5)
  }

  /// A body that trickles in past the transport's deadline is not retried: a server that trickles a tile
  /// for a minute will do it again (`CurlTransportTests` show the deadline on a real connection).
  func testATricklingBodyEndsAtTheDeadlineWithoutRetries() async {
    let started = server.clock.now()
    let error = await fetchError("drip", timeout: 1)
    XCTAssertEqual(error?.reason, .timedOut)
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("drip"), 1)
    XCTAssertEqual(sleeps, [])
    XCTAssertEqual(server.clock.now().timeIntervalSince(started), 6, "4 × the 1 s timeout + 2 s")
  }

  func testAnAuthenticationRefusalIsNotRetried() async {
    let error = await fetchError("auth")
    XCTAssertEqual(error?.reason, .httpStatus(401, retryAfter: nil))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(sleeps, [])
    XCTAssertEqual(
      error?.description,
      "cannot fetch tile 3/5/2 from \(server.baseURL)/auth/{z}/{x}/{y}.png: the server refused (HTTP 401;"
        + " check the URL and its API key)")
  }

  func testARetryAfterDateIsReadAgainstTheFetchersClock() async throws {
    // 90 s after the clock's time, in the server's words: the fetcher waits 90 s (on its clock).
    let url = "http://tiles.fake.test/dated/3/5/2.png"
    let transport = FakeTransport(
      clock: server.clock,
      script: [
        url: [
          .status(503, headers: ["Retry-After": "Wed, 21 Oct 2015 07:29:30 GMT"]),
          .status(200, headers: ["Content-Type": "image/png"], body: FakeTileServer.png256),
        ]
      ])
    let fetcher = TileFetcher(
      version: "9.8.7", policy: TileFetchPolicy(maximumRetryAfter: 120), transport: transport,
      clock: server.clock)
    let result = try await fetcher.fetch(
      someTile, from: TileURLTemplate("http://tiles.fake.test/dated/{z}/{x}/{y}.png", environment: [:]),
      expectedSize: 256)
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(sleeps, [90])
  }

  func testACancelledFetchThrowsCancellationNotAFailedTile() async throws {
    let someTile = self.someTile
    let template = try TileURLTemplate("http://tiles.fake.test/hang/{z}/{x}/{y}.png", environment: [:])
    let hanging = FakeTransport(clock: server.clock) { _ in .hang }
    let hangingFetcher = TileFetcher(version: "9.8.7", transport: hanging, clock: server.clock)
    let task = Task { try await hangingFetcher.fetch(someTile, from: template, expectedSize: 256) }
    while hanging.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
    task.cancel()
    await assertCancelled(task)
    XCTAssertEqual(hanging.requests.count, 1)
    // A task cancelled before its first request asks for nothing.
    let fetcher = fetcher()
    let ok = try server.template("ok")
    let early = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await fetcher.fetch(someTile, from: ok, expectedSize: 256)
    }
    await assertCancelled(early)
    XCTAssertEqual(server.requests().count, 0)
    XCTAssertEqual(sleeps, [])
  }

  func testFailuresNeverReturnImageData() async {
    let failing: [(String, String, Int)] = [
      ("html", "", 256), ("garbage", "", 256), ("small", "", 256), ("ok", "", 512),
      ("truncated", "", 256), ("busy", "n=10&retry_after=0", 256), ("error", "", 256),
    ]
    for (behaviour, query, size) in failing {
      do {
        let result = try await fetch(behaviour, query: query, expectedSize: size)
        XCTFail("\(behaviour) returned \(result)")
      } catch {
        XCTAssertTrue(error is TileFetchError, "\(behaviour): \(error)")
      }
    }
  }

  // MARK: Politeness

  func testSendsItsOwnUserAgentWithContact() async throws {
    let fetcher = fetcher(contact: "maps@example.invalid")
    XCTAssertEqual(fetcher.userAgent, "mymap/9.8.7 (+https://example.invalid/mymap; maps@example.invalid)")
    _ = try await fetcher.fetch(someTile, from: server.template("ok"), expectedSize: 256)
    _ = try await fetcher.fetch(
      someTile, from: server.template("busy", query: "n=1&retry_after=0"), expectedSize: 256)
    let agents = server.requests().map(\.userAgent)
    XCTAssertEqual(agents.count, 3)
    XCTAssertEqual(Set(agents), [fetcher.userAgent])
  }

  func testUserAgentFormat() {
    XCTAssertEqual(
      TileFetcher.userAgent(version: "0.1.0", contact: nil), "mymap/0.1.0 (+https://example.invalid/mymap)")
    XCTAssertEqual(
      TileFetcher.userAgent(version: "0.1.0", contact: "  "), "mymap/0.1.0 (+https://example.invalid/mymap)")
    // Header injection is impossible: control characters and parentheses are dropped.
    XCTAssertEqual(
      TileFetcher.userAgent(version: "1 beta\r\n", contact: "me\r\nX-Evil: 1 (hi)"),
      "mymap/1_beta (+https://example.invalid/mymap; meX-Evil: 1 hi)")
  }

  func testErrorsNeverShowTheAPIKey() async throws {
    let template = try TileURLTemplate(
      "\(server.baseURL)/html/{z}/{x}/{y}.png?key={key:TILE_KEY}",
      environment: ["TILE_KEY": "s3cr3t-key"])
    do {
      _ = try await fetcher().fetch(someTile, from: template, expectedSize: 256)
      XCTFail("expected an error")
    } catch {
      XCTAssertFalse("\(error)".contains("s3cr3t-key"), "\(error)")
      XCTAssertTrue("\(error)".contains("{key:TILE_KEY}"), "\(error)")
    }
  }

  // MARK: Freshness and revalidation

  /// Wed, 21 Oct 2015 07:28:00 GMT: the fetcher's clock in these tests, far from the server's real one.
  private let t0 = VirtualClock.defaultStart

  private func fetch(
    _ template: TileURLTemplate, expectedSize: Int = 256, retina: Bool = false,
    revalidating cached: TileFreshness? = nil, at now: Date
  ) async throws -> FetchedTile {
    server.clock.set(now)
    return try await fetcher().fetch(
      someTile, from: template, expectedSize: expectedSize, retina: retina, revalidating: cached)
  }

  func testFetchedTileCarriesItsCacheHeaders() async throws {
    let result = try await fetch(server.template("etag", query: "max_age=120"), at: t0)
    guard case .image(_, let image, let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(record, TileFreshness(etag: "\"v1\"", expires: t0.addingTimeInterval(120), fetched: t0))
    // Without a cached record the request is not conditional.
    XCTAssertEqual(
      server.requests(),
      [.init(path: "/etag/3/5/2.png", userAgent: fetcher().userAgent, ifNoneMatch: nil, ifModifiedSince: nil)]
    )
  }

  func testETagRevalidationSendsIfNoneMatchAndGetsNotModified() async throws {
    let template = try server.template("etag", query: "max_age=120")
    guard case .image(_, _, let first) = try await fetch(template, at: t0) else { return XCTFail("no tile") }
    let later = t0.addingTimeInterval(3 * 86_400)
    let result = try await fetch(template, revalidating: first, at: later)
    XCTAssertEqual(
      result,
      .notModified(TileFreshness(etag: "\"v1\"", expires: later.addingTimeInterval(120), fetched: later)))
    let requests = server.requests()
    XCTAssertEqual(requests.count, 2)
    XCTAssertEqual(requests.last?.ifNoneMatch, "\"v1\"")
    XCTAssertNil(requests.last?.ifModifiedSince)
  }

  func testLastModifiedRevalidationSendsIfModifiedSince() async throws {
    let template = try server.template("lastmod")
    guard case .image(_, _, let first) = try await fetch(template, at: t0) else { return XCTFail("no tile") }
    let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
    // No cache headers: the default 7 days.
    XCTAssertEqual(
      first,
      TileFreshness(lastModified: lastModified, expires: t0.addingTimeInterval(7 * 86_400), fetched: t0))
    let later = t0.addingTimeInterval(8 * 86_400)
    let result = try await fetch(template, revalidating: first, at: later)
    XCTAssertEqual(
      result,
      .notModified(
        TileFreshness(
          lastModified: lastModified, expires: later.addingTimeInterval(7 * 86_400), fetched: later)))
    XCTAssertEqual(server.requests().last?.ifModifiedSince, lastModified)
    XCTAssertNil(server.requests().last?.ifNoneMatch)
  }

  func testBothValidatorsAreSentAndKeptAfterNotModified() async throws {
    let cached = TileFreshness(
      etag: "\"v1\"", lastModified: "Tue, 20 Oct 2015 07:28:00 GMT", expires: t0, fetched: t0)
    let result = try await fetch(server.template("etag"), revalidating: cached, at: t0)
    // The 304 carries an ETag and max-age=3600 but no Last-Modified: that one is kept.
    XCTAssertEqual(
      result,
      .notModified(
        TileFreshness(
          etag: "\"v1\"", lastModified: "Tue, 20 Oct 2015 07:28:00 GMT", expires: t0.addingTimeInterval(3600),
          fetched: t0)))
    XCTAssertEqual(server.requests().last?.ifNoneMatch, "\"v1\"")
    XCTAssertEqual(server.requests().last?.ifModifiedSince, "Tue, 20 Oct 2015 07:28:00 GMT")
  }

  func testChangedTileAfterRevalidationComesWithItsNewRecord() async throws {
    let cached = TileFreshness(etag: "\"v1\"", expires: t0, fetched: t0.addingTimeInterval(-86_400))
    let later = t0.addingTimeInterval(60)
    let result = try await fetch(server.template("changed"), revalidating: cached, at: later)
    guard case .image(let data, let image, let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(
      record, TileFreshness(etag: "\"v2\"", expires: later.addingTimeInterval(600), fetched: later))
    XCTAssertEqual(server.requests().last?.ifNoneMatch, "\"v1\"")
  }

  func testNonMatchingETagGetsTheTileAgain() async throws {
    let cached = TileFreshness(etag: "\"v0\"", expires: t0, fetched: t0)
    let result = try await fetch(server.template("etag"), revalidating: cached, at: t0)
    guard case .image(_, _, let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(record.etag, "\"v1\"")
    XCTAssertEqual(server.requests().last?.ifNoneMatch, "\"v0\"")
  }

  func testUnsolicited304IsAnError() async throws {
    // Neither without a record nor with one that has no validators is the request conditional.
    for cached in [nil, TileFreshness(expires: t0, fetched: t0)] {
      do {
        let result = try await fetch(server.template("notmodified"), revalidating: cached, at: t0)
        XCTFail("expected an error, got \(result)")
      } catch let error as TileFetchError {
        XCTAssertEqual(error.reason, .httpStatus(304, retryAfter: nil))
        XCTAssertEqual(error.attempts, 1)
        XCTAssertEqual(error.summaryKind, "HTTP 304")
        XCTAssertFalse(error.isTransient)
        XCTAssertFalse(error.isHostUnreachable)
      }
    }
    XCTAssertEqual(server.requests().map(\.ifNoneMatch), [nil, nil])
  }

  func testExpiresIsReadAgainstTheServersDate() async throws {
    // The server's Date is a day behind the real time, and the fetcher's clock says 2015: only the
    // difference between Expires and Date (2 hours) counts.
    let result = try await fetch(server.template("expires", query: "skew=-86400"), at: t0)
    guard case .image(_, _, let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(record, TileFreshness(expires: t0.addingTimeInterval(7200), fetched: t0))
  }

  func testNoStoreTileMustBeRevalidatedNextTime() async throws {
    let result = try await fetch(server.template("nostore"), at: t0)
    guard case .image(_, _, let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(record, TileFreshness(expires: t0, fetched: t0))
    XCTAssertFalse(record.isFresh(at: t0))
  }

  func testRetinaFetchesThe2xURL() async throws {
    let template = try TileURLTemplate("\(server.baseURL)/retina/{z}/{x}/{y}{r}.png", environment: [:])
    guard case .image(_, let large, _) = try await fetch(template, expectedSize: 512, retina: true, at: t0)
    else { return XCTFail("no retina tile") }
    XCTAssertEqual([large.width, large.height], [512, 512])
    guard case .image(_, let normal, _) = try await fetch(template, expectedSize: 256, at: t0)
    else { return XCTFail("no tile") }
    XCTAssertEqual([normal.width, normal.height], [256, 256])
    XCTAssertEqual(server.requests().map(\.path), ["/retina/3/5/2@2x.png", "/retina/3/5/2.png"])
  }

  // MARK: Unreachable hosts and summaries

  func testServerFailuresDoNotMeanTheHostIsUnreachable() async {
    let busy = await fetchError("busy", query: "n=10&retry_after=0")
    XCTAssertEqual(busy?.isHostUnreachable, false)
    XCTAssertEqual(busy?.summaryKind, "HTTP 503")
    let timedOut = await fetchError("slow", query: "delay=3", timeout: 1)
    XCTAssertEqual(timedOut?.isHostUnreachable, false)
    XCTAssertEqual(timedOut?.summaryKind, "timed out")
    let dropped = await fetchError("reset", query: "n=10")
    XCTAssertEqual(dropped?.isHostUnreachable, false)
    XCTAssertEqual(dropped?.summaryKind, "connection failed")
  }

  func testSummaryKindsOfRealFailures() async {
    let kinds: [(String, String, Int, String)] = [
      ("html", "", 256, "not an image"), ("garbage", "", 256, "not an image"),
      ("small", "", 256, "wrong size"),
      ("truncated", "", 256, "cut off"), ("error", "", 256, "HTTP 500"),
      ("limited", "n=5&retry_after=3600", 256, "HTTP 429"),
    ]
    for (behaviour, query, size, kind) in kinds {
      let error = await fetchError(behaviour, query: query, expectedSize: size)
      XCTAssertEqual(error?.summaryKind, kind, behaviour)
      XCTAssertEqual(error?.isHostUnreachable, false, behaviour)
    }
  }

  func testSummaryKindAndUnreachabilityOfEveryReason() {
    let cases: [(TileFetchError.Reason, String, Bool, String)] = [
      (.httpStatus(503, retryAfter: 2), "HTTP 503", false, "server busy (HTTP 503, retry after 2 s)"),
      (.timedOut, "timed out", false, "the server did not answer in time"),
      (
        .connectionFailed("the connection was dropped"), "connection failed", false,
        "connection failed (the connection was dropped)"
      ),
      (
        .cannotConnect(.cannotConnectToHost), "cannot connect", true,
        "connection failed (cannot connect to the server)"
      ),
      (.cannotConnect(.unknownHost), "cannot connect", true, "connection failed (unknown host)"),
      (
        .cannotConnect(.notConnectedToInternet), "cannot connect", true,
        "connection failed (not connected to the internet)"
      ),
      (.truncated(bytesMissing: 10), "cut off", false, "the response was cut off (10 bytes missing)"),
      (
        .notAnImage(contentType: nil), "not an image", false, "the server sent something that is not an image"
      ),
      (
        .wrongSize(width: 1, height: 2, expected: 256), "wrong size", false,
        "the image is 1×2 pixels, expected 256×256"
      ),
      (
        .tooLarge(bytes: 629_284_925, limit: 4 << 20), "too large", false,
        "the response is too large for a tile (600.1 MiB, the limit is 4 MiB)"
      ),
      (
        .tooLarge(bytes: 2_000, limit: 1_536), "too large", false,
        "the response is too large for a tile (2.0 KiB, the limit is 1.5 KiB)"
      ),
      (
        .tooLarge(bytes: nil, limit: 100), "too large", false,
        "the response is too large for a tile (over the 100 bytes limit)"
      ),
    ]
    for (reason, kind, unreachable, text) in cases {
      let error = TileFetchError(tile: someTile, source: "S", reason: reason, attempts: 1)
      XCTAssertEqual(error.summaryKind, kind, "\(reason)")
      XCTAssertEqual(error.isHostUnreachable, unreachable, "\(reason)")
      XCTAssertEqual(error.description, "cannot fetch tile \(someTile) from S: \(text)")
      XCTAssertFalse(error.description.contains("\n"))
    }
  }

  // MARK: Policy and parsing (no server needed, but cheap)

  func testRetryAfterParsing() {
    XCTAssertEqual(TileFetcher.parseRetryAfter("120"), 120)
    XCTAssertEqual(TileFetcher.parseRetryAfter(" 0 "), 0)
    let now = Date(timeIntervalSince1970: 1_445_412_420)  // Wed, 21 Oct 2015 07:27:00 GMT
    XCTAssertEqual(TileFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now), 60)
    XCTAssertEqual(TileFetcher.parseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now), 0)
    XCTAssertNil(TileFetcher.parseRetryAfter("soon"))
    XCTAssertNil(TileFetcher.parseRetryAfter("-5"))
    XCTAssertNil(TileFetcher.parseRetryAfter(""))
  }

  func testAttemptsAreBoundedToThree() {
    XCTAssertEqual(TileFetchPolicy(maximumAttempts: 10).maximumAttempts, 3)
    XCTAssertEqual(TileFetchPolicy(maximumAttempts: 0).maximumAttempts, 1)
    var policy = TileFetchPolicy()
    policy.maximumAttempts = 99
    XCTAssertEqual(policy.maximumAttempts, 3)
  }

  func testTileSizeLimitIsFourMebibytesByDefaultAndAtLeastOneByte() {
    XCTAssertEqual(TileFetchPolicy().maximumTileBytes, 4 * 1024 * 1024)
    XCTAssertEqual(TileFetchPolicy.defaultMaximumTileBytes, 4_194_304)
    XCTAssertEqual(TileFetchPolicy(maximumTileBytes: 0).maximumTileBytes, 1)
    var policy = TileFetchPolicy()
    policy.maximumTileBytes = -5
    XCTAssertEqual(policy.maximumTileBytes, 1)
  }

  func testTimeoutIsWholeSecondsOfAtLeastOne() {
    XCTAssertEqual(TileFetchPolicy(timeout: 0.4).timeout, 1)
    XCTAssertEqual(TileFetchPolicy(timeout: 2.2).timeout, 3)
    XCTAssertEqual(TileFetchPolicy(timeout: -1).timeout, 1)
    XCTAssertEqual(TileFetchPolicy().timeout, 15)
  }

  // MARK: Response size limit (the transport stops the body; CurlTransportTests show how)

  func testABodyOverTheLimitIsNotRetriedAndSaysHowLargeItWas() async {
    let error = await fetchError("huge", query: "mb=600")
    XCTAssertEqual(
      error?.reason, .tooLarge(bytes: 600 * 1_048_576 + FakeTileServer.png256.count, limit: 4 << 20))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(error?.summaryKind, "too large")
    let unannounced = await fetchError("huge", query: "mb=600&length=0")
    XCTAssertEqual(unannounced?.reason, .tooLarge(bytes: nil, limit: 4 << 20))
    XCTAssertEqual(unannounced?.attempts, 1)
    XCTAssertEqual(server.requestCount("huge"), 2)
    XCTAssertEqual(sleeps, [])
  }

  // MARK: Stopping (Ctrl-C)

  func testFlippedSwitchStartsNoRetryAndNoWait() async throws {
    let stop = FetchCancellation()
    stop.cancel()
    do {
      let result = try await fetcher().fetch(
        someTile, from: server.template("busy", query: "n=10&retry_after=0"), expectedSize: 256,
        stopping: stop)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .httpStatus(503, retryAfter: 0))
      XCTAssertEqual(error.attempts, 1)
    }
    XCTAssertEqual(server.requestCount("busy"), 1)
    XCTAssertEqual(sleeps, [])
  }

  func testSwitchFlippedDuringARequestLetsItFinishThenStartsNoRetry() async throws {
    // A request that succeeds: the switch is flipped 0.3 s into its 1 s...
    let stop = FetchCancellation()
    server.clock.schedule(after: 0.3) { stop.cancel() }
    let result = try await fetcher().fetch(
      someTile, from: server.template("slow", query: "delay=1"), expectedSize: 256, stopping: stop)
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertTrue(stop.isCancelled)
    // ...and one that times out: no wait and no second request follow.
    let again = FetchCancellation()
    server.clock.schedule(after: 0.3) { again.cancel() }
    do {
      let result = try await fetcher(timeout: 1).fetch(
        someTile, from: server.template("slow", query: "delay=3"), expectedSize: 256, stopping: again)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .timedOut)
      XCTAssertEqual(error.attempts, 1)
    }
    XCTAssertTrue(again.isCancelled)
    XCTAssertEqual(server.requestCount("slow"), 2)
    XCTAssertEqual(sleeps, [])
  }

  func testFlippingTheSwitchEndsAWaitWithinAQuarterSecond() async throws {
    // The server asks for 20 s; the switch is flipped half a second into the wait.
    let stop = FetchCancellation()
    let started = server.clock.now()
    let flipped = started.addingTimeInterval(0.5)
    server.clock.schedule(after: 0.5) { stop.cancel() }
    var ended = Date.distantFuture
    do {
      let result = try await fetcher().fetch(
        someTile, from: server.template("limited", query: "n=5&retry_after=20"), expectedSize: 256,
        stopping: stop)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      ended = server.clock.now()
      XCTAssertEqual(error.reason, .httpStatus(429, retryAfter: 20))
      XCTAssertEqual(error.attempts, 1)
    }
    XCTAssertTrue(stop.isCancelled)
    XCTAssertLessThanOrEqual(
      ended.timeIntervalSince(flipped), 0.25, "the wait went on after the switch was flipped")
    XCTAssertLessThan(ended.timeIntervalSince(started), 3)
    XCTAssertEqual(server.requestCount("limited"), 1)
    // Slept on the clock, in slices of at most 0.25 s.
    XCTAssertGreaterThan(sleeps.count, 1)
    XCTAssertTrue(sleeps.allSatisfy { $0 > 0 && $0 <= 0.25 }, "\(sleeps)")
  }

  func testWithAnUnflippedSwitchTheWaitIsAsLongInSlices() async throws {
    let result = try await fetcher().fetch(
      someTile, from: server.template("limited", query: "n=1&retry_after=1"), expectedSize: 256,
      stopping: FetchCancellation())
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(server.requestCount("limited"), 2)
    XCTAssertEqual(sleeps, [0.25, 0.25, 0.25, 0.25])
    // Back-off without Retry-After: 0.25 s, then 0.5 s.
    server.clock.clearSleeps()
    do {
      let result = try await fetcher(timeout: 1).fetch(
        someTile, from: server.template("slow", query: "delay=3"), expectedSize: 256,
        stopping: FetchCancellation())
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .timedOut)
      XCTAssertEqual(error.attempts, 3)
    }
    XCTAssertEqual(sleeps, [0.25, 0.25, 0.25])
  }

  // MARK: Schemes

  func testUppercaseSchemeIsFetched() async throws {
    let template = try TileURLTemplate("HTTP://tiles.fake.test/ok/{z}/{x}/{y}.png", environment: [:])
    XCTAssertEqual(template.url(for: someTile), "http://tiles.fake.test/ok/3/5/2.png")
    let result = try await fetcher().fetch(someTile, from: template, expectedSize: 256)
    guard case .image(_, let image, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(server.requestCount("ok"), 1)
  }
}
