import Foundation
import TileFetching

/// A `FetchClock` whose time moves only when told: a sleep returns at once, having moved the clock on by its
/// length and recorded it, so tests see every wait (Retry-After honoured, back-off doubling, the slices of a
/// watched wait) without waiting. Actions can be scheduled at a moment of virtual time (a Ctrl-C half a
/// second into a wait); they run when the clock passes it.
public final class VirtualClock: FetchClock, @unchecked Sendable {
  // @unchecked: every variable is touched only while `lock` is held.
  private let lock = NSLock()
  private var current: Date
  private var recordedSleeps: [Double] = []
  private var scheduled: [(time: Date, action: @Sendable () -> Void)] = []

  /// Wed, 21 Oct 2015 07:28:00 GMT: far from any real clock, so that a test cannot pass by reading one.
  public static let defaultStart = Date(timeIntervalSince1970: 1_445_412_480)

  public init(_ start: Date = VirtualClock.defaultStart) {
    current = start
  }

  public func now() -> Date {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  /// Sets the time (backwards too) without running anything scheduled.
  public func set(_ time: Date) {
    lock.lock()
    current = time
    lock.unlock()
  }

  /// Every sleep asked for so far, in seconds, oldest first (zero-length ones included).
  public var sleeps: [Double] {
    lock.lock()
    defer { lock.unlock() }
    return recordedSleeps
  }

  /// Forgets the sleeps recorded so far.
  public func clearSleeps() {
    lock.lock()
    recordedSleeps = []
    lock.unlock()
  }

  /// Records the sleep and moves the clock on by it; throws `CancellationError` when the task is cancelled,
  /// as a real sleep does. Yields once, so that other tasks run as they would while it waited.
  public func sleep(seconds: Double) async throws {
    try Task.checkCancellation()
    lock.withLock { recordedSleeps.append(seconds) }
    advance(by: seconds)
    await Task.yield()
  }

  /// Moves the clock on by `seconds` (not below 0) and runs, in time order, what was scheduled up to then.
  public func advance(by seconds: Double) {
    lock.lock()
    current = current.addingTimeInterval(max(0, seconds))
    let due = scheduled.filter { $0.time <= current }.sorted { $0.time < $1.time }
    scheduled.removeAll { $0.time <= current }
    lock.unlock()
    for item in due { item.action() }
  }

  /// Runs `action` once the clock has moved `seconds` past now.
  public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) {
    lock.lock()
    scheduled.append((current.addingTimeInterval(seconds), action))
    lock.unlock()
  }
}
