import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import TileFetching

/// `CurlTransport` end to end, against the local tile server on 127.0.0.1: what only a real network
/// and libcurl show (headers on the wire, a 304 handed back as it is, bodies over the limit
/// stopped while arriving, a body trickling past the deadline, connections refused, cut off or dropped,
/// a challenge that never completes). Everything else the fetcher decides is tested against a fake
/// transport in `TileFetcherTests`.
final class CurlTransportTests: XCTestCase {
  private var server: LocalTileServer!
  private var clock: VirtualClock!
  private let someTile = TileID(z: 3, x: 5, y: 2)!
  /// The size of the server's 256×256 PNG (`/ok/`, and the start of every `/huge/` body).
  private let pngBytes = 139_325

  override func setUpWithError() throws {
    server = try LocalTileServer()
    clock = VirtualClock()
  }

  /// A fetcher over a real `CurlTransport`, waiting on the virtual clock.
  private func fetcher(
    timeout: Double = 5, contact: String? = nil, maximumAttempts: Int = 3,
    maximumTileBytes: Int = TileFetchPolicy.defaultMaximumTileBytes, transport: (any HTTPTransport)? = nil
  ) -> TileFetcher {
    let policy = TileFetchPolicy(
      maximumAttempts: maximumAttempts, baseDelay: 0.25, maximumRetryAfter: 30, timeout: timeout,
      maximumTileBytes: maximumTileBytes)
    return TileFetcher(version: "9.8.7", contact: contact, policy: policy, transport: transport, clock: clock)
  }

  /// The `TileFetchError` a fetch throws; fails the test when it returns instead.
  private func fetchError(
    _ behaviour: String, query: String = "", fetcher: TileFetcher? = nil, file: StaticString = #filePath,
    line: UInt = #line
  ) async -> TileFetchError? {
    let template = try? server.template(behaviour, query: query)
    let fetcher = fetcher ?? self.fetcher()
    return await expectTileFetchError(file: file, line: line) {
      try await fetcher.fetch(someTile, from: XCTUnwrap(template), expectedSize: 256)
    }
  }

  /// What the transport alone answers to one request of `behaviour`.
  private func exchange(_ behaviour: String, query: String = "", timeout: Double = 5, limit: Int = 4 << 20)
    async throws -> Result<HTTPResponse, HTTPTransportError>
  {
    let url = try XCTUnwrap(URL(string: server.template(behaviour, query: query).url(for: someTile)))
    do {
      return .success(
        try await CurlTransport().send(HTTPRequest(url: url), limit: limit, timeout: timeout))
    } catch {
      return .failure(error)
    }
  }

  // MARK: A plain fetch and a revalidation

