import Foundation

/// The time as the fetcher sees it: when a response arrived (for the freshness of what it brought), and
/// waiting before a retry. Tests put a virtual clock in its place, whose waits take no time.
public protocol FetchClock: Sendable {
  /// The current time.
  func now() -> Date
  /// Returns after `seconds` (at once for 0 or less); throws `CancellationError` when the task is cancelled.
  func sleep(seconds: Double) async throws
}

/// The system's clock: real time, and real waits.
public struct SystemClock: FetchClock {
  public init() {}

  public func now() -> Date { Date() }

  public func sleep(seconds: Double) async throws {
    guard seconds > 0 else { return }
    // At most about 31 years, which a UInt64 of nanoseconds holds.
    try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
  }
}
