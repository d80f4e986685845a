import Synchronization

/// A flag a render checks between its stages: set it from any thread, and the render stops at the next
/// stage with `RenderError.cancelled` (a stage already running finishes first).
public final class RenderCancellation: Sendable {
  private let flag = Atomic<Bool>(false)

  /// A flag not yet set.
  public init() {}

  /// Asks the render to stop at its next stage.
  public func cancel() { flag.store(true, ordering: .relaxed) }

  /// True once `cancel()` was called.
  public var isCancelled: Bool { flag.load(ordering: .relaxed) }

  /// Throws `RenderError.cancelled` once cancelled.
  func check() throws(RenderError) {
    if isCancelled { throw .cancelled }
  }
}
