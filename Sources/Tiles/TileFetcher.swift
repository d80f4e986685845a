import Foundation
import MapMath

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a tile server returned for one tile.
public enum FetchedTile: Sendable, Equatable {
  /// A new or changed tile: the encoded bytes, their decoded image (which has exactly the expected size)
  /// and how long it may be used, from the response's cache headers.
  case image(Data, RasterImage, TileFreshness)
  /// The server answered 304 to a revalidation: the cached copy is still good, with this new record.
  case notModified(TileFreshness)
  /// The server answered 404: it has no such tile.
  case missing
}

/// Why a tile could not be fetched. `description` is one line for the user; it names the source by its
/// redacted template, so it never contains an API key.
public struct TileFetchError: Error, Equatable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    /// An HTTP status other than 200 and 404, with the server's `Retry-After` in seconds, if any.
    case httpStatus(Int, retryAfter: Double?)
    /// The server sent no data within the timeout.
    case timedOut
    /// The connection failed or was dropped; the text says how.
    case connectionFailed(String)
    /// The server cannot be reached at all, so the other tiles of its host would fail the same way.
    case cannotConnect(Unreachable)
    /// The body was shorter than its `Content-Length`, by this many bytes when known.
    case truncated(bytesMissing: Int?)
    /// The body of a 200 response is not a PNG, JPEG or WebP image (e.g. an HTML error page).
    case notAnImage(contentType: String?)
    /// The image is not `expected` × `expected` pixels.
    case wrongSize(width: Int, height: Int, expected: Int)
  }

  /// Why a server cannot be reached at all.
  public enum Unreachable: Sendable, Equatable {
    /// Nothing accepts connections at the host and port (refused, or no route to it).
    case cannotConnectToHost
    /// The host name does not resolve.
    case unknownHost
    /// This machine has no network connection.
    case notConnectedToInternet
  }

  public let tile: TileID
  /// The redacted URL template.
  public let source: String
  public let reason: Reason
  /// How many requests were made.
  public let attempts: Int

  public init(tile: TileID, source: String, reason: Reason, attempts: Int) {
    self.tile = tile
    self.source = source
    self.reason = reason
    self.attempts = attempts
  }

  /// Whether a later request might succeed.
  public var isTransient: Bool {
    switch reason {
    case .httpStatus(let status, _): return status == 429 || status == 503
    case .timedOut, .connectionFailed, .cannotConnect, .truncated: return true
    case .notAnImage, .wrongSize: return false
    }
  }

  /// Whether the server cannot be reached at all (cannot connect, unknown host, no network): a caller can
  /// stop asking the same host for its other tiles.
  public var isHostUnreachable: Bool {
    if case .cannotConnect = reason { return true }
    return false
  }

  /// A short label for the kind of failure, for counting failures in a summary such as "12 of 40 tiles could
  /// not be fetched: 10 × HTTP 503, 2 × not an image".
  public var summaryKind: String {
    switch reason {
    case .httpStatus(let status, _): return "HTTP \(status)"
    case .timedOut: return "timed out"
    case .connectionFailed: return "connection failed"
    case .cannotConnect: return "cannot connect"
    case .truncated: return "cut off"
    case .notAnImage: return "not an image"
    case .wrongSize: return "wrong size"
    }
  }

  public var description: String {
    let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
    return "cannot fetch tile \(tile) from \(source): \(reasonText)\(tries)"
  }

  private var reasonText: String {
    switch reason {
    case .httpStatus(let status, let retryAfter):
      let name =
        switch status {
        case 429: "too many requests"
        case 503: "server busy"
        case 500..<600: "server error"
        default: "unexpected response"
        }
      let wait = retryAfter.map { ", retry after \(Self.seconds($0)) s" } ?? ""
      return "\(name) (HTTP \(status)\(wait))"
    case .timedOut:
      return "the server did not answer in time"
    case .connectionFailed(let how):
      return "connection failed (\(how))"
    case .cannotConnect(let why):
      let how =
        switch why {
        case .cannotConnectToHost: "cannot connect to the server"
        case .unknownHost: "unknown host"
        case .notConnectedToInternet: "not connected to the internet"
        }
      return "connection failed (\(how))"
    case .truncated(let missing):
      return "the response was cut off" + (missing.map { " (\($0) bytes missing)" } ?? "")
    case .notAnImage(let contentType):
      return "the server sent something that is not an image"
        + (contentType.map { " (Content-Type \($0))" } ?? "")
    case .wrongSize(let width, let height, let expected):
      return "the image is \(width)×\(height) pixels, expected \(expected)×\(expected)"
    }
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }
}

