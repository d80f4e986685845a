import Foundation
import MapMath
import TestSupport
import TileFetching
import Tiles
import XCTest

/// Redirects from a tile server: followed to http and https only. FoundationNetworking on its own turns
/// `Location: file:///etc/hostname` into a request for `/etc/hostname` on the same server, whose 404 then
/// read as "the server has no such tile".
final class TileRedirectTests: XCTestCase {
  private var server: LocalTileServer!
  private let someTile = TileID(z: 3, x: 5, y: 2)!

  override func setUpWithError() throws {
    server = try LocalTileServer()
  }

  private func fetch(_ template: TileURLTemplate) async -> Result<FetchedTile, any Error> {
    let fetcher = TileFetcher(
      version: "9.8.7", policy: TileFetchPolicy(baseDelay: 0, timeout: 5), clock: VirtualClock())
    do {
      return .success(try await fetcher.fetch(someTile, from: template, expectedSize: 256))
    } catch {
      return .failure(error)
    }
  }

  func testARedirectToAnotherSchemeIsAFailureThatSaysWhereItPointed() async throws {
    for (target, shown) in [
      ("file:///etc/hostname", "file:///etc/hostname"),
      ("file:///etc/hostname?key=s3cr3t#x", "file:///etc/hostname"),
      ("ftp://127.0.0.1/tiles/1.png", "ftp://127.0.0.1/tiles/1.png"),
      ("data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,iVBORw0KGgo="),
    ] {
      let template = try server.template("redirect", query: "to=" + percentEncoded(target))
      let before = server.requests().count
      guard case .failure(let error as TileFetchError) = await fetch(template) else {
        XCTFail("\(target): expected a TileFetchError")
        continue
      }
      XCTAssertEqual(error.reason, .redirectNotFollowed(to: shown), target)
      XCTAssertEqual(error.summaryKind, "redirect not followed")
      XCTAssertFalse(error.isTransient)
      XCTAssertEqual(error.attempts, 1)
      XCTAssertEqual(
        error.description,
        "cannot fetch tile 3/5/2 from \(template.redacted): the server redirected to \(shown), which mymap"
          + " does not follow (only http and https)")
      // Only the redirect itself was asked for: no request for the file's path on the tile server.
      XCTAssertEqual(server.requests().dropFirst(before).map(\.path), ["/redirect/3/5/2.png"], target)
      XCTAssertEqual(server.requestsOutsideAnyNamespace().map(\.path), [], target)
    }
  }

  func testRedirectsToHTTPAreFollowed() async throws {
    let relative = try server.template("redirect", query: "to=ok")
    guard case .success(.image(_, let image, _)) = await fetch(relative) else {
      return XCTFail("a redirect to /ok/… should give the tile")
    }
    XCTAssertEqual(image.width, 256)
    let absolute = try server.template(
      "redirect", query: "to=" + percentEncoded("\(server.baseURL)/ok/9/9/9.png"))
    guard case .success(.image) = await fetch(absolute) else {
      return XCTFail("a redirect to an absolute http URL should give the tile")
    }
    XCTAssertEqual(
      server.requests().map(\.path).filter { $0.hasPrefix("/ok/") }, ["/ok/3/5/2.png", "/ok/9/9/9.png"])
  }

  private func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}
