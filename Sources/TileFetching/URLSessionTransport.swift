import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's URLSession (FoundationNetworking, libcurl, on Linux): no HTTP cache
/// and no cookies of its own, at most two connections per host, each body received piece by piece so that
/// one over the limit is dropped as it arrives, and a deadline of its own for bodies that trickle in.
///
/// `@unchecked Sendable`: `sessions` is touched only while `lock` is held.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
  /// A session with the delegate that hands its callbacks to each transfer.
  private struct Connection {
    let session: URLSession
    let transfers: TransferRouter
  }

  private let userAgent: String?
  /// Seconds an exchange may take in all, for a timeout.
  private let deadline: @Sendable (Double) -> Double
  private let lock = NSLock()
  /// One session per timeout, because FoundationNetworking takes its timeouts from the session's
  /// configuration; made at the first request with that timeout.
  private var sessions: [Double: Connection] = [:]

  /// `userAgent` is sent with every request that does not name its own.
  public convenience init(userAgent: String? = nil) {
    self.init(userAgent: userAgent, deadline: URLSessionTransport.deadline(forTimeout:))
  }

  /// `deadline` gives the seconds an exchange may take in all, for a timeout (tests shorten it).
  init(userAgent: String?, deadline: @escaping @Sendable (Double) -> Double) {
    self.userAgent = userAgent
    self.deadline = deadline
  }

  deinit {
    for connection in sessions.values { connection.session.finishTasksAndInvalidate() }
  }

  /// FoundationNetworking's own timeouts miss a body that trickles in a byte at a time (the transfer then
  /// never ends): a deadline as long as the session's resource timeout (4 × `timeout`) and a little more.
  static func deadline(forTimeout timeout: Double) -> Double {
    timeout * 4 + 2
  }

  public func send(_ request: HTTPRequest, limit: Int, timeout: Double) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    var urlRequest = URLRequest(url: request.url)
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await receive(urlRequest, limit: limit, timeout: timeout)
    } catch is Transfer.Expired {
      throw .deadlinePassed
    } catch let tooLarge as Transfer.TooLarge {
      throw .tooLarge(announced: tooLarge.announced, limit: tooLarge.limit)
    } catch let refused as Transfer.RedirectRefused {
      throw .redirectRefused(target: refused.target)
    } catch let error as URLError {
      if error.code == .cancelled, Task.isCancelled { throw .cancelled }
      throw Self.transportError(for: error)
    } catch {
      throw .connectionFailed(.other("\(error)", transient: false))
    }
    guard let http = response as? HTTPURLResponse else {
      throw .connectionFailed(.other("not an HTTP response", transient: false))
    }
    var headers: [String: String] = [:]
    for case (let name as String, let value as String) in http.allHeaderFields {
      headers[name] = value
    }
    let announced = http.expectedContentLength
    return HTTPResponse(
      status: http.statusCode, headers: headers, body: data,
      announcedLength: announced >= 0 ? Int(clamping: announced) : nil)
  }

  /// The session for requests with `timeout`, made the first time.
  private func connection(timeout: Double) -> Connection {
    lock.lock()
    defer { lock.unlock() }
    if let existing = sessions[timeout] { return existing }
    let configuration = FoundationFolders.leavingNoneBehind { URLSessionConfiguration.ephemeral }
    configuration.httpMaximumConnectionsPerHost = 2
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 4
    // No URLCache: the caller caches tiles. Without one, FoundationNetworking sends our own
    // If-None-Match / If-Modified-Since unchanged and hands a 304 (empty body) back to us as it is
    // (URLSessionTransportTests check this against the local tile server); `.reloadIgnoringLocalCacheData`
    // only concerns the absent local cache. It spells some header names its own way (`ETag` arrives as
    // `Etag`), so headers are looked up case-insensitively.
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    if let userAgent { configuration.httpAdditionalHeaders = ["User-Agent": userAgent] }
    let transfers = TransferRouter()
    // The delegate receives each body as it arrives (FoundationNetworking keeps none of it), so a request
    // can stop one that grows too large; the session keeps the delegate until it is invalidated.
    let session = URLSession(
      configuration: configuration, delegate: transfers, delegateQueue: TransferRouter.makeDelegateQueue())
    let made = Connection(session: session, transfers: transfers)
    sessions[timeout] = made
    return made
  }

  /// Sends `request` and collects its body, which may not be larger than `limit`: throws
  /// `Transfer.TooLarge` when it is (the transfer is stopped at once), else the task's `URLError` when it
  /// fails. Cancelling the task cancels the request.
  private func receive(_ request: URLRequest, limit: Int, timeout: Double) async throws -> (Data, URLResponse)
  {
    let connection = connection(timeout: timeout)
    let task = connection.session.dataTask(with: request)
    let transfer = Transfer(limit: limit)
    // Registered before anything can happen to the task, so that no callback of it goes astray.
    connection.transfers.add(transfer, for: task)
    let deadline = DispatchTime.now() + deadline(timeout)
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

  /// What a failed task's `URLError` means for the request.
  static func transportError(for error: URLError) -> HTTPTransportError {
    if let missing = bytesMissing(error) {
      return .truncated(bytesMissing: missing)
    }
    switch error.code {
    case .timedOut: return .timedOut
    case .networkConnectionLost: return .connectionFailed(.dropped)
    case .badServerResponse, .cannotParseResponse: return .connectionFailed(.badResponse)
    case .zeroByteResource: return .connectionFailed(.emptyResponse)
    case .unknown: return .connectionFailed(.other(describe(error), transient: true))
    case .cannotConnectToHost: return .unreachable(.cannotConnectToHost)
    case .cannotFindHost, .dnsLookupFailed: return .unreachable(.unknownHost)
    case .notConnectedToInternet: return .unreachable(.notConnectedToInternet)
    default: return .connectionFailed(.other(describe(error), transient: false))
    }
  }

  private static func describe(_ error: URLError) -> String {
    let text = error.localizedDescription
    return text.isEmpty ? "URL error \(error.code.rawValue)" : text
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
}
