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

/// Records the delays the fetcher asks to sleep for, without sleeping, and tells the time it is set to.
private final class SleepRecorder: FetchClock, @unchecked Sendable {
  private let realSleep: Bool
  nonisolated(unsafe) var time = Date()

  init(realSleep: Bool = false) { self.realSleep = realSleep }

  func now() -> Date { time }

  func sleep(seconds: Double) async throws {
    record(seconds)
    if realSleep { try await SystemClock().sleep(seconds: seconds) }
  }

  // The lock guards `recorded`, so the recorder may be shared between tasks.
  private let lock = NSLock()
  private var recorded: [Double] = []

  var delays: [Double] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  func record(_ seconds: Double) {
    lock.lock()
    recorded.append(seconds)
    lock.unlock()
  }
}

final class TileFetcherTests: XCTestCase {
  private var server: LocalTileServer!
  private var sleeps: SleepRecorder!
  private let someTile = TileID(z: 3, x: 5, y: 2)!

  override func setUpWithError() throws {
    server = try LocalTileServer()
    sleeps = SleepRecorder()
  }

  override func tearDown() {
    server?.stop()
    server = nil
  }

  private func fetcher(
    timeout: Double = 5, baseDelay: Double = 0.25, contact: String? = nil,
    maximumTileBytes: Int = TileFetchPolicy.defaultMaximumTileBytes
  ) -> TileFetcher {
    let policy = TileFetchPolicy(
      baseDelay: baseDelay, maximumRetryAfter: 30, timeout: timeout, maximumTileBytes: maximumTileBytes)
    return TileFetcher(version: "9.8.7", contact: contact, policy: policy, clock: sleeps)
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
    do {
      let result = try await fetch(behaviour, query: query, expectedSize: expectedSize, timeout: timeout)
      XCTFail("expected an error, got \(result)", file: file, line: line)
    } catch let error as TileFetchError {
      return error
    } catch {
      XCTFail("expected a TileFetchError, got \(error)", file: file, line: line)
    }
    return nil
  }

  // MARK: Outcomes

  func testValidTileReturnsItsBytesAndImage() async throws {
    let result = try await fetch("ok")
    guard case .image(let data, let image, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(image.height, 256)
    XCTAssertEqual(try ImageDecoder.decode(data), image)
    XCTAssertEqual(image.pixel(x: 10, y: 20).red, 10)
    XCTAssertEqual(server.requestCount("ok"), 1)
    XCTAssertEqual(server.requests().first?.path, "/ok/3/5/2.png")
    XCTAssertEqual(sleeps.delays, [])
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
      "cannot fetch tile \(someTile) from http://127.0.0.1:\(server.port)/ok/{z}/{x}/{y}.png: "
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
  }

  func testServerErrorIsReportedWithoutRetrying() async {
    let error = await fetchError("error")
    XCTAssertEqual(error?.reason, .httpStatus(500, retryAfter: nil))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("error"), 1)
    XCTAssertEqual(sleeps.delays, [])
  }

  // MARK: Retries

  func testBusyServerIsRetriedUntilItAnswers() async throws {
    let result = try await fetch("busy", query: "n=2&retry_after=0")
    guard case .image(_, let image, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(server.requestCount("busy"), 3)
    XCTAssertEqual(sleeps.delays, [0, 0])
  }

  func testRetriesStopAfterThreeAttempts() async {
    let error = await fetchError("busy", query: "n=10&retry_after=0")
    XCTAssertEqual(error?.reason, .httpStatus(503, retryAfter: 0))
    XCTAssertEqual(error?.attempts, 3)
    XCTAssertEqual(server.requestCount("busy"), 3)
    XCTAssertEqual(sleeps.delays, [0, 0])
    XCTAssertTrue(error?.description.contains("(after 3 attempts)") ?? false, error?.description ?? "")
  }

  func testRateLimitHonoursRetryAfter() async throws {
    let result = try await fetch("limited", query: "n=1&retry_after=7")
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(server.requestCount("limited"), 2)
    XCTAssertEqual(sleeps.delays, [7])
  }

  func testRetryAfterBeyondTheCapFailsAtOnce() async {
    let error = await fetchError("limited", query: "n=5&retry_after=3600")
    XCTAssertEqual(error?.reason, .httpStatus(429, retryAfter: 3600))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("limited"), 1)
    XCTAssertEqual(sleeps.delays, [])
    XCTAssertTrue(error?.description.contains("retry after 3600 s") ?? false, error?.description ?? "")
  }

