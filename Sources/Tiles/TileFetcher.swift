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
    /// The body is larger than `limit` bytes (`TileFetchPolicy.maximumTileBytes`): `bytes` is its
    /// `Content-Length` when the server announced one (the request was refused on it), nil when the body
    /// was stopped while arriving.
    case tooLarge(bytes: Int?, limit: Int)
    /// The server redirected to a URL that is not `http` or `https` (such as `file:///etc/passwd`),
    /// shown as `scheme://host/path`, without its query.
    case redirectNotFollowed(to: String)
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
    case .notAnImage, .wrongSize, .tooLarge, .redirectNotFollowed: return false
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
    case .tooLarge: return "too large"
    case .redirectNotFollowed: return "redirect not followed"
    }
  }

  public var description: String {
    let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
    return "cannot fetch tile \(tile) from \(source): \(reasonText)\(tries)"
  }

  private var reasonText: String {
    switch reason {
    case .httpStatus(let status, let retryAfter):
      if status == 401 || status == 403 {
        return "the server refused (HTTP \(status); check the URL and its API key)"
      }
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
    case .tooLarge(let bytes, let limit):
      let size =
        bytes.map { "\(Self.byteText($0)), the limit is \(Self.byteText(limit))" }
        ?? "over the \(Self.byteText(limit)) limit"
      return "the response is too large for a tile (\(size))"
    case .redirectNotFollowed(let target):
      return "the server redirected to \(target), which mymap does not follow (only http and https)"
    }
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }

  /// `812 bytes`, `4 KiB`, `1.5 MiB`, `600 MiB`: whole numbers exactly, others to one decimal.
  private static func byteText(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size {
      if bytes % size == 0 { return "\(bytes / size) \(unit)" }
      let tenths = (Double(bytes) / Double(size) * 10).rounded() / 10
      return "\(tenths) \(unit)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
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

/// One request in flight: its response and the body received so far, and how it ended.
///
/// `@unchecked Sendable`: every variable is touched only while `lock` is held.
private final class Transfer: @unchecked Sendable {
  /// The body would exceed `limit` bytes: `announced` is its Content-Length when that said so.
  struct TooLarge: Error {
    let announced: Int?
    let limit: Int
  }

  /// The transfer did not end by its deadline.
  struct Expired: Error {}

  /// The server redirected to a URL that is not http(s); `target` is how it is shown.
  struct RedirectRefused: Error {
    let target: String
  }

  typealias Received = (Data, URLResponse)

  private let lock = NSLock()
  private let limit: Int
  private var response: URLResponse?
  private var body = Data()
  private var tooLarge: TooLarge?
  /// The response ends the transfer without its body (see `receive(_:)`).
  private var answered = false
  /// The deadline passed before the transfer ended.
  private var expired = false
  /// The redirect that was not followed, if any.
  private var refusedRedirect: RedirectRefused?
  private var outcome: Result<Received, any Error>?
  private var continuation: CheckedContinuation<Received, any Error>?

  init(limit: Int) {
    self.limit = limit
  }

  /// Resumes `continuation` when the transfer ends (at once if it already has).
  func wait(_ continuation: CheckedContinuation<Received, any Error>) {
    lock.lock()
    guard let outcome else {
      self.continuation = continuation
      lock.unlock()
      return
    }
    lock.unlock()
    continuation.resume(with: outcome)
  }

  /// Takes the response; returns true when the task must be cancelled because its Content-Length is over
  /// the limit.
  func receive(_ response: URLResponse) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    self.response = response
    // FoundationNetworking never completes a task answered 401 with a WWW-Authenticate challenge (or 407),
    // whatever the delegate says to the challenge: the status is all a tile fetch needs, so the task is
    // cancelled and ends with the response.
    if let status = (response as? HTTPURLResponse)?.statusCode, status == 401 || status == 407 {
      answered = true
      return true
    }
    let announced = response.expectedContentLength
    if announced > Int64(limit) {
      tooLarge = TooLarge(announced: Int(clamping: announced), limit: limit)
      return true
    }
    if announced > 0 { body.reserveCapacity(Int(announced)) }
    return false
  }

  /// Takes a piece of the body; returns true when the task must be cancelled because the body has grown
  /// over the limit (what arrived is dropped at once).
  func receive(_ data: Data) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard tooLarge == nil, outcome == nil else { return false }
    guard body.count + data.count <= limit else {
      tooLarge = TooLarge(announced: nil, limit: limit)
      body = Data()
      return true
    }
    body.append(data)
    return false
  }

  /// The task ended, with `error` unless it succeeded.
  func complete(_ error: (any Error)?) {
    lock.lock()
    guard outcome == nil else {
      lock.unlock()
      return
    }
    let result: Result<Received, any Error>
    if let tooLarge {
      result = .failure(tooLarge)
    } else if let refusedRedirect {
      result = .failure(refusedRedirect)
    } else if answered, let response {
      result = .success((Data(), response))
    } else if expired {
      result = .failure(Expired())
    } else if let error {
      result = .failure(Self.urlError(error))
    } else if let response {
      result = .success((body, response))
    } else {
      result = .failure(URLError(.badServerResponse))
    }
    outcome = result
    body = Data()
    let waiting = continuation
    continuation = nil
    lock.unlock()
    waiting?.resume(with: result)
  }

  /// Records that the redirect to `target` was not followed: the transfer then ends with the redirect's
  /// response, which is not a tile.
  func refuseRedirect(to target: String) {
    lock.lock()
    defer { lock.unlock() }
    if refusedRedirect == nil { refusedRedirect = RedirectRefused(target: target) }
  }

  /// Marks the transfer as past its deadline; true when it has not ended (the caller then cancels it).
  func expire() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard outcome == nil else { return false }
    expired = true
    return true
  }

  /// The error as a `URLError` (FoundationNetworking reports some as plain NSErrors of its domain).
  private static func urlError(_ error: any Error) -> URLError {
    if let error = error as? URLError { return error }
    let error = error as NSError
    if error.domain == NSURLErrorDomain, let code = URLError.Code(rawValue: error.code) {
      return URLError(code, userInfo: error.userInfo)
    }
    return URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: error.localizedDescription])
  }
}

