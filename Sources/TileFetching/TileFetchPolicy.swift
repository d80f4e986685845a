import Foundation
import Tiles

/// How patiently `TileFetcher` waits and retries.
///
/// A fetch makes at most `maximumAttempts` requests (never more than 3). Only transient failures are
/// retried: HTTP 429 and 503, timeouts and dropped connections. Before a retry the fetcher waits for the
/// server's `Retry-After` when it sends one, else `baseDelay` doubled per retry; a `Retry-After` longer
/// than `maximumRetryAfter` is not waited for: the fetch fails at once and the error carries the delay.
///
/// A response body larger than `maximumTileBytes` is refused (and not retried): at once when its
/// `Content-Length` says so, else as soon as that many bytes have arrived, so that a server cannot make
/// mymap read or keep a body of any size.
public struct TileFetchPolicy: Sendable {
  /// The largest number of requests one fetch may make.
  public static let attemptLimit = 3
  /// The default `maximumTileBytes`: `TileLimits.maximumTileBytes`, the largest tile mymap reads anywhere.
  public static let defaultMaximumTileBytes = TileLimits.maximumTileBytes

  /// Requests per fetch, clamped to 1…`attemptLimit`.
  public var maximumAttempts: Int {
    didSet { maximumAttempts = Self.clampAttempts(maximumAttempts) }
  }
  /// Seconds before the first retry when the server sends no `Retry-After`; doubled for each later retry.
  public var baseDelay: Double
  /// The longest `Retry-After` (seconds) the fetcher waits for.
  public var maximumRetryAfter: Double
  /// Seconds a request may wait for data before it times out: whole seconds, at least 1, because
  /// the transport looks at the clock about once a second while it waits (`CurlTransport`).
  public var timeout: Double {
    didSet { timeout = Self.wholeSeconds(timeout) }
  }
  /// The largest response body (bytes, after any decompression) a fetch accepts, at least 1.
  public var maximumTileBytes: Int {
    didSet { maximumTileBytes = max(1, maximumTileBytes) }
  }

  public init(
    maximumAttempts: Int = attemptLimit, baseDelay: Double = 1, maximumRetryAfter: Double = 30,
    timeout: Double = 15, maximumTileBytes: Int = defaultMaximumTileBytes
  ) {
    self.maximumAttempts = Self.clampAttempts(maximumAttempts)
    self.baseDelay = max(0, baseDelay)
    self.maximumRetryAfter = max(0, maximumRetryAfter)
    self.timeout = Self.wholeSeconds(timeout)
    self.maximumTileBytes = max(1, maximumTileBytes)
  }

  /// The wait before retry number `retry` (1 for the first retry), or nil when the fetch should not
  /// wait that long and fails instead.
  func delay(beforeRetry retry: Int, retryAfter: Double?) -> Double? {
    if let retryAfter {
      return retryAfter <= maximumRetryAfter ? max(0, retryAfter) : nil
    }
    return baseDelay * Double(1 << max(0, min(retry - 1, 10)))
  }

  private static func clampAttempts(_ value: Int) -> Int { min(max(value, 1), attemptLimit) }

  private static func wholeSeconds(_ value: Double) -> Double {
    value.isFinite ? max(1, value.rounded(.up)) : 15
  }
}
