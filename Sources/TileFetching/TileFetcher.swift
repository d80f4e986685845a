import Foundation
import Gzip
import ImageCodecs
import MapMath
import Tiles
import VectorTiles

/// What a tile server returned for one tile.
public enum FetchedTile: Sendable, Equatable {
  /// A new or changed tile: the encoded bytes, their decoded image (which has exactly the expected size)
  /// and how long it may be used, from the response's cache headers.
  case image(Data, RasterImage, TileFreshness)
  /// A new or changed vector tile: the bytes as the server sent them (they decode as a Mapbox Vector Tile,
  /// compressed or not) and how long they may be used.
  case vectorTile(Data, TileFreshness)
  /// The server answered 304 to a revalidation: the cached copy is still good, with this new record.
  case notModified(TileFreshness)
  /// The server answered 404: it has no such tile.
  case missing
}

/// Fetches single tiles from a tile server, politely: its own User-Agent, at most two connections per
/// host, a timeout, a bounded number of retries that honour `Retry-After`, no HTTP cache of its own (the
/// caller keeps tiles and their `TileFreshness`), and revalidation of a cached tile with `If-None-Match` /
/// `If-Modified-Since`. A tile is returned only when its bytes decode to an image of the expected size, so
/// garbage never reaches a cache; a body larger than `policy.maximumTileBytes` is dropped as it arrives and
/// its transfer cancelled.
///
/// The requests go through an `HTTPTransport` (`CurlTransport` unless told otherwise) and the waits
/// through a `FetchClock`: what a response means is decided here, how it travels there.
public final class TileFetcher: Sendable {
  /// The `User-Agent` header sent with every request.
  public let userAgent: String
  public let policy: TileFetchPolicy
  /// What the requests travel through.
  public let transport: any HTTPTransport
  /// When responses arrive (it stamps the freshness records) and how retries wait.
  public let clock: any FetchClock

  /// `version` is mymap's version; `contact` (e.g. an e-mail address) is appended to the User-Agent so
  /// that tile server operators can reach the user. Control characters are removed from both. The
  /// requests go through `transport` (by default a `CurlTransport`), and the waits before retries
  /// through `clock`.
  public init(
    version: String, contact: String? = nil, policy: TileFetchPolicy = TileFetchPolicy(),
    transport: (any HTTPTransport)? = nil, clock: any FetchClock = SystemClock()
  ) {
    let userAgent = Self.userAgent(version: version, contact: contact)
    self.userAgent = userAgent
    self.policy = policy
    self.transport = transport ?? CurlTransport(userAgent: userAgent)
    self.clock = clock
  }