/// The session's delegate: hands each task's callbacks to its `Transfer` and cancels a task whose transfer
/// says so.
///
/// `@unchecked Sendable`: `transfers` is touched only while `lock` is held.
private final class TransferRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var transfers: [Int: Transfer] = [:]

  /// The queue the session calls the delegate on.
  ///
  /// FoundationNetworking cannot pause libcurl: it reads the body as fast as the server sends it and
  /// queues each piece for the delegate, and `cancel()` takes effect only when libcurl's queue gets to it
  /// (after a few milliseconds, or a few hundred against a fast local server). With the usual delegate
  /// queue the pieces pile up faster than the delegate sees them: fetching a 600 MB body from a local
  /// server, between one in twenty and half of the fetches read and queued all of it before the delegate
  /// even saw the limit crossed. `InlineDelegateQueue` runs each callback at once, on libcurl's own queue,
  /// so `Transfer` drops every byte past the limit as it arrives: memory stays at the limit however long
  /// the cancellation takes, and TileFetcherTests check that the server sees the connection closed early.
  static func makeDelegateQueue() -> OperationQueue? {
    #if canImport(FoundationNetworking)
      return InlineDelegateQueue()
    #else
      return nil
    #endif
  }

  func add(_ transfer: Transfer, for task: URLSessionTask) {
    lock.lock()
    transfers[task.taskIdentifier] = transfer
    lock.unlock()
  }

  private func transfer(of task: URLSessionTask, removing: Bool = false) -> Transfer? {
    lock.lock()
    defer { lock.unlock() }
    return removing ? transfers.removeValue(forKey: task.taskIdentifier) : transfers[task.taskIdentifier]
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    // FoundationNetworking ignores the disposition, so a refused response is cancelled explicitly.
    if transfer(of: dataTask)?.receive(response) == true {
      Self.cancel(dataTask)
      completionHandler(.cancel)
    } else {
      completionHandler(.allow)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    if transfer(of: dataTask)?.receive(data) == true { Self.cancel(dataTask) }
  }

  /// Cancels `task` from another thread: a callback may run on the task's own queue, which `cancel()`
  /// waits for.
  private static func cancel(_ task: URLSessionTask) {
    DispatchQueue.global().async { task.cancel() }
  }

  /// Follows a redirect only to an `http` or `https` URL, resolved from the `Location` header as RFC 9110
  /// says (FoundationNetworking keeps the old scheme and host for a URL without a host, and so turns
  /// `file:///etc/passwd` into a request for `/etc/passwd` on the tile server).
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let location = response.value(forHTTPHeaderField: "Location") ?? ""
    let target = URL(string: location, relativeTo: response.url)?.absoluteURL
    guard let target, let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
      target.host?.isEmpty == false
    else {
      transfer(of: task)?.refuseRedirect(to: RedirectTarget.shown(location, resolved: target))
      completionHandler(nil)
      return
    }
    var followed = request
    followed.url = target
    completionHandler(followed)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    transfer(of: task, removing: true)?.complete(error)
  }
}