/// Fetches single tiles from a tile server, politely: its own User-Agent, at most two connections per
/// host, a timeout, a bounded number of retries that honour `Retry-After`, no HTTP cache of its own (the
/// caller keeps tiles and their `TileFreshness`), and revalidation of a cached tile with `If-None-Match` /
/// `If-Modified-Since`. A tile is returned only when its bytes decode to an image of the expected size, so
/// garbage never reaches a cache.
public final class TileFetcher: Sendable {
  /// The `User-Agent` header sent with every request.
  public let userAgent: String
  public let policy: TileFetchPolicy
  private let session: URLSession

  /// `version` is mymap's version; `contact` (e.g. an e-mail address) is appended to the User-Agent so
  /// that tile server operators can reach the user. Control characters are removed from both.
  public init(version: String, contact: String? = nil, policy: TileFetchPolicy = TileFetchPolicy()) {
    self.userAgent = Self.userAgent(version: version, contact: contact)
    self.policy = policy
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 2
    configuration.timeoutIntervalForRequest = policy.timeout
    configuration.timeoutIntervalForResource = policy.timeout * 4
    // No URLCache: the caller caches tiles. Without one, FoundationNetworking sends our own
    // If-None-Match / If-Modified-Since unchanged and hands a 304 (empty body) back to us as it is
    // (TileFetcherTests check this against the local tile server); `.reloadIgnoringLocalCacheData` only
    // concerns the absent local cache. It spells some header names its own way (`ETag` arrives as
    // `Etag`), so TileFreshness reads them case-insensitively.
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
    self.session = URLSession(configuration: configuration)
    Self.removeEmptyFoundationCacheFolder()
  }