  func testAPlainFetchSendsMymapsUserAgentAndReturnsTheServersTile() async throws {
    let fetcher = fetcher(contact: "maps@example.invalid")
    XCTAssertEqual(fetcher.userAgent, "mymap/9.8.7 (+https://example.invalid/mymap; maps@example.invalid)")
    let result = try await fetcher.fetch(someTile, from: server.template("ok"), expectedSize: 256)
    guard case .image(let data, let image, let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    XCTAssertEqual(data.count, pngBytes)
    XCTAssertEqual(image.width, 256)
    XCTAssertEqual(image.height, 256)
    XCTAssertEqual(try ImageDecoder.decode(data), image)
    XCTAssertEqual(image.pixel(x: 10, y: 20).red, 10)
    // No cache headers: the default 7 days from the fetcher's clock.
    XCTAssertEqual(
      record, TileFreshness(expires: clock.now().addingTimeInterval(7 * 86_400), fetched: clock.now()))
    XCTAssertEqual(
      server.requests(),
      [.init(path: "/ok/3/5/2.png", userAgent: fetcher.userAgent, ifNoneMatch: nil, ifModifiedSince: nil)])
    XCTAssertEqual(clock.sleeps, [])
  }

  func testARetriedRequestCarriesTheUserAgentToo() async throws {
    let fetcher = fetcher(contact: "maps@example.invalid")
    _ = try await fetcher.fetch(
      someTile, from: server.template("busy", query: "n=1&retry_after=0"), expectedSize: 256)
    XCTAssertEqual(server.requests().map(\.userAgent), [fetcher.userAgent, fetcher.userAgent])
    XCTAssertEqual(clock.sleeps, [0])
  }

  func testETagRevalidationSendsIfNoneMatchAndGetsNotModified() async throws {
    // The transport sends our If-None-Match unchanged and hands the 304 back.
    let template = try server.template("etag", query: "max_age=120")
    let t0 = clock.now()
    guard
      case .image(_, _, let first) = try await fetcher().fetch(someTile, from: template, expectedSize: 256)
    else { return XCTFail("no tile") }
    // Header names are read whatever their case.
    XCTAssertEqual(first, TileFreshness(etag: "\"v1\"", expires: t0.addingTimeInterval(120), fetched: t0))
    let later = t0.addingTimeInterval(3 * 86_400)
    clock.set(later)
    let result = try await fetcher().fetch(someTile, from: template, expectedSize: 256, revalidating: first)
    XCTAssertEqual(
      result,
      .notModified(TileFreshness(etag: "\"v1\"", expires: later.addingTimeInterval(120), fetched: later)))
    let requests = server.requests()
    XCTAssertEqual(requests.count, 2)
    XCTAssertEqual(requests.map(\.ifNoneMatch), [nil, "\"v1\""])
    XCTAssertNil(requests.last?.ifModifiedSince)
  }

  func testLastModifiedRevalidationSendsIfModifiedSince() async throws {
    let template = try server.template("lastmod")
    guard
      case .image(_, _, let first) = try await fetcher().fetch(someTile, from: template, expectedSize: 256)
    else { return XCTFail("no tile") }
    let result = try await fetcher().fetch(someTile, from: template, expectedSize: 256, revalidating: first)
    guard case .notModified(let record) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(record.lastModified, "Wed, 21 Oct 2015 07:28:00 GMT")
    XCTAssertEqual(server.requests().last?.ifModifiedSince, "Wed, 21 Oct 2015 07:28:00 GMT")
    XCTAssertNil(server.requests().last?.ifNoneMatch)
  }

  // MARK: The response size limit

  func testBodyWhoseContentLengthIsOverTheLimitIsRefusedAtOnce() async throws {
    // 600 MiB of zeros after a valid PNG, announced by its Content-Length.
    let error = await fetchError("huge", query: "mb=600")
    XCTAssertEqual(error?.reason, .tooLarge(bytes: 600 * 1_048_576 + pngBytes, limit: 4_194_304))
    XCTAssertEqual(
      error?.description,
      "cannot fetch tile \(someTile) from \(server.baseURL)/huge/{z}/{x}/{y}.png?mb=600: "
        + "the response is too large for a tile (600.1 MiB, the limit is 4 MiB)")
    XCTAssertEqual(error?.summaryKind, "too large")
    XCTAssertEqual(error?.isTransient, false)
    XCTAssertEqual(error?.isHostUnreachable, false)
    // Not retried.
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("huge"), 1)
    XCTAssertEqual(clock.sleeps, [])
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
    let tooSmall = fetcher(maximumTileBytes: pngBytes - 1)
    // Content-Length just over the limit: refused.
    let announced = await expectTileFetchError {
      try await tooSmall.fetch(someTile, from: template, expectedSize: 256)
    }
    XCTAssertEqual(announced?.reason, .tooLarge(bytes: pngBytes, limit: pngBytes - 1))
    // The PNG alone without a Content-Length (the server closes the connection after it): stopped while
    // arriving when one byte too many comes.
    let unannounced = try server.template("huge", query: "mb=0&length=0")
    let counted = await expectTileFetchError {
      try await tooSmall.fetch(someTile, from: unannounced, expectedSize: 256)
    }
    XCTAssertEqual(counted?.reason, .tooLarge(bytes: nil, limit: pngBytes - 1))
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

  // MARK: Time-outs

  /// A body that trickles in a byte every half second never trips the idle timeout: the transport's
  /// deadline ends it, and it is not retried. The deadline is 4 × the timeout + 2 s (6 s for the shortest
  /// timeout, 1 s); shortened to 2 s here, which the drip outlasts just as well.
  func testATricklingBodyEndsAtTheDeadlineWithoutRetries() async {
    XCTAssertEqual(CurlTransport.deadline(forTimeout: 1), 6)
    XCTAssertEqual(CurlTransport.deadline(forTimeout: 15), 62)
    let transport = CurlTransport(userAgent: nil, deadline: { _ in 2 })
    let started = Date()
    let error = await fetchError("drip", fetcher: fetcher(timeout: 1, transport: transport))
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(error?.reason, .timedOut)
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(server.requestCount("drip"), 1)
    XCTAssertGreaterThan(elapsed, 1.9)
    XCTAssertLessThan(elapsed, 8)
    XCTAssertEqual(clock.sleeps, [])
  }

  func testAServerSilentPastTheTimeoutTimesOut() async throws {
    let started = Date()
    let result = try await exchange("slow", query: "delay=4", timeout: 1)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(result, .failure(.timedOut))
    // About the 1 s timeout, not the server's 4 s.
    XCTAssertGreaterThan(elapsed, 0.9)
    XCTAssertLessThan(elapsed, 3.5)
  }

  /// Cancelling the fetching task cancels the request in flight.
  func testCancellingTheTaskCancelsTheRequestInFlight() async throws {
    let fetcher = fetcher()
    let template = try server.template("slow", query: "delay=5")
    let someTile = self.someTile
    let started = Date()
    let fetching = Task { try await fetcher.fetch(someTile, from: template, expectedSize: 256) }
    while server.requests().isEmpty, Date().timeIntervalSince(started) < 10 {
      try await Task.sleep(nanoseconds: 5_000_000)
    }
    XCTAssertEqual(server.requestCount("slow"), 1)
    fetching.cancel()
    await assertCancelled(fetching)
    XCTAssertLessThan(Date().timeIntervalSince(started), 4, "the server's 5 s were not waited for")
    XCTAssertEqual(server.requestCount("slow"), 1)
    XCTAssertEqual(clock.sleeps, [])
  }

  // MARK: Connections

  func testClosedPortMeansTheHostIsUnreachable() async throws {
    let port = try closedLocalPort()
    XCTAssertGreaterThan(port, 0)
    let template = try TileURLTemplate("http://127.0.0.1:\(port)/ok/{z}/{x}/{y}.png", environment: [:])
    do {
      let result = try await fetcher().fetch(someTile, from: template, expectedSize: 256)
      XCTFail("expected an error, got \(result)")
    } catch let error as TileFetchError {
      XCTAssertEqual(error.reason, .cannotConnect(.cannotConnectToHost))
      XCTAssertTrue(error.isHostUnreachable)
      XCTAssertEqual(error.summaryKind, "cannot connect")
      // Retrying cannot help: one attempt, no waiting.
      XCTAssertEqual(error.attempts, 1)
      XCTAssertEqual(clock.sleeps, [])
      XCTAssertEqual(
        error.description,
        "cannot fetch tile \(someTile) from http://127.0.0.1:\(port)/ok/{z}/{x}/{y}.png: "
          + "connection failed (cannot connect to the server)")
    }
  }

  func testABodyCutShortOfItsContentLengthIsTruncated() async throws {
    let result = try await exchange("truncated")
    guard case .failure(.truncated(let missing)) = result else { return XCTFail("got \(result)") }
    XCTAssertEqual(missing, pngBytes - pngBytes / 2)
    // Through the fetcher: retried, then reported.
    let error = await fetchError("truncated")
    XCTAssertEqual(error?.reason, .truncated(bytesMissing: pngBytes - pngBytes / 2))
    XCTAssertEqual(error?.attempts, 3)
    XCTAssertEqual(server.requestCount("truncated"), 4)
  }

  func testAConnectionClosedWithoutAnAnswerIsATransientFailure() async throws {
    let result = try await exchange("reset", query: "n=1")
    guard case .failure(.connectionFailed(let how)) = result else { return XCTFail("got \(result)") }
    // libcurl's "empty reply from server".
    XCTAssertEqual(how, .badResponse)
    XCTAssertTrue(how.isTransient, "\(how)")
    // The second request of the path gets the tile.
    guard case .success(let response) = try await exchange("reset", query: "n=1") else {
      return XCTFail("the second request should get the tile")
    }
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.body.count, pngBytes)
    XCTAssertEqual(response.announcedLength, pngBytes)
    XCTAssertEqual(response.header("content-type"), "image/png")
  }

