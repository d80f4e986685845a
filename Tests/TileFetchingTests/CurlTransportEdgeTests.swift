import Foundation
import MapMath
import TestSupport
import XCTest

@testable import TileFetching

/// The edges of `CurlTransport` that only it has: libcurl missing, redirects it follows itself, header
/// values that would break a request, and a response's header block read back.
final class CurlTransportEdgeTests: XCTestCase {
  private let someTile = TileID(z: 3, x: 5, y: 2)!

  func testAMissingLibcurlIsAnUnreachableHostThatNamesTheDebianPackage() async throws {
    let transport = CurlTransport(userAgent: nil, deadline: { _ in 10 }, libraryName: "libcurl-gone.so.99")
    let request = HTTPRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:9/ok/3/5/2.png")))
    do {
      let response = try await transport.send(request, limit: 1000, timeout: 1)
      XCTFail("expected an error, got \(response)")
    } catch {
      guard case .unreachable(.networkLibraryMissing(let library, let package, let reason)) = error else {
        return XCTFail("got \(error)")
      }
      XCTAssertEqual(library, "libcurl-gone.so.99")
      XCTAssertEqual(package, "libcurl4")
      XCTAssertTrue(reason.contains("libcurl-gone.so.99"), reason)
    }
    // Through the fetcher: one attempt, the host's other tiles skipped, and words that say what to install.
    let fetcher = TileFetcher(
      version: "1.0", policy: TileFetchPolicy(baseDelay: 0, timeout: 1), transport: transport,
      clock: VirtualClock())
    let template = try TileURLTemplate("http://127.0.0.1:9/ok/{z}/{x}/{y}.png", environment: [:])
    let error = await expectTileFetchError {
      try await fetcher.fetch(self.someTile, from: template, expectedSize: 256)
    }
    XCTAssertEqual(error?.attempts, 1)
    XCTAssertEqual(error?.isHostUnreachable, true)
    XCTAssertEqual(error?.isTransient, true)
    let text = error?.description ?? ""
    XCTAssertTrue(
      text.hasPrefix(
        "cannot fetch tile 3/5/2 from http://127.0.0.1:9/ok/{z}/{x}/{y}.png: connection failed (libcurl-gone.so.99 cannot be loaded ("
      ), text)
    XCTAssertTrue(text.hasSuffix("); install the Debian package libcurl4)"), text)
  }

  func testTheTransportRefusesARedirectToAnotherSchemeWithoutAskingForIt() async throws {
    let server = try LocalTileServer()
    let template = try server.template("redirect", query: "to=" + "ftp%3A%2F%2F127.0.0.1%2Fsecret%3Fkey%3Dk")
    let url = try XCTUnwrap(URL(string: template.url(for: someTile)))
    do {
      let response = try await CurlTransport().send(HTTPRequest(url: url), limit: 1 << 20, timeout: 5)
      XCTFail("expected a refused redirect, got \(response)")
    } catch {
      XCTAssertEqual(error, .redirectRefused(target: "ftp://127.0.0.1/secret"))
    }
    XCTAssertEqual(server.requests().map(\.path), ["/redirect/3/5/2.png"])
  }

  func testAHeaderValueWithALineBreakIsNotSent() async throws {
    let server = try LocalTileServer()
    let url = try XCTUnwrap(URL(string: server.template("etag").url(for: someTile)))
    let request = HTTPRequest(
      url: url, headers: ["If-None-Match": "\"v1\"\r\nX-Injected: 1", "User-Agent": "tester/1"])
    let response = try await CurlTransport(userAgent: "default/2").send(request, limit: 1 << 20, timeout: 5)
    // Without the If-None-Match the server sends the tile, not a 304.
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.header("etag"), "\"v1\"")
    XCTAssertEqual(server.requests().map(\.ifNoneMatch), [nil])
    // The request's own User-Agent wins over the transport's.
    XCTAssertEqual(server.requests().map(\.userAgent), ["tester/1"])
  }

  func testTimeoutsAreBoundedBeforeTheyReachC() {
    XCTAssertEqual(CurlExchange.seconds(.nan), 86_400)
    XCTAssertEqual(CurlExchange.seconds(.infinity), 86_400)
    XCTAssertEqual(CurlExchange.seconds(1e300), 86_400)
    XCTAssertEqual(CurlExchange.seconds(-5), 0.001)
    XCTAssertEqual(CurlExchange.seconds(15), 15)
  }

  func testAHeaderBlockIsReadIntoFieldsWithRepeatedNamesJoined() {
    let block =
      "HTTP/1.1 200 OK\r\nETag: \"a\"\r\nCache-Control: max-age=60\r\nCache-Control:  public \r\n"
      + "no colon here\r\n: nameless\r\nX-Empty:\r\n\r\n"
    XCTAssertEqual(
      CurlExchange.headerFields(block),
      ["ETag": "\"a\"", "Cache-Control": "max-age=60, public", "X-Empty": ""])
    XCTAssertEqual(CurlExchange.headerFields(""), [:])
  }
}
