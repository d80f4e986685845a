import Foundation
import TileFetching

/// What `FakeTransport` does with one request: answer (after `delay` seconds of virtual time), fail, or
/// hang until the task that sent it is cancelled.
public struct FakeReply: Sendable {
  enum Outcome: Sendable {
    case response(HTTPResponse)
    case failure(HTTPTransportError)
    case hang
  }

  let outcome: Outcome
  /// Virtual seconds before the answer or the failure; for an answer, longer than the request's timeout
  /// means `.timedOut` after the timeout (the server sent nothing meanwhile).
  let delay: Double

  /// A response with `body`, announcing its length unless `announcedLength` says otherwise (`.some(nil)`:
  /// no Content-Length).
  public static func status(
    _ status: Int, headers: [String: String] = [:], body: Data = Data(), announcedLength: Int?? = .none,
    after delay: Double = 0
  ) -> FakeReply {
    let length: Int? =
      switch announcedLength {
      case .none: body.count
      case .some(let value): value
      }
    return FakeReply(
      outcome: .response(
        HTTPResponse(status: status, headers: headers, body: body, announcedLength: length)),
      delay: delay)
  }

  /// The exchange fails with `error` after `delay` virtual seconds.
  public static func failure(_ error: HTTPTransportError, after delay: Double = 0) -> FakeReply {
    FakeReply(outcome: .failure(error), delay: delay)
  }

  /// No answer until the sending task is cancelled (real time passes meanwhile), then `.cancelled`.
  public static let hang = FakeReply(outcome: .hang, delay: 0)
}

/// An `HTTPTransport` that answers from a script, in virtual time: what each request gets is `answer`'s
/// to decide (from the request, how many times its path was asked for, the body limit and the timeout),
/// delays move a `VirtualClock` instead of taking time, and every request is logged. It keeps the
/// transport's contract: a body over the limit is refused (`.tooLarge`, with the announced length when
/// there was one), a delay past the timeout is `.timedOut`, and a cancelled task gets `.cancelled`.
public final class FakeTransport: HTTPTransport, @unchecked Sendable {
  // @unchecked: the variables are touched only while `lock` is held.

  /// One request as `answer` sees it.
  public struct Exchange: Sendable {
    public let request: HTTPRequest
    /// How many requests for this path (without the query) there have been, this one included.
    public let count: Int
    /// How many requests for this very URL (query included) there have been, this one included.
    public let countForURL: Int
    public let limit: Int
    public let timeout: Double
  }

  public let clock: VirtualClock
  private let answer: @Sendable (Exchange) -> FakeReply
  private let lock = NSLock()
  private var log: [HTTPRequest] = []
  private var counts: [String: Int] = [:]
  private var urlCounts: [String: Int] = [:]
  private var inFlight = 0
  private var mostInFlight = 0

  public init(clock: VirtualClock, answer: @escaping @Sendable (Exchange) -> FakeReply) {
    self.clock = clock
    self.answer = answer
  }

  /// Answers each URL (as a string, query included) with its replies in turn, the last one again and again
  /// once they run out; a URL not in `script` gets a 404.
  public convenience init(clock: VirtualClock, script: [String: [FakeReply]]) {
    self.init(clock: clock) { exchange in
      let key = exchange.request.url.absoluteString
      guard let replies = script[key], !replies.isEmpty else { return .status(404) }
      return replies[min(exchange.countForURL - 1, replies.count - 1)]
    }
  }

  /// Every request so far, oldest first.
  public var requests: [HTTPRequest] {
    lock.lock()
    defer { lock.unlock() }
    return log
  }

  /// The most requests that were in flight at once.
  public var maximumInFlight: Int {
    lock.lock()
    defer { lock.unlock() }
    return mostInFlight
  }

  public func send(_ request: HTTPRequest, limit: Int, timeout: Double) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    let (count, countForURL) = lock.withLock {
      log.append(request)
      counts[request.url.path, default: 0] += 1
      urlCounts[request.url.absoluteString, default: 0] += 1
      inFlight += 1
      mostInFlight = max(mostInFlight, inFlight)
      return (counts[request.url.path, default: 0], urlCounts[request.url.absoluteString, default: 0])
    }
    defer { lock.withLock { inFlight -= 1 } }
    let reply = answer(
      Exchange(request: request, count: count, countForURL: countForURL, limit: limit, timeout: timeout))
    // A server that sends nothing for longer than the timeout is given up on then.
    if case .response = reply.outcome, reply.delay > timeout {
      clock.advance(by: timeout)
      await Task.yield()
      throw .timedOut
    }
    clock.advance(by: reply.delay)
    // Other requests get their turn, as they would while this one travelled.
    await Task.yield()
    if Task.isCancelled { throw .cancelled }
    switch reply.outcome {
    case .failure(let error):
      throw error
    case .hang:
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 2_000_000)
      }
      throw .cancelled
    case .response(let response):
      if let announced = response.announcedLength, announced > limit {
        throw .tooLarge(announced: announced, limit: limit)
      }
      if response.body.count > limit { throw .tooLarge(announced: nil, limit: limit) }
      return response
    }
  }
}
