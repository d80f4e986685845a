import Foundation
import Tiles

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request in flight: its response and the body received so far, and how it ended.
///
/// `@unchecked Sendable`: every variable is touched only while `lock` is held.
final class Transfer: @unchecked Sendable {
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
final class TransferRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
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
  /// the cancellation takes, and URLSessionTransportTests check that the server sees the connection closed
  /// early.
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
  final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
      block()
    }
  }
#endif
