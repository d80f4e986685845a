import Foundation

/// Work run on a thread of its own while the caller does other work, then joined. A new thread, not a
/// pool's: a render may itself run on a pool thread (a batch, the library's async snapshot), and waiting
/// there for the pool could wait for it to grow (about a second a map).
final class SideThread: Sendable {
  private let done = DispatchSemaphore(value: 0)

  /// Starts `work` at once.
  init(_ work: @escaping @Sendable () -> Void) {
    let done = self.done
    Thread {
      work()
      done.signal()
    }.start()
  }

  /// Waits until the work is done. Call it once.
  func join() { done.wait() }
}
