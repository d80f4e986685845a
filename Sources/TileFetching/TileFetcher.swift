import Foundation
import ImageCodecs
import MapMath
import Tiles

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

/// Fetches single tiles from a tile server, politely: its own User-Agent, at most two connections per
/// host, a timeout, a bounded number of retries that honour `Retry-After`, no HTTP cache of its own (the
/// caller keeps tiles and their `TileFreshness`), and revalidation of a cached tile with `If-None-Match` /
/// `If-Modified-Since`. A tile is returned only when its bytes decode to an image of the expected size, so
/// garbage never reaches a cache; a body larger than `policy.maximumTileBytes` is dropped as it arrives and
/// its transfer cancelled.
public final class TileFetcher: Sendable {
  /// The `User-Agent` header sent with every request.
  public let userAgent: String
  public let policy: TileFetchPolicy
  private let session: URLSession
  /// Receives the session's callbacks and hands each to the transfer of its task.
  private let transfers: TransferRouter

  /// `version` is mymap's version; `contact` (e.g. an e-mail address) is appended to the User-Agent so
  /// that tile server operators can reach the user. Control characters are removed from both.
  public init(version: String, contact: String? = nil, policy: TileFetchPolicy = TileFetchPolicy()) {
    self.userAgent = Self.userAgent(version: version, contact: contact)
    self.policy = policy
    let configuration = FoundationFolders.leavingNoneBehind { URLSessionConfiguration.ephemeral }
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
    let transfers = TransferRouter()
    self.transfers = transfers
    // The delegate receives each body as it arrives (FoundationNetworking keeps none of it), so a fetch can
    // stop one that grows too large; the session keeps the delegate until it is invalidated.
    self.session = URLSession(
      configuration: configuration, delegate: transfers, delegateQueue: TransferRouter.makeDelegateQueue())
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
  ///
  /// Once `stopping` is flipped (Ctrl-C), no retry and no wait before one starts: the fetch throws the
  /// `TileFetchError` of its last request at once, and a wait already running ends within about 0.25 s. The
  /// request in flight, and the first request of a fetch, are made and allowed to finish.
  public func fetch(
    _ tile: TileID, from template: TileURLTemplate, expectedSize: Int, retina: Bool = false,
    revalidating cached: TileFreshness? = nil, now: @Sendable () -> Date = Date.init,
    stopping: FetchCancellation? = nil
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
        guard failure.retryable, attempt < policy.maximumAttempts, stopping?.isCancelled != true,
          let delay = policy.delay(beforeRetry: attempt, retryAfter: failure.retryAfter)
        else { throw error }
        if let stopping {
          guard try await sleep(delay, unless: stopping) else { throw error }
        } else {
          try await policy.sleep(delay)
        }
      }
    }
  }

  /// The longest single `policy.sleep` while a stop switch is watched.
  static let stopCheckInterval = 0.25

  /// Waits `seconds` through `policy.sleep`, in slices of at most `stopCheckInterval`, and returns false
  /// (at once or after the current slice) when `stopping` is flipped.
  private func sleep(_ seconds: Double, unless stopping: FetchCancellation) async throws -> Bool {
    var remaining = seconds
    repeat {
      if stopping.isCancelled { return false }
      let slice = min(remaining, Self.stopCheckInterval)
      try await policy.sleep(slice)
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
      (data, response) = try await receive(request)
    } catch is Transfer.Expired {
      // Not retried: a server that trickles a tile for a minute will do it again.
      throw Failure(reason: .timedOut, retryable: false)
    } catch let tooLarge as Transfer.TooLarge {
      throw Failure(reason: .tooLarge(bytes: tooLarge.announced, limit: tooLarge.limit), retryable: false)
    } catch let refused as Transfer.RedirectRefused {
      throw Failure(reason: .redirectNotFollowed(to: refused.target), retryable: false)
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
    return .image(data, image, TileFreshness(responseHeaders: Self.headers(of: http), now: received))
  }

  /// Sends `request` and collects its body, which may not be larger than `policy.maximumTileBytes`: throws
  /// `Transfer.TooLarge` when it is (the transfer is stopped at once), else the task's `URLError` when it
  /// fails. Cancelling the task cancels the request.
  private func receive(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let task = session.dataTask(with: request)
    let transfer = Transfer(limit: policy.maximumTileBytes)
    // Registered before anything can happen to the task, so that no callback of it goes astray.
    transfers.add(transfer, for: task)
    // FoundationNetworking's own timeouts miss a body that trickles in a byte at a time (the transfer then
    // never ends): a deadline of its own, as long as the session's resource timeout and a little more.
    let deadline = DispatchTime.now() + policy.timeout * 4 + 2
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        transfer.wait(continuation)
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: deadline) {
          if transfer.expire() { task.cancel() }
        }
      }
    } onCancel: {
      // Not here: the runtime holds the task's lock while this runs, and URLSessionTask.cancel() waits for
      // the session's queue, which may be finishing this very transfer and resuming the continuation (which
      // needs that lock): a deadlock seen under load.
      DispatchQueue.global().async { task.cancel() }
    }
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
