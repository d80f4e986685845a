#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that threads share, reached only while holding its lock.
///
/// A POSIX mutex rather than `Synchronization.Mutex`: when that one is contended on Linux it hands the lock
/// over in the kernel (a priority-inheritance futex), which ThreadSanitizer cannot see, so every value it
/// guards is reported as racing. `pthread_mutex_lock` is what the sanitizer watches, so `swift test
/// --sanitize=thread` reports only real races. Uncontended, both cost one atomic operation.
public final class Locked<Value>: @unchecked Sendable {
  // The mutex must not move once initialised: it lives in memory of its own, not in a stored property.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock around `value`.
  public init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock; the lock is released however `body` ends.
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