  /// `mymap/<version> (+https://example.invalid/mymap)`, plus `; <contact>` inside the parentheses.
  public static func userAgent(version: String, contact: String?) -> String {
    func clean(_ text: String) -> String {
      String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "(" && $0 != ")" })
        .trimmingCharacters(in: .whitespaces)
    }
    let version = clean(version).replacingOccurrences(of: " ", with: "_")
    var comment = "+https://example.invalid/mymap"
    if let contact = contact.map(clean), !contact.isEmpty { comment += "; " + contact }
    return "mymap/\(version.isEmpty ? "unknown" : version) (\(comment))"
  }

  /// Fetches one tile (its `@2x` URL when `retina`). Returns `.image` only for a body that decodes to an
  /// `expectedSize` × `expectedSize` image (`.vectorTile` only for one that decodes as a vector tile, when
  /// `content` is `.vector`), `.missing` for a 404; throws `TileFetchError` for anything else
  /// (after retrying transient failures as `policy` allows) and `CancellationError` when the task is
  /// cancelled.
  ///
  /// With `cached` (the record of a stored copy) that has an ETag or Last-Modified, the request is
  /// conditional (`If-None-Match`, `If-Modified-Since`) and a 304 returns `.notModified` with the record
  /// updated from the 304's headers; a 304 to an unconditional request is an unexpected response. The
  /// records are stamped with `clock.now()` when the response arrives.
  ///
  /// Once `stopping` is flipped (Ctrl-C), no retry and no wait before one starts: the fetch throws the
  /// `TileFetchError` of its last request at once, and a wait already running ends within about 0.25 s. The
  /// request in flight, and the first request of a fetch, are made and allowed to finish.
  public func fetch(
    _ tile: TileID, from template: TileURLTemplate, expectedSize: Int, content: TileContent = .raster,
    retina: Bool = false, revalidating cached: TileFreshness? = nil, stopping: FetchCancellation? = nil
  ) async throws -> FetchedTile {
    guard let url = URL(string: template.url(for: tile, retina: retina)) else {
      throw TileFetchError(
        tile: tile, source: template.redacted, reason: .connectionFailed("invalid URL"), attempts: 0)
    }
    var attempt = 0
    while true {
      attempt += 1
      try Task.checkCancellation()
      do {
        return try await fetchOnce(url, expectedSize: expectedSize, content: content, cached: cached)
      } catch let failure as Failure {
        let error = TileFetchError(
          tile: tile, source: template.redacted, reason: failure.reason, attempts: attempt)
        guard failure.retryable, attempt < policy.maximumAttempts, stopping?.isCancelled != true,
          let delay = policy.delay(beforeRetry: attempt, retryAfter: failure.retryAfter)
        else { throw error }
        if let stopping {
          guard try await sleep(delay, unless: stopping) else { throw error }
        } else {
          try await clock.sleep(seconds: delay)
        }
      }
    }
  }

  /// The longest single `clock.sleep` while a stop switch is watched.
  static let stopCheckInterval = 0.25

  /// Waits `seconds` on the clock, in slices of at most `stopCheckInterval`, and returns false (at once or
  /// after the current slice) when `stopping` is flipped.
  private func sleep(_ seconds: Double, unless stopping: FetchCancellation) async throws -> Bool {
    var remaining = seconds
    repeat {
      if stopping.isCancelled { return false }
      let slice = min(remaining, Self.stopCheckInterval)
      try await clock.sleep(seconds: slice)
      remaining -= slice
    } while remaining > 0
    return !stopping.isCancelled
  }

  /// One failed request, before it is wrapped in a `TileFetchError`.
  private struct Failure: Error {
    let reason: TileFetchError.Reason
    let retryable: Bool
    var retryAfter: Double? = nil
  }

  /// The request for `url`: conditional when `cached` has validators.
  private func request(_ url: URL, cached: TileFreshness?) -> HTTPRequest {
    var request = HTTPRequest(
      url: url,
      headers: ["User-Agent": userAgent, "Accept": "image/png,image/jpeg,image/webp;q=0.9,*/*;q=0.1"])
    if let etag = cached?.etag {
      request.headers["If-None-Match"] = etag
    }
    if let lastModified = cached?.lastModified {
      request.headers["If-Modified-Since"] = lastModified
    }
    return request
  }

  private func fetchOnce(_ url: URL, expectedSize: Int, content: TileContent, cached: TileFreshness?)
    async throws -> FetchedTile
  {
    let conditional = cached?.canRevalidate ?? false
    let response: HTTPResponse
    do throws(HTTPTransportError) {
      response = try await transport.send(
        request(url, cached: cached), limit: policy.maximumTileBytes, timeout: policy.timeout)
    } catch {
      throw try Self.failure(for: error)
    }
    let received = clock.now()
    // A 304 answers a conditional request only; to any other request it is an unexpected status.
    if response.status == 304, let cached, conditional {
      return .notModified(cached.merged(withNotModified: response.headers, now: received))
    }
    switch response.status {
    case 200:
      break
    case 404:
      return .missing
    case let status:
      let retryAfter = response.header("Retry-After").flatMap { Self.parseRetryAfter($0, now: received) }
      throw Failure(
        reason: .httpStatus(status, retryAfter: retryAfter), retryable: status == 429 || status == 503,
        retryAfter: retryAfter)
    }
    // A compressed body is decompressed by the transport, so its length says nothing about Content-Length.
    let encoding = response.header("Content-Encoding")?.lowercased() ?? "identity"
    let data = response.body
    if encoding == "identity", let announced = response.announcedLength, data.count != announced {
      throw Failure(reason: .truncated(bytesMissing: max(0, announced - data.count)), retryable: true)
    }
    let contentType = response.header("Content-Type")
    if content == .vector {
      guard Self.isVectorTile(data) else {
        throw Failure(reason: .notAVectorTile(contentType: contentType), retryable: false)
      }
      return .vectorTile(data, TileFreshness(responseHeaders: response.headers, now: received))
    }
    let image: RasterImage
    do {
      image = try ImageDecoder.decode(data, maximumSide: max(expectedSize, 1))
    } catch ImageCodecError.tooLarge(let width, let height, _), ImageCodecError.empty(let width, let height) {
      throw Failure(
        reason: .wrongSize(width: width, height: height, expected: expectedSize), retryable: false)
    } catch {
      throw Failure(reason: .notAnImage(contentType: contentType), retryable: false)
    }
    guard image.width == expectedSize, image.height == expectedSize else {
      throw Failure(
        reason: .wrongSize(width: image.width, height: image.height, expected: expectedSize),
        retryable: false)
    }
    return .image(data, image, TileFreshness(responseHeaders: response.headers, now: received))
  }

  /// Whether bytes are a Mapbox Vector Tile, gzip- or zlib-compressed or not: they inflate within the limit
  /// and decode, so that an error page never reaches a cache.
  static func isVectorTile(_ data: Data) -> Bool {
    guard let bytes = try? Gzip.inflateIfCompressed(data, limit: TileLimits.maximumInflatedVectorTileBytes),
      !bytes.isEmpty, (try? VectorTile(decoding: bytes)) != nil
    else { return false }
    return true
  }

  /// What a failed exchange means for the fetch; `CancellationError` when the fetch was cancelled.
  private static func failure(for error: HTTPTransportError) throws -> Failure {
    switch error {
    case .timedOut:
      return Failure(reason: .timedOut, retryable: true)
    // Not retried: a server that trickles a tile for a minute will do it again.
    case .deadlinePassed:
      return Failure(reason: .timedOut, retryable: false)
    case .tooLarge(let announced, let limit):
      return Failure(reason: .tooLarge(bytes: announced, limit: limit), retryable: false)
    case .redirectRefused(let target):
      return Failure(reason: .redirectNotFollowed(to: target), retryable: false)
    // Retrying cannot help within one fetch: the caller may skip the host's other tiles instead.
    case .unreachable(let why):
      return Failure(reason: .cannotConnect(why), retryable: false)
    case .connectionFailed(let how):
      return Failure(reason: .connectionFailed(how.description), retryable: how.isTransient)
    case .truncated(let missing):
      return Failure(reason: .truncated(bytesMissing: missing), retryable: true)
    case .cancelled:
      throw CancellationError()
    }
  }

  /// `Retry-After` as seconds from now: delta-seconds (`120`) or an HTTP date; nil when unreadable.
  public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
    let text = value.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
      return Double(text)
    }
    guard let date = TileFreshness.parseHTTPDate(text) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}
