import MapMath
import TestSupport
import TileFetching
import Tiles
import XCTest

final class TileURLTemplateTests: XCTestCase {
  private let secret = "s3cr3t-K3Y-value"

  private func template(_ text: String, environment: [String: String] = [:]) throws -> TileURLTemplate {
    try TileURLTemplate(text, environment: environment)
  }

  private func assertError(
    _ text: String, _ expected: TileURLTemplateError, environment: [String: String] = [:],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try TileURLTemplate(text, environment: environment), file: file, line: line) {
      XCTAssertEqual($0 as? TileURLTemplateError, expected, file: file, line: line)
    }
  }

  func testZoomColumnAndRow() throws {
    let osm = try template("https://tile.example.org/{z}/{x}/{y}.png")
    XCTAssertEqual(osm.url(for: tile(3, 5, 2)), "https://tile.example.org/3/5/2.png")
    XCTAssertEqual(osm.url(for: tile(0, 0, 0)), "https://tile.example.org/0/0/0.png")
  }

  func testTMSRowCountsFromTheSouth() throws {
    let tms = try template("http://tiles.example.org/{z}/{x}/{-y}.jpg")
    XCTAssertEqual(tms.url(for: tile(3, 5, 2)), "http://tiles.example.org/3/5/5.jpg")
    XCTAssertEqual(tms.url(for: tile(1, 0, 0)), "http://tiles.example.org/1/0/1.jpg")
  }

  func testDefaultSubdomainsCycleThroughABC() throws {
    let osm = try template("https://{s}.tile.example.org/{z}/{x}/{y}.png")
    XCTAssertEqual(osm.subdomains, ["a", "b", "c"])
    let chosen = (0..<4).map { osm.url(for: tile(2, 1, 1), subdomainIndex: $0) }
    XCTAssertEqual(
      chosen,
      [
        "https://a.tile.example.org/2/1/1.png", "https://b.tile.example.org/2/1/1.png",
        "https://c.tile.example.org/2/1/1.png", "https://a.tile.example.org/2/1/1.png",
      ])
    XCTAssertEqual(osm.url(for: tile(2, 1, 1), subdomainIndex: -1), "https://c.tile.example.org/2/1/1.png")
    // Without an index, neighbouring tiles go to different servers.
    XCTAssertNotEqual(osm.url(for: tile(2, 1, 1)).prefix(10), osm.url(for: tile(2, 2, 1)).prefix(10))
  }

  func testSubdomainList() throws {
    let digits = try template("https://mt{s:0123}.example.org/{z}/{x}/{y}")
    XCTAssertEqual(digits.subdomains, ["0", "1", "2", "3"])
    XCTAssertEqual(digits.url(for: tile(1, 1, 0), subdomainIndex: 2), "https://mt2.example.org/1/1/0")
    let names = try template("https://{s:tiles1,tiles2}.example.org/{z}/{x}/{y}")
    XCTAssertEqual(names.subdomains, ["tiles1", "tiles2"])
    XCTAssertEqual(names.url(for: tile(1, 1, 0), subdomainIndex: 1), "https://tiles2.example.org/1/1/0")
  }

  func testRetina() throws {
    let hidpi = try template("https://tile.example.org/{z}/{x}/{y}{r}.png")
    XCTAssertEqual(hidpi.url(for: tile(4, 8, 5), retina: true), "https://tile.example.org/4/8/5@2x.png")
    XCTAssertEqual(hidpi.url(for: tile(4, 8, 5)), "https://tile.example.org/4/8/5.png")
  }

  func testKeyComesFromTheEnvironment() throws {
    let keyed = try template(
      "https://tile.example.org/{z}/{x}/{y}.png?apikey={key:MYMAP_TILE_KEY}",
      environment: ["MYMAP_TILE_KEY": secret, "OTHER": "x"])
    XCTAssertEqual(keyed.url(for: tile(1, 0, 1)), "https://tile.example.org/1/0/1.png?apikey=\(secret)")
    XCTAssertEqual(keyed.keyVariables, ["MYMAP_TILE_KEY"])
  }

  func testKeyNeverAppearsInRedactedOrCacheName() throws {
    let text = "https://{s}.tile.example.org/{z}/{x}/{y}{r}.png?key={key:TILE_KEY}"
    let keyed = try template(text, environment: ["TILE_KEY": secret])
    XCTAssertEqual(keyed.redacted, text)
    XCTAssertEqual(keyed.description, text)
    var dumped = ""
    dump(keyed, to: &dumped)
    let shownForms = [
      keyed.redacted, keyed.cacheName, keyed.description, "\(keyed)", String(reflecting: keyed), dumped,
    ]
    for shown in shownForms {
      XCTAssertFalse(shown.contains(secret), shown)
      XCTAssertFalse(shown.contains("s3cr3t"), shown)
    }
    // The cache folder does not depend on the key: a new key keeps using the same tiles.
    let rotated = try template(text, environment: ["TILE_KEY": "another-key"])
    XCTAssertEqual(rotated.cacheName, keyed.cacheName)
  }

  func testRedactedHidesAPasswordInTheURL() throws {
    let withPassword = try template("https://me:hunter2@tiles.example.org/{z}/{x}/{y}.png")
    XCTAssertEqual(withPassword.redacted, "https://me:***@tiles.example.org/{z}/{x}/{y}.png")
    XCTAssertFalse(withPassword.cacheName.contains("hunter2"))
    XCTAssertFalse(withPassword.cacheName.contains("me"))
  }

  func testCacheNameIsHostAndAStableHash() throws {
    let osm = try template("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png")
    XCTAssertTrue(osm.cacheName.hasPrefix("tile.openstreetmap.org-"), osm.cacheName)
    let hash = osm.cacheName.dropFirst("tile.openstreetmap.org-".count)
    XCTAssertEqual(hash.count, 8)
    XCTAssertTrue(hash.allSatisfy(\.isHexDigit), osm.cacheName)
    // Stable: the same template gives the same name (not Swift's per-process random hashing)...
    XCTAssertEqual(
      osm.cacheName, try template("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png").cacheName)
    // ...and another template on the same host a different one.
    let retina = try template("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}{r}.png")
    XCTAssertNotEqual(osm.cacheName, retina.cacheName)
    XCTAssertTrue(retina.cacheName.hasPrefix("tile.openstreetmap.org-"))
    let port = try template("http://localhost:8080/{z}/{x}/{y}.png")
    XCTAssertTrue(port.cacheName.hasPrefix("localhost_8080-"), port.cacheName)
    XCTAssertFalse(port.cacheName.contains("/"))
  }

  func testUppercaseSchemeIsLowercasedAndTheRestKeptAsGiven() throws {
    let upper = try template("HTTP://127.0.0.1:8080/tiles/{z}/{x}/{y}.png")
    XCTAssertEqual(upper.url(for: tile(1, 0, 1)), "http://127.0.0.1:8080/tiles/1/0/1.png")
    XCTAssertEqual(upper.template, "http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png")
    XCTAssertEqual(upper.redacted, "http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png")
    XCTAssertEqual(upper.cacheName, try template("http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png").cacheName)
    // Only the scheme changes: host, path and placeholders keep their case.
    let mixed = try template(
      "HtTpS://me:Secret@Tiles.Example.ORG/{z}/{x}/{y}.PNG?key={key:TILE_KEY}",
      environment: ["TILE_KEY": secret])
    XCTAssertEqual(
      mixed.url(for: tile(2, 1, 3)), "https://me:Secret@Tiles.Example.ORG/2/1/3.PNG?key=\(secret)")
    XCTAssertEqual(mixed.redacted, "https://me:***@Tiles.Example.ORG/{z}/{x}/{y}.PNG?key={key:TILE_KEY}")
    XCTAssertEqual(mixed.host, "tiles.example.org")
    XCTAssertEqual(String(describing: mixed), mixed.redacted)
  }

  func testCacheNamesOfLowercaseTemplatesAreUnchanged() throws {
    // Pinned values: the folders of existing caches must keep their names.
    XCTAssertEqual(
      try template("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png").cacheName,
      "tile.openstreetmap.org-cd175ff1")
    XCTAssertEqual(
      try template("http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png").cacheName, "127.0.0.1_8080-e8a4be17")
    XCTAssertEqual(
      try template("https://Tiles.Example.ORG/{z}/{x}/{y}.PNG").cacheName, "tiles.example.org-9e186df1")
    XCTAssertEqual(
      try template("HTTPS://Tiles.Example.ORG/{z}/{x}/{y}.PNG").cacheName, "tiles.example.org-9e186df1")
  }

  func testErrors() {
    assertError("tile.example.org/{z}/{x}/{y}.png", .notHTTP("tile.example.org/{z}/{x}/{y}.png"))
    assertError("file:///tiles/{z}/{x}/{y}.png", .notHTTP("file:///tiles/{z}/{x}/{y}.png"))
    assertError("FTP://tiles/{z}/{x}/{y}.png", .notHTTP("FTP://tiles/{z}/{x}/{y}.png"))
    assertError("HTTP:/tiles/{z}/{x}/{y}.png", .notHTTP("HTTP:/tiles/{z}/{x}/{y}.png"))
    assertError("https://t.example.org/{x}/{y}.png", .missingPlaceholder("{z}"))
    assertError("https://t.example.org/{z}/{y}.png", .missingPlaceholder("{x}"))
    assertError("https://t.example.org/{z}/{x}.png", .missingPlaceholder("{y} or {-y}"))
    assertError("https://t.example.org/{z}/{x}/{y}.png?lang={foo}", .unknownPlaceholder("foo"))
    assertError("https://t.example.org/{Z}/{x}/{y}.png", .unknownPlaceholder("Z"))
    assertError("https://t.example.org/{z}/{x}/{y}.png?k={key:}", .unknownPlaceholder("key:"))
    assertError("https://{s:}.t.example.org/{z}/{x}/{y}.png", .noSubdomains)
    assertError("https://{s:,}.t.example.org/{z}/{x}/{y}.png", .noSubdomains)
    assertError("https://t.example.org/{z}/{x}/{y}.png?k={key:TILE_KEY}", .missingKey("TILE_KEY"))
    assertError(
      "https://t.example.org/{z}/{x}/{y}.png?k={key:TILE_KEY}", .missingKey("TILE_KEY"),
      environment: ["TILE_KEY": ""])
    assertError("https://t.example.org/{z}/{x}/{y.png", .unclosedBrace)
  }

  func testErrorMessagesAreOneLine() {
    let errors: [TileURLTemplateError] = [
      .notHTTP("x"), .missingPlaceholder("{z}"), .unknownPlaceholder("foo"), .noSubdomains,
      .missingKey("TILE_KEY"), .unclosedBrace,
    ]
    XCTAssertEqual(
      errors.map(\.description),
      [
        "a tile URL template must start with http:// or https://",
        "the tile URL template has no {z} placeholder",
        "unknown placeholder {foo} in the tile URL template "
          + "(expected {z}, {x}, {y}, {-y}, {s}, {s:abc}, {r} or {key:NAME})",
        "{s:} in the tile URL template lists no subdomains (write {s} for a, b, c, or e.g. {s:1234})",
        "the tile URL template needs an API key from the environment variable TILE_KEY, which is not set",
        "the tile URL template has a '{' without its '}'",
      ])
    for message in errors.map(\.description) { XCTAssertFalse(message.contains("\n")) }
  }
}
