import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

/// Records the delays the fetcher asks to sleep for, without sleeping.
private final class SleepRecorder: @unchecked Sendable {
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

/// `Tests/Fixtures/tileserver/tile_server.py`, running on 127.0.0.1 for one test.
private final class LocalTileServer {
  let port: Int
  private let process: Process
  private let directory: TemporaryDirectory
  private let logURL: URL

  init() throws {
    guard Self.hasPython() else {
      throw XCTSkip("TileFetcherTests need python3 on PATH to run the local tile server")
    }
    directory = try TemporaryDirectory(prefix: "mymap-tileserver")
    logURL = directory.url("requests.log")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", RepositoryPaths.fixture("tileserver/tile_server.py").path, logURL.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = Int(text), port > 0 else {
      process.terminate()
      throw XCTSkip("the local tile server did not start (printed \(text.debugDescription))")
    }
    self.port = port
  }

  private static func hasPython() -> Bool {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "pass"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }

  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    directory.remove()
  }

  /// A template for one behaviour of the server (`ok`, `busy`, …) with an optional query.
  func template(_ behaviour: String, query: String = "") throws -> TileURLTemplate {
    try TileURLTemplate(
      "http://127.0.0.1:\(port)/\(behaviour)/{z}/{x}/{y}.png" + (query.isEmpty ? "" : "?" + query),
      environment: ["TILE_KEY": "s3cr3t-key"])
  }

  /// Each logged request as (path, User-Agent).
  var requests: [(path: String, userAgent: String)] {
    let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map {
      let fields = $0.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
      return (String(fields[0]), fields.count > 1 ? String(fields[1]) : "")
    }
  }

  func requestCount(_ behaviour: String) -> Int {
    requests.filter { $0.path.hasPrefix("/\(behaviour)/") }.count
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

  private func fetcher(timeout: Double = 5, baseDelay: Double = 0.25, contact: String? = nil) -> TileFetcher {
    let recorder = sleeps!
    let policy = TileFetchPolicy(
      baseDelay: baseDelay, maximumRetryAfter: 30, timeout: timeout, sleep: { recorder.record($0) })
    return TileFetcher(version: "9.8.7", contact: contact, policy: policy)
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
    guard case .image(let data, let image) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(image.height, 256)
    XCTAssertEqual(try ImageDecoder.decode(data), image)
    XCTAssertEqual(image.pixel(x: 10, y: 20).red, 10)
    XCTAssertEqual(server.requestCount("ok"), 1)
    XCTAssertEqual(server.requests.first?.path, "/ok/3/5/2.png")
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
    guard case .image(_, let image) = result else { return XCTFail("got \(result)") }
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
    let agents = server.requests.map(\.userAgent)
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

  func testTimeoutIsWholeSecondsOfAtLeastOne() {
    XCTAssertEqual(TileFetchPolicy(timeout: 0.4).timeout, 1)
    XCTAssertEqual(TileFetchPolicy(timeout: 2.2).timeout, 3)
    XCTAssertEqual(TileFetchPolicy(timeout: -1).timeout, 1)
    XCTAssertEqual(TileFetchPolicy().timeout, 15)
  }
}
