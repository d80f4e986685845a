import Foundation
import ImageCodecs
import TileFetching
import Tiles

/// `Tests/Fixtures/tileserver/tile_server.py` answered by a `FakeTransport` in virtual time: the same
/// behaviours, picked by the first path segment (`ok`, `busy`, `etag`, … with the same query parameters),
/// and the same request log, but no process, no socket and no waiting, so a test of retries, time-outs and
/// revalidation runs in milliseconds. What only a real network shows (redirects, bodies cut off by the
/// connection, a body trickling past the deadline) is tested against `LocalTileServer`.
///
/// Only `baseURL`'s host answers; any other host cannot be reached (`.unreachable(.cannotConnectToHost)`).
/// `redirect` refuses every target (following one is the real transport's business), `drip` fails with
/// `.deadlinePassed` after the deadline `CurlTransport` would set, and `truncated` with `.truncated`.
/// Two behaviours are its own: `hang` answers nothing until the request is cancelled, and `vector` answers
/// every tile with the same gzip-compressed vector tile (`vectorTile`), where the real server's `vector`
/// reads an MBTiles file.
public final class FakeTileServer: Sendable {
  public let clock: VirtualClock
  public let transport: FakeTransport

  /// `http://tiles.fake.test`, without a trailing slash.
  public let baseURL = "http://tiles.fake.test"

  public init(clock: VirtualClock = VirtualClock()) {
    self.clock = clock
    transport = FakeTransport(clock: clock) { FakeTileServer.answer($0) }
  }

  /// A template for one behaviour, like `LocalTileServer.template`:
  /// `http://tiles.fake.test/<behaviour>/{z}/{x}/{y}.png[?query]` (`.pbf` and the like with `fileExtension`).
  public func template(_ behaviour: String, query: String = "", fileExtension: String = "png") throws
    -> TileURLTemplate
  {
    try TileURLTemplate(
      "\(baseURL)/\(behaviour)/{z}/{x}/{y}.\(fileExtension)" + (query.isEmpty ? "" : "?" + query),
      environment: ["TILE_KEY": "s3cr3t-key"])
  }

  /// A fetcher that sends through this server's transport and waits on its clock.
  public func fetcher(
    version: String = "9.8.7", contact: String? = nil, policy: TileFetchPolicy = TileFetchPolicy()
  ) -> TileFetcher {
    TileFetcher(version: version, contact: contact, policy: policy, transport: transport, clock: clock)
  }

  /// Every request that reached this server so far (not those to hosts it does not answer for), oldest
  /// first, as `LocalTileServer` logs them.
  public func requests() -> [LocalTileServer.LoggedRequest] {
    transport.requests.filter(Self.isOwn).map {
      LocalTileServer.LoggedRequest(
        path: $0.url.path, userAgent: $0.header("User-Agent") ?? "", ifNoneMatch: $0.header("If-None-Match"),
        ifModifiedSince: $0.header("If-Modified-Since"))
    }
  }

  /// How many requests asked for one behaviour.
  public func requestCount(_ behaviour: String) -> Int {
    requests().filter { $0.path.hasPrefix("/\(behaviour)/") }.count
  }

  /// The 256×256 PNG `ok` sends: red counts the column, green the row (both mod 256), blue is 128.
  public static let png256 = gradientPNG(side: 256)
  public static let png16 = gradientPNG(side: 16)
  public static let png512 = gradientPNG(side: 512)

  /// A real vector tile of Helsinki (14/9326/4742), gzip-compressed as vector tile servers store them.
  public static let vectorTile =
    (try? Data(contentsOf: RepositoryPaths.fixture("vector/helsinki-14-9326-4742.mvt.gz"))) ?? Data()
  public static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

  private static func gradientPNG(side: Int) -> Data {
    var rgba = [UInt8](repeating: 0, count: side * side * 4)
    for y in 0..<side {
      for x in 0..<side {
        let index = (y * side + x) * 4
        rgba[index] = UInt8(x % 256)
        rgba[index + 1] = UInt8(y % 256)
        rgba[index + 2] = 128
        rgba[index + 3] = 255
      }
    }
    // The encoder cannot fail on a well-formed image; an empty tile would fail every test that reads it.
    return (try? PNGCodec.encode(RasterImage(width: side, height: side, rgba: rgba))) ?? Data()
  }

  /// Whether a request is for this server's host.
  private static func isOwn(_ request: HTTPRequest) -> Bool {
    request.url.host == "tiles.fake.test" && request.url.port == nil
  }