/// How a redirect's target is shown in a message: `scheme://host/path` without user, password, query or
/// fragment (which may carry a key), control characters replaced, at most 80 characters.
enum RedirectTarget {
  static func shown(_ location: String, resolved: URL?) -> String {
    var text = location
    if let resolved, var parts = URLComponents(url: resolved, resolvingAgainstBaseURL: true) {
      (parts.user, parts.password, parts.query, parts.fragment) = (nil, nil, nil, nil)
      text = parts.string ?? location
    }
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
    if text.isEmpty { return "an empty location" }
    return inputExcerpt(text, limit: 80)
  }
}

#if canImport(FoundationNetworking)
  /// An operation queue that runs each block at once on the calling thread, so that FoundationNetworking
  /// calls the session's delegate synchronously from libcurl's callbacks (see
  /// `TransferRouter.makeDelegateQueue`). The delegate only updates a `Transfer` under its lock and never
  /// waits for the session.
  private final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
      block()
    }
  }
#endif

/// The folders FoundationNetworking makes in the user's home whenever a session configuration is made,
/// although mymap uses neither (it keeps tiles itself, and its sessions have no disk cache and no persistent
/// cookies):
///
/// - `URLSessionConfiguration.default` (which `.ephemeral` starts from) reads `HTTPCookieStorage.shared`,
///   whose first use makes `<application support>/<name of the executable's folder>` (on Linux
///   `$XDG_DATA_HOME`, else `~/.local/share`; `debug`, `release`, `bin`, …) for a cookie file it writes only
///   when a persistent cookie is set through it, and `URLCache.shared`, whose first use makes
///   `<caches>/org.swift.foundation.URLCache/<program>` (`$XDG_CACHE_HOME`, else `~/.cache`);
/// - `.ephemeral` also makes a URLCache of its own without a disk path, which makes that same folder again
///   each time.
///
/// No configuration setting can prevent this (it happens while the configuration is made, before any
/// setting can be changed), so the folders are removed again afterwards: each of them, and each parent made
/// along with it, only when it did not exist before and is still empty.
enum FoundationFolders {
  private static let lock = NSLock()

  /// Makes a session configuration with `make` and leaves no new, empty `foundationFolders()` behind.
  static func leavingNoneBehind<T>(_ make: () -> T) -> T {
    leavingNoneBehind(foundationFolders(), make)
  }

  /// Runs `make`, then removes each of `folders` and of their parents that did not exist before and is an
  /// empty folder afterwards, deepest first. Runs one at a time, so that one caller cannot take another's
  /// new folder for one that existed before.
  static func leavingNoneBehind<T>(_ folders: [String], _ make: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    let missing = Set(folders.flatMap(missingFolders))
    let result = make()
    // A folder comes before its parents: its path is longer.
    for folder in missing.sorted(by: { $0.count > $1.count }) {
      // rmdir removes only an empty folder (not a file, nor a link to a folder).
      _ = rmdir(folder)
    }
    return result
  }

  /// The folders FoundationNetworking makes, computed as it does.
  static func foundationFolders() -> [String] {
    let files = FileManager.default
    var folders: [String] = []
    if let support = files.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
      var name = Bundle.main.bundlePath.components(separatedBy: "/").last ?? ""
      if let dot = name.range(of: ".", options: .backwards) { name = String(name[..<dot.lowerBound]) }
      folders.append(URL(fileURLWithPath: name, relativeTo: support).path)
    }
    if let caches = files.urls(for: .cachesDirectory, in: .userDomainMask).first {
      let name = (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName)
        .replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "\\", with: "_")
        .replacingOccurrences(of: ":", with: "_")
      folders.append(
        caches.appendingPathComponent("org.swift.foundation.URLCache", isDirectory: true)
          .appendingPathComponent(name, isDirectory: true).path)
    }
    return folders
  }

  /// `path` and its parents, up to the first that exists, when `path` does not exist; else nothing.
  private static func missingFolders(_ path: String) -> [String] {
    var missing: [String] = []
    var folder = URL(fileURLWithPath: path).standardizedFileURL
    while folder.path != "/", !FileManager.default.fileExists(atPath: folder.path) {
      missing.append(folder.path)
      folder = folder.deletingLastPathComponent().standardizedFileURL
    }
    return missing
  }
}
