import Dispatch
import Foundation
import Tiles

/// A switch that stops a running tile download from outside it (the CLI flips it on Ctrl-C): passed to
/// `TileDownload.run` it lets the requests in flight finish; `wait(for:)` cancels its task at once.
///
/// `@unchecked Sendable`: `cancelled` and `handlers` are touched only while `lock` is held.
public final class FetchCancellation: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false
  private var handlers: [@Sendable () -> Void] = []

  public init() {}

  /// Whether `cancel()` has been called.
  public var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  /// Stops whatever is registered, now and from now on. Safe to call from a signal handler's queue.
  public func cancel() {
    lock.lock()
    let pending = cancelled ? [] : handlers
    cancelled = true
    handlers = []
    lock.unlock()
    for handler in pending { handler() }
  }

  /// Runs `handler` when the switch is flipped (at once if it already was).
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    lock.lock()
    if cancelled {
      lock.unlock()
      handler()
      return
    }
    handlers.append(handler)
    lock.unlock()
  }

  /// Runs `operation` to its end while the calling thread waits (the CLI and the renderer are synchronous),
  /// with no switch to cancel it.
  public static func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T
  {
    try FetchCancellation().wait(for: operation)
  }

  /// Runs `operation` to its end while the calling thread waits (the CLI and the renderer are synchronous),
  /// cancelling its task when this switch is flipped.
  public func wait<T: Sendable>(for operation: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
      do {
        box.set(.success(try await operation()))
      } catch {
        box.set(.failure(error))
      }
      done.signal()
    }
    onCancel { task.cancel() }
    done.wait()
    return try box.get()
  }
}

/// The result handed from the task to the waiting thread; the semaphore orders the write before the read,
/// and the lock keeps the compiler's checker and TSan satisfied.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<T, any Error>?

  func set(_ value: Result<T, any Error>) {
    lock.lock()
    result = value
    lock.unlock()
  }

  func get() throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try result!.get()
  }
}
