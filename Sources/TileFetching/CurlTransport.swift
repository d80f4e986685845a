import CCurl
import Foundation

/// `HTTPTransport` over libcurl, opened at the first request (`CurlLibrary`): no cache and no cookies, a
/// few connections kept open between requests, each body dropped as soon as it grows past the limit, a
/// deadline for bodies that trickle in, and redirects followed only to http(s) URLs.
///
/// `@unchecked Sendable`: `idle` and `library` are touched only while `lock` is held.
public final class CurlTransport: HTTPTransport, @unchecked Sendable {
  /// Redirects followed for one request before it fails.
  static let maximumRedirects = 10
  /// The largest header block of one response.
  static let maximumHeaderBytes = 256 << 10
  /// Handles (each with its open connections) kept between requests; as many as fetches run at once.
  private static let maximumIdleHandles = 4

  private let userAgent: String?
  /// Seconds an exchange may take in all, for a timeout.
  private let deadline: @Sendable (Double) -> Double
  private let libraryName: String
  private let lock = NSLock()
  private var library: CurlLibrary?
  private var idle: [UnsafeMutableRawPointer] = []

  /// `userAgent` is sent with every request that does not name its own.
  public convenience init(userAgent: String? = nil) {
    self.init(userAgent: userAgent, deadline: CurlTransport.deadline(forTimeout:))
  }

  /// `deadline` gives the seconds an exchange may take in all, for a timeout (tests shorten it);
  /// `libraryName` is the libcurl to open (tests name one that is missing).
  init(
    userAgent: String?, deadline: @escaping @Sendable (Double) -> Double,
    libraryName: String = CurlLibrary.defaultName
  ) {
    self.userAgent = userAgent
    self.deadline = deadline
    self.libraryName = libraryName
  }

  deinit {
    if let library {
      for handle in idle { ccurl_handle_free(library.api, handle) }
    }
  }

  /// A body that keeps trickling in never trips the idle timeout: a deadline of 4 × `timeout` and a
  /// little more ends it.
  static func deadline(forTimeout timeout: Double) -> Double {
    timeout * 4 + 2
  }

  public func send(_ request: HTTPRequest, limit: Int, timeout: Double) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    let library = try openLibrary()
    var url = request.url
    var headers = request.headers
    if let userAgent, request.header("User-Agent") == nil { headers["User-Agent"] = userAgent }
    for _ in 0...Self.maximumRedirects {
      let response = try await exchange(
        url, headers: headers, library: library, limit: limit, timeout: timeout)
      guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location")
      else { return response }
      guard let target = RedirectTarget.followed(location, from: url) else {
        let resolved = URL(string: location, relativeTo: url)?.absoluteURL
        throw .redirectRefused(target: RedirectTarget.shown(location, resolved: resolved))
      }
      url = target
    }
    throw .connectionFailed(.other("too many redirects", transient: false))
  }

  private func openLibrary() throws(HTTPTransportError) -> CurlLibrary {
    lock.lock()
    defer { lock.unlock() }
    if let library { return library }
    let opened = try CurlLibrary.open(libraryName)
    library = opened
    return opened
  }

  /// One GET of `url` without following redirects, run on a thread of its own (libcurl blocks while it
  /// waits, which the tasks' few shared threads must not).
  private func exchange(
    _ url: URL, headers: [String: String], library: CurlLibrary, limit: Int, timeout: Double
  ) async throws(HTTPTransportError) -> HTTPResponse {
    let exchange = CurlExchange(
      url: url.absoluteString, headers: headers, limit: limit, timeout: timeout, deadline: deadline(timeout))
    guard let handle = takeHandle(library) else {
      throw .connectionFailed(.other("libcurl could not start", transient: false))
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let thread = Thread {
          exchange.perform(library, handle.pointer)
          done.resume()
        }
        thread.stackSize = 1 << 20
        thread.start()
      }
    } onCancel: {
      exchange.cancel()
    }
    returnHandle(handle.pointer, library)
    return try exchange.response(limit: limit)
  }

  private func takeHandle(_ library: CurlLibrary) -> CurlHandle? {
    lock.lock()
    let kept = idle.popLast()
    lock.unlock()
    return (kept ?? ccurl_handle_new(library.api)).map(CurlHandle.init)
  }

  private func returnHandle(_ handle: UnsafeMutableRawPointer, _ library: CurlLibrary) {
    lock.lock()
    let keep = idle.count < Self.maximumIdleHandles
    if keep { idle.append(handle) }
    lock.unlock()
    if !keep { ccurl_handle_free(library.api, handle) }
  }
}

/// A libcurl easy handle on its way to the thread that uses it (`@unchecked Sendable`: one thread at a
/// time uses it; the pool hands it out once).
private struct CurlHandle: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer
}
