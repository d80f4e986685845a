import Foundation

/// Why an HTTP exchange brought back no response. A status such as 503 is a response, not one of these.
public enum HTTPTransportError: Error, Sendable, Equatable {
  /// No data arrived within the timeout (another try may succeed).
  case timedOut
  /// Data kept arriving, too slowly for the exchange to end by its deadline: a server that trickles a body
  /// will do it again, so this is not worth another try.
  case deadlinePassed
  /// The body is larger than `limit` bytes: `announced` is its `Content-Length` when that said so (the
  /// request was refused on it), nil when the body was stopped while arriving.
  case tooLarge(announced: Int?, limit: Int)
  /// The server redirected to a URL that is not `http` or `https`, shown as `target` (scheme, host and path).
  case redirectRefused(target: String)
  /// Nothing at the host can be reached: the other requests to it would fail the same way.
  case unreachable(TileFetchError.Unreachable)
  /// The connection failed or broke, or the answer was not HTTP.
  case connectionFailed(ConnectionFailure)
  /// The body ended before its `Content-Length`, by this many bytes when known.
  case truncated(bytesMissing: Int?)
  /// The task that sent the request was cancelled.
  case cancelled

  /// How a connection failed.
  public enum ConnectionFailure: Sendable, Equatable, CustomStringConvertible {
    /// The connection was dropped before the response was complete.
    case dropped
    /// The server's answer could not be read as HTTP.
    case badResponse
    /// The server closed the connection without answering.
    case emptyResponse
    /// Anything else, in the words of the network library; `transient` when another try may succeed.
    case other(String, transient: Bool)

    /// Whether another try may succeed.
    public var isTransient: Bool {
      if case .other(_, let transient) = self { return transient }
      return true
    }

    /// What happened, in a few words for a message.
    public var description: String {
      switch self {
      case .dropped: return "the connection was dropped"
      case .badResponse: return "bad response from the server"
      case .emptyResponse: return "empty response"
      case .other(let text, _): return text
      }
    }
  }
}
