import CSQLite

/// How many virtual-machine steps one statement may take: SQLite calls the progress handler every
/// `interval` steps, and the handler interrupts the statement once the budget is spent.
///
/// `@unchecked Sendable`: `remaining` is changed only by the statements of one connection, which run one
/// at a time.
final class StepBudget: @unchecked Sendable {
  static let interval: Int32 = 1_000
  /// The steps each statement may take.
  let steps: Int
  private var remaining: Int

  init(steps: Int) {
    self.steps = steps
    remaining = steps
  }

  /// Whether the last statement was stopped for taking too long.
  var isSpent: Bool { remaining <= 0 }

  /// Starts the count for a new statement.
  func reset() { remaining = steps }

  func install(on handle: OpaquePointer) {
    sqlite3_progress_handler(
      handle, Self.interval,
      { context in
        guard let context else { return 0 }
        let budget = Unmanaged<StepBudget>.fromOpaque(context).takeUnretainedValue()
        budget.remaining -= Int(StepBudget.interval)
        return budget.remaining <= 0 ? 1 : 0
      }, Unmanaged.passUnretained(self).toOpaque())
  }
}