  func testDroppedConnectionIsRetried() async throws {
    let result = try await fetch("reset", query: "n=1")
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(server.requestCount("reset"), 2)
    XCTAssertEqual(sleeps.delays, [0.25])
  }

  func testSlowServerTimesOutWithBackoffBetweenAttempts() async {
    let started = Date()
    let error = await fetchError("slow", query: "delay=4", timeout: 1)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(error?.reason, .timedOut)
    XCTAssertEqual(error?.attempts, 3)
    XCTAssertEqual(server.requestCount("slow"), 3)
    XCTAssertEqual(sleeps.delays, [0.25, 0.5])
    // Three requests that each waited about the 1 s timeout, not the server's 4 s.
    XCTAssertGreaterThan(elapsed, 2.5)
    XCTAssertLessThan(elapsed, 8)
  }

  /// A body that trickles in a byte every half second slips past FoundationNetworking's timeouts: the
  /// fetcher's own deadline (4 × the timeout + 2 s) ends it, and it is not retried.
  func testATricklingBodyEndsAtTheDeadlineWithoutRetries() async {
    let started = Date()
    let error = await fetchError("drip", timeout: 1)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(error?.reason, .timedOut)
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("drip"), 1)
    XCTAssertGreaterThan(elapsed, 5)
    XCTAssertLessThan(elapsed, 12)
  }

  /// FoundationNetworking never completes a 401 that carries a challenge; the fetcher ends it with the
  /// status, which tells the user what is wrong.
  func testAnAuthenticationChallengeIsARefusalNotAHang() async {
    let started = Date()
    let error = await fetchError("auth")
    XCTAssertEqual(error?.reason, .httpStatus(401, retryAfter: nil))
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    XCTAssertEqual(
      error?.description,
      "cannot fetch tile 3/5/2 from \(server.baseURL)/auth/{z}/{x}/{y}.png: the server refused (HTTP 401;"
        + " check the URL and its API key)")
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
      "http://127.0.0.1:\(server.port)/html/{z}/{x}/{y}.png?key={key:TILE_KEY}",
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
  private let t0 = Date(timeIntervalSince1970: 1_445_412_480)

  private func fetch(
    _ template: TileURLTemplate, expectedSize: Int = 256, retina: Bool = false,
    revalidating cached: TileFreshness? = nil, at now: Date
  ) async throws -> FetchedTile {
    sleeps.time = now
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

  func testClosedPortMeansTheHostIsUnreachable() async throws {
    let port = try closedLocalPort()
    XCTAssertGreaterThan(port, 0)
    let template = try TileURLTemplate("http://127.0.0.1:\(port)/ok/{z}/{x}/{y}.png", environment: [:])
    do {
      let result = try await fetch(template, at: t0)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .cannotConnect(.cannotConnectToHost))
      XCTAssertTrue(error.isHostUnreachable)
      XCTAssertEqual(error.summaryKind, "cannot connect")
      // Retrying cannot help: one attempt, no waiting.
      XCTAssertEqual(error.attempts, 1)
      XCTAssertEqual(sleeps.delays, [])
      XCTAssertEqual(
        error.description,
        "cannot fetch tile \(someTile) from http://127.0.0.1:\(port)/ok/{z}/{x}/{y}.png: "
          + "connection failed (cannot connect to the server)")
    }
  }

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

  // MARK: Response size limit

  /// The size of the server's 256×256 PNG (`/ok/`, and the start of every `/huge/` body).
  private let pngBytes = 139_325

  func testBodyWhoseContentLengthIsOverTheLimitIsRefusedAtOnce() async throws {
    // 600 MiB of zeros after a valid PNG, announced by its Content-Length.
    let error = await fetchError("huge", query: "mb=600")
    XCTAssertEqual(error?.reason, .tooLarge(bytes: 600 * 1_048_576 + pngBytes, limit: 4_194_304))
    XCTAssertEqual(
      error?.description,
      "cannot fetch tile \(someTile) from http://127.0.0.1:\(server.port)/huge/{z}/{x}/{y}.png?mb=600: "
        + "the response is too large for a tile (600.1 MiB, the limit is 4 MiB)")
    XCTAssertEqual(error?.summaryKind, "too large")
    XCTAssertEqual(error?.isTransient, false)
    XCTAssertEqual(error?.isHostUnreachable, false)
    // Not retried.
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("huge"), 1)
    XCTAssertEqual(sleeps.delays, [])
    try await assertServerSawTheConnectionClosedEarly()
  }

  func testBodyWithoutContentLengthIsStoppedAtTheLimitAndNotKept() async throws {
    // The same body with no Content-Length: only counting the bytes as they arrive can stop it. The peak
    // memory of this process shows whether the body was read into memory (Linux only).
    let measuresPeak = Self.resetPeakMemory()
    let before = Self.memoryKilobytes("VmRSS")
    let error = await fetchError("huge", query: "mb=600&length=0")
    let peak = Self.memoryKilobytes("VmHWM")
    XCTAssertEqual(error?.reason, .tooLarge(bytes: nil, limit: 4_194_304))
    XCTAssertEqual(error?.summaryKind, "too large")
    XCTAssertTrue(
      error?.description.hasSuffix("the response is too large for a tile (over the 4 MiB limit)") ?? false)
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("huge"), 1)
    XCTAssertEqual(measuresPeak, before != nil && peak != nil)
    if measuresPeak, let before, let peak {
      XCTAssertLessThan(peak - before, 150_000, "the peak memory grew by \(peak - before) kB")
    }
    try await assertServerSawTheConnectionClosedEarly()
  }

  func testTheLimitComesFromThePolicyAndABodyOfExactlyThatSizeIsAccepted() async throws {
    let template = try server.template("ok")
    // Content-Length just over the limit: refused.
    do {
      let result = try await fetcher(maximumTileBytes: pngBytes - 1).fetch(
        someTile, from: template, expectedSize: 256)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .tooLarge(bytes: pngBytes, limit: pngBytes - 1))
    }
    // The PNG alone without a Content-Length (the server closes the connection after it): stopped while
    // arriving when one byte too many comes.
    let unannounced = try server.template("huge", query: "mb=0&length=0")
    do {
      let result = try await fetcher(maximumTileBytes: pngBytes - 1).fetch(
        someTile, from: unannounced, expectedSize: 256)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .tooLarge(bytes: nil, limit: pngBytes - 1))
    }
    // Exactly at the limit, both ways: accepted.
    for template in [template, unannounced] {
      let result = try await fetcher(maximumTileBytes: pngBytes).fetch(
        someTile, from: template, expectedSize: 256)
      guard case .image(let data, let image, _) = result else { return XCTFail("got \(result)") }
      XCTAssertEqual(data.count, pngBytes)
      XCTAssertEqual(image.width, 256)
    }
    XCTAssertEqual(server.requestCount("ok"), 2)
    XCTAssertEqual(server.requestCount("huge"), 2)
  }

  func testFailuresNeverReturnImageDataForHugeBodies() async {
    for query in ["mb=20", "mb=20&length=0"] {
      let error = await fetchError("huge", query: query)
      guard case .tooLarge = error?.reason else {
        return XCTFail("\(query): expected a body that is too large, got \(String(describing: error))")
      }
    }
  }

  /// Waits until the server has finished every `/huge/` response, then checks that it could not write any
  /// of them to its end because the client closed the connection.
  private func assertServerSawTheConnectionClosedEarly(file: StaticString = #filePath, line: UInt = #line)
    async throws
  {
    let deadline = Date().addingTimeInterval(20)
    var transfers = try serverTransfers()
    while transfers.contains(where: { $0.state == "sending" }), Date() < deadline {
      try await Task.sleep(nanoseconds: 50_000_000)
      transfers = try serverTransfers()
    }
    XCTAssertFalse(transfers.isEmpty, "the server sent no /huge/ response", file: file, line: line)
    for transfer in transfers {
      XCTAssertEqual(transfer.state, "closed", "\(transfer)", file: file, line: line)
      XCTAssertLessThan(transfer.sent, transfer.total, "\(transfer)", file: file, line: line)
    }
  }

  /// The server's record of its `/huge/` responses (`GET /transfers/`), read over a plain socket so that
  /// no URLSession is involved.
  private func serverTransfers() throws -> [(path: String, sent: Int, total: Int, state: String)] {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw XCTSkip("cannot create a socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(server.port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else { throw XCTSkip("cannot connect to the local tile server") }
    let request = Array("GET /transfers/x HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
      throw XCTSkip("cannot send to the local tile server")
    }
    var response = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      response += buffer[0..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let headerEnd = text.range(of: "\r\n\r\n") else { return [] }
    return text[headerEnd.upperBound...].split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t").map(String.init)
      guard fields.count == 4, let sent = Int(fields[1]), let total = Int(fields[2]) else { return nil }
      return (fields[0], sent, total, fields[3])
    }
  }

  /// Resets this process's peak resident size (`VmHWM`), where Linux allows it.
  private static func resetPeakMemory() -> Bool {
    FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")
      && (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
  }

  /// A `kB` field of `/proc/self/status` (`VmRSS`, `VmHWM`), nil where there is none.
  private static func memoryKilobytes(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      return Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
    }
    return nil
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
    XCTAssertEqual(sleeps.delays, [])
  }

  func testSwitchFlippedDuringARequestLetsItFinishThenStartsNoRetry() async throws {
    // A request that succeeds...
    let stop = FetchCancellation()
    let flip = Task {
      try await Task.sleep(nanoseconds: 300_000_000)
      stop.cancel()
    }
    let result = try await fetcher().fetch(
      someTile, from: server.template("slow", query: "delay=1"), expectedSize: 256, stopping: stop)
    guard case .image = result else { return XCTFail("got \(result)") }
    try await flip.value
    XCTAssertTrue(stop.isCancelled)
    // ...and one that times out: no wait and no second request follow.
    let again = FetchCancellation()
    let flipAgain = Task {
      try await Task.sleep(nanoseconds: 300_000_000)
      again.cancel()
    }
    do {
      let result = try await fetcher(timeout: 1).fetch(
        someTile, from: server.template("slow", query: "delay=3"), expectedSize: 256, stopping: again)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .timedOut)
      XCTAssertEqual(error.attempts, 1)
    }
    try await flipAgain.value
    XCTAssertEqual(server.requestCount("slow"), 2)
    XCTAssertEqual(sleeps.delays, [])
  }

  func testFlippingTheSwitchEndsAWaitWithinAQuarterSecond() async throws {
    // The server asks for 20 s; the fetcher really sleeps, and the switch is flipped half a second in.
    let stop = FetchCancellation()
    let slices = SleepRecorder(realSleep: true)
    let policy = TileFetchPolicy(baseDelay: 0.25, maximumRetryAfter: 30, timeout: 5)
    let fetcher = TileFetcher(version: "9.8.7", policy: policy, clock: slices)
    let flip = Task {
      try await Task.sleep(nanoseconds: 500_000_000)
      stop.cancel()
      return Date()
    }
    let started = Date()
    var ended = Date.distantFuture
    do {
      let result = try await fetcher.fetch(
        someTile, from: server.template("limited", query: "n=5&retry_after=20"), expectedSize: 256,
        stopping: stop)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      ended = Date()
      XCTAssertEqual(error.reason, .httpStatus(429, retryAfter: 20))
      XCTAssertEqual(error.attempts, 1)
    }
    let flipped = try await flip.value
    XCTAssertLessThan(ended.timeIntervalSince(flipped), 0.5, "the wait went on after the switch was flipped")
    XCTAssertLessThan(ended.timeIntervalSince(started), 3)
    XCTAssertEqual(server.requestCount("limited"), 1)
    // Slept through `policy.sleep`, in slices of at most 0.25 s.
    XCTAssertGreaterThan(slices.delays.count, 1)
    XCTAssertTrue(slices.delays.allSatisfy { $0 > 0 && $0 <= 0.25 }, "\(slices.delays)")
  }

  func testWithAnUnflippedSwitchTheWaitIsAsLongInSlices() async throws {
    let result = try await fetcher().fetch(
      someTile, from: server.template("limited", query: "n=1&retry_after=1"), expectedSize: 256,
      stopping: FetchCancellation())
    guard case .image = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(server.requestCount("limited"), 2)
    XCTAssertEqual(sleeps.delays, [0.25, 0.25, 0.25, 0.25])
    // Back-off without Retry-After: 0.25 s, then 0.5 s.
    sleeps = SleepRecorder()
    do {
      let result = try await fetcher(timeout: 1).fetch(
        someTile, from: server.template("slow", query: "delay=3"), expectedSize: 256,
        stopping: FetchCancellation())
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .timedOut)
      XCTAssertEqual(error.attempts, 3)
    }
    XCTAssertEqual(sleeps.delays, [0.25, 0.25, 0.25])
  }

  // MARK: Schemes

  func testUppercaseSchemeIsFetched() async throws {
    let template = try TileURLTemplate("HTTP://127.0.0.1:\(server.port)/ok/{z}/{x}/{y}.png", environment: [:])
    XCTAssertEqual(template.url(for: someTile), "http://127.0.0.1:\(server.port)/ok/3/5/2.png")
    let result = try await fetcher().fetch(someTile, from: template, expectedSize: 256)
    guard case .image(_, let image, _) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(server.requestCount("ok"), 1)
  }

  // MARK: Folders FoundationNetworking makes

  func testOnlyFoldersThatAreNewAndEmptyAreRemoved() throws {
    let root = try TemporaryDirectory(prefix: "mymap-foundation-folders")
    defer { root.remove() }
    let files = FileManager.default
    func path(_ name: String) -> String { root.url(name).path }
    func exists(_ name: String) -> Bool { files.fileExists(atPath: path(name)) }
    // Existed before and empty: kept. New with new parents: all removed. New but not empty: kept. A new
    // folder inside a new parent that something else also filled: the folder goes, the parent stays.
    try files.createDirectory(atPath: path("old/empty"), withIntermediateDirectories: true)
    let folders = ["old/empty", "new/deeper/folder", "filled", "shared/folder"].map(path)
    let made = FoundationFolders.leavingNoneBehind(folders) { () -> Int in
      for name in ["old/empty", "new/deeper/folder", "filled", "shared/folder", "shared/other"] {
        try? files.createDirectory(atPath: path(name), withIntermediateDirectories: true)
      }
      _ = files.createFile(atPath: path("filled/file"), contents: Data("x".utf8))
      return 42
    }
    XCTAssertEqual(made, 42)
    XCTAssertTrue(exists("old/empty"))
    XCTAssertFalse(exists("new"))
    XCTAssertTrue(exists("filled/file"))
    XCTAssertFalse(exists("shared/folder"))
    XCTAssertTrue(exists("shared/other"))
    XCTAssertEqual(try files.contentsOfDirectory(atPath: root.path).sorted(), ["filled", "old", "shared"])
  }

  func testTheURLCacheFolderIsWhereFoundationMakesIt() throws {
    // Each ephemeral configuration makes `<caches>/org.swift.foundation.URLCache/<program>`; the computed
    // folder must be that one. (The cookie folder is made once per process, so CLITests check it with the
    // real binary, in a sandboxed HOME.)
    #if canImport(FoundationNetworking)
      let folders = FoundationFolders.foundationFolders()
      XCTAssertEqual(folders.count, 2)
      let cacheFolder = try XCTUnwrap(folders.last)
      XCTAssertTrue(cacheFolder.contains("/org.swift.foundation.URLCache/"), cacheFolder)
      let existedBefore = FileManager.default.fileExists(atPath: cacheFolder)
      var existedInside = false
      FoundationFolders.leavingNoneBehind {
        _ = URLSessionConfiguration.ephemeral
        existedInside = FileManager.default.fileExists(atPath: cacheFolder)
      }
      XCTAssertTrue(existedInside, "FoundationNetworking did not make \(cacheFolder)")
      XCTAssertEqual(FileManager.default.fileExists(atPath: cacheFolder), existedBefore)
    #endif
  }
}