  /// FoundationNetworking makes an (unused, empty) folder `org.swift.foundation.URLCache/<program>` in the
  /// user's cache folder whenever a session configuration is made, even with `urlCache = nil`; mymap
  /// keeps its tiles itself, so the empty folders are removed again rather than left in the user's home.
  private static func removeEmptyFoundationCacheFolder() {
    guard let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
      return
    }
    let parent = caches.appendingPathComponent("org.swift.foundation.URLCache")
    let files = FileManager.default
    for name in (try? files.contentsOfDirectory(atPath: parent.path)) ?? [] {
      let folder = parent.appendingPathComponent(name)
      if (try? files.contentsOfDirectory(atPath: folder.path))?.isEmpty == true { rmdir(folder.path) }
    }
    if (try? files.contentsOfDirectory(atPath: parent.path))?.isEmpty == true { rmdir(parent.path) }
  }

  deinit {
    session.finishTasksAndInvalidate()
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
  /// `expectedSize` × `expectedSize` image, `.missing` for a 404; throws `TileFetchError` for anything else
  /// (after retrying transient failures as `policy` allows) and `CancellationError` when the task is
  /// cancelled.
  ///
  /// With `cached` (the record of a stored copy) that has an ETag or Last-Modified, the request is
  /// conditional (`If-None-Match`, `If-Modified-Since`) and a 304 returns `.notModified` with the record
  /// updated from the 304's headers; a 304 to an unconditional request is an unexpected response. The
  /// records are stamped with `now()` when the response arrives.
  public func fetch(
    _ tile: TileID, from template: TileURLTemplate, expectedSize: Int, retina: Bool = false,
    revalidating cached: TileFreshness? = nil, now: @Sendable () -> Date = Date.init
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
        return try await fetchOnce(url, expectedSize: expectedSize, cached: cached, now: now)
      } catch let failure as Failure {
        let error = TileFetchError(
          tile: tile, source: template.redacted, reason: failure.reason, attempts: attempt)
        guard failure.retryable, attempt < policy.maximumAttempts,
          let delay = policy.delay(beforeRetry: attempt, retryAfter: failure.retryAfter)
        else { throw error }
        try await policy.sleep(delay)
      }
    }
  }

  /// One failed request, before it is wrapped in a `TileFetchError`.
  private struct Failure: Error {
    let reason: TileFetchError.Reason
    let retryable: Bool
    var retryAfter: Double? = nil
  }

  private func fetchOnce(_ url: URL, expectedSize: Int, cached: TileFreshness?, now: () -> Date)
    async throws -> FetchedTile
  {
    var request = URLRequest(url: url)
    request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue("image/png,image/jpeg,image/webp;q=0.9,*/*;q=0.1", forHTTPHeaderField: "Accept")
    if let etag = cached?.etag {
      request.setValue(etag, forHTTPHeaderField: "If-None-Match")
    }
    if let lastModified = cached?.lastModified {
      request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
    }
    let conditional = cached?.canRevalidate ?? false
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch let error as URLError {
      if error.code == .cancelled, Task.isCancelled { throw CancellationError() }
      throw Self.failure(for: error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw Failure(reason: .connectionFailed("not an HTTP response"), retryable: false)
    }
    let received = now()
    // A 304 answers a conditional request only; to any other request it is an unexpected status.
    if http.statusCode == 304, let cached, conditional {
      return .notModified(cached.merged(withNotModified: Self.headers(of: http), now: received))
    }
    switch http.statusCode {
    case 200:
      break
    case 404:
      return .missing
    case let status:
      let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap {
        Self.parseRetryAfter($0, now: received)
      }
      throw Failure(
        reason: .httpStatus(status, retryAfter: retryAfter), retryable: status == 429 || status == 503,
        retryAfter: retryAfter)
    }
    // A compressed body is decompressed by URLSession, so its length says nothing about Content-Length.
    let encoding = http.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
    let expectedLength = http.expectedContentLength
    if encoding == "identity", expectedLength >= 0, Int64(data.count) != expectedLength {
      throw Failure(
        reason: .truncated(bytesMissing: max(0, Int(expectedLength) - data.count)), retryable: true)
    }
    let contentType = http.value(forHTTPHeaderField: "Content-Type")
    let image: RasterImage
    do {
      image = try ImageDecoder.decode(data, maximumSide: max(expectedSize, 1))
    } catch ImageCodecError.tooLarge(let width, let height, _) {
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
    return .image(data, image, TileFreshness(responseHeaders: Self.headers(of: http), now: received))
  }

  /// The response's header fields as strings.
  private static func headers(of response: HTTPURLResponse) -> [String: String] {
    var headers: [String: String] = [:]
    for case (let name as String, let value as String) in response.allHeaderFields {
      headers[name] = value
    }
    return headers
  }

  private static func failure(for error: URLError) -> Failure {
    if let missing = bytesMissing(error) {
      return Failure(reason: .truncated(bytesMissing: missing), retryable: true)
    }
    switch error.code {
    case .timedOut:
      return Failure(reason: .timedOut, retryable: true)
    case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource, .unknown:
      return Failure(reason: .connectionFailed(describe(error)), retryable: true)
    // Retrying cannot help within one fetch: the caller may skip the host's other tiles instead.
    case .cannotConnectToHost:
      return Failure(reason: .cannotConnect(.cannotConnectToHost), retryable: false)
    case .cannotFindHost, .dnsLookupFailed:
      return Failure(reason: .cannotConnect(.unknownHost), retryable: false)
    case .notConnectedToInternet:
      return Failure(reason: .cannotConnect(.notConnectedToInternet), retryable: false)
    default:
      return Failure(reason: .connectionFailed(describe(error)), retryable: false)
    }
  }

  private static func describe(_ error: URLError) -> String {
    switch error.code {
    case .networkConnectionLost: return "the connection was dropped"
    case .badServerResponse, .cannotParseResponse: return "bad response from the server"
    case .zeroByteResource: return "empty response"
    default:
      let text = error.localizedDescription
      return text.isEmpty ? "URL error \(error.code.rawValue)" : text
    }
  }

  /// FoundationNetworking reports a body cut short of its Content-Length only through libcurl's message
  /// "transfer closed with N bytes remaining to read" (as URLError -1): read N from it.
  private static func bytesMissing(_ error: URLError) -> Int? {
    let prefix = "transfer closed with "
    let suffix = " bytes remaining to read"
    let text = error.localizedDescription
    guard let start = text.range(of: prefix),
      let end = text.range(of: suffix, range: start.upperBound..<text.endIndex)
    else { return nil }
    return Int(text[start.upperBound..<end.lowerBound])
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