  /// A 401 that carries a challenge ends with its status, which tells the user what is wrong.
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

  func testEveryCurlErrorMeansWhatTheFetcherNeeds() {
    let cases: [(Int, HTTPTransportError)] = [
      (6, .unreachable(.unknownHost)),
      (7, .unreachable(.cannotConnectToHost)),
      (8, .connectionFailed(.badResponse)),
      (18, .truncated(bytesMissing: 1234)),
      (28, .timedOut),
      (52, .connectionFailed(.badResponse)),
      (55, .connectionFailed(.dropped)),
      (56, .connectionFailed(.dropped)),
    ]
    for (code, expected) in cases {
      XCTAssertEqual(
        CurlExchange.transportError(curlCode: code, text: "words", bytesMissing: 1234), expected, "\(code)")
    }
    // Anything else keeps libcurl's words (or its number) and is not worth another try.
    let other = CurlExchange.transportError(curlCode: 35, text: "TLS handshake failed", bytesMissing: nil)
    XCTAssertEqual(other, .connectionFailed(.other("TLS handshake failed", transient: false)))
    XCTAssertEqual(
      CurlExchange.transportError(curlCode: 77, text: "", bytesMissing: nil),
      .connectionFailed(.other("libcurl error 77", transient: false)))
  }

  // MARK: The server's view of a body over the limit

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

  /// The server's record of this namespace's `/huge/` responses (`GET /~N/transfers/`), read over a plain
  /// socket so that no URLSession is involved.
  private func serverTransfers() throws -> [(path: String, sent: Int, total: Int, state: String)] {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestPrerequisiteMissing("cannot create a socket") }
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
    guard connected else { throw TestPrerequisiteMissing("cannot connect to the local tile server") }
    let request = Array("GET /\(server.namespace)/transfers/x HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
      throw TestPrerequisiteMissing("cannot send to the local tile server")
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
}