  /// The answer of `tile_server.py` to one request.
  private static func answer(_ exchange: FakeTransport.Exchange) -> FakeReply {
    let request = exchange.request
    guard isOwn(request) else {
      return .failure(.unreachable(.cannotConnectToHost))
    }
    var query: [String: String] = [:]
    for item in URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
      query[item.name] = item.value ?? ""
    }
    let path = request.url.path
    let kind = path.split(separator: "/").first.map(String.init) ?? ""
    let failures = Int(query["n"] ?? "1") ?? 1
    let date = ["Date": httpDate(Date())]
    func ok(_ extra: [String: String] = [:]) -> FakeReply {
      .status(
        200, headers: date.merging(["Content-Type": "image/png"]) { $1 }.merging(extra) { $1 }, body: png256)
    }
    switch kind {
    case "ok":
      return ok()
    case "small":
      return .status(200, headers: date.merging(["Content-Type": "image/png"]) { $1 }, body: png16)
    case "missing":
      return .status(404, headers: ["Content-Type": "text/plain"], body: Data("not found\n".utf8))
    case "html":
      return .status(
        200, headers: ["Content-Type": "text/html; charset=utf-8"],
        body: Data("<html><body>Access denied</body></html>\n".utf8))
    case "garbage":
      return .status(200, headers: ["Content-Type": "image/png"], body: Data("this is not a png at all".utf8))
    case "busy", "limited":
      guard exchange.count <= failures else { return ok() }
      return .status(
        kind == "busy" ? 503 : 429,
        headers: ["Content-Type": "text/plain", "Retry-After": query["retry_after"] ?? "0"],
        body: Data("busy\n".utf8))
    case "error":
      return .status(500, headers: ["Content-Type": "text/plain"], body: Data("oops\n".utf8))
    case "reset":
      // What the transport makes of a connection closed without an answer (libcurl: "empty reply").
      return exchange.count <= failures ? .failure(.connectionFailed(.badResponse)) : ok()
    case "truncated":
      return .failure(.truncated(bytesMissing: png256.count - png256.count / 2))
    case "slow":
      return .status(
        200, headers: ["Content-Type": "image/png"], body: png256, after: Double(query["delay"] ?? "5") ?? 5)
    case "drip":
      return .failure(.deadlinePassed, after: exchange.timeout * 4 + 2)
    case "auth":
      return .status(401, headers: ["WWW-Authenticate": "Basic realm=\"tiles\""])
    case "etag":
      let headers = ["ETag": "\"v1\"", "Cache-Control": "max-age=" + (query["max_age"] ?? "3600")]
      if etagMatches(request.header("If-None-Match"), "\"v1\"") {
        return .status(304, headers: date.merging(headers) { $1 }, announcedLength: .some(nil))
      }
      return ok(headers)
    case "lastmod":
      if request.header("If-Modified-Since") == lastModified {
        return .status(304, headers: date, announcedLength: .some(nil))
      }
      return ok(["Last-Modified": lastModified])
    case "expires":
      let served = Date().addingTimeInterval(Double(query["skew"] ?? "0") ?? 0)
      return ok(["Date": httpDate(served), "Expires": httpDate(served.addingTimeInterval(7200))])
    case "nostore":
      return ok(["Cache-Control": "no-store"])
    case "changed":
      return ok(["ETag": "\"v2\"", "Cache-Control": "max-age=600"])
    case "notmodified":
      return .status(304, headers: date.merging(["ETag": "\"v1\""]) { $1 }, announcedLength: .some(nil))
    case "redirect":
      let target = query["to"] ?? "file:///etc/hostname"
      let shown = String(target.prefix { $0 != "?" && $0 != "#" })
      return .failure(.redirectRefused(target: shown))
    case "vector":
      return .status(
        200, headers: date.merging(["Content-Type": "application/x-protobuf"]) { $1 }, body: vectorTile)
    case "hang":
      return .hang
    case "retina":
      return .status(
        200, headers: ["Content-Type": "image/png"], body: path.contains("@2x") ? png512 : png256)
    case "huge":
      let zeros = max(0, Int((Double(query["mb"] ?? "600") ?? 600) * 1_048_576))
      let total = png256.count + zeros
      let announced = query["length"] == "0" ? nil : total
      // Refused before the body is made: the fake never holds more than the limit.
      guard total <= exchange.limit else {
        return .failure(.tooLarge(announced: announced, limit: exchange.limit))
      }
      return .status(
        200, headers: ["Content-Type": "image/png"], body: png256 + Data(count: zeros),
        announcedLength: .some(announced))
    default:
      return .status(400, headers: ["Content-Type": "text/plain"], body: Data("unknown behaviour\n".utf8))
    }
  }

  /// Whether an If-None-Match value matches `etag`, by weak comparison (RFC 9110 §13.1.2).
  private static func etagMatches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
    guard let ifNoneMatch else { return false }
    if ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" { return true }
    func strong(_ tag: Substring) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
    return ifNoneMatch.split(separator: ",").contains {
      strong(Substring($0.trimmingCharacters(in: .whitespaces))) == strong(Substring(etag))
    }
  }

  /// An IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`).
  private static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
