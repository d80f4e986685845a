import JSON
import Locking

/// How one map of a batch went, printed as one JSON line:
/// `{"line": 3, "out": "2026-11.png", "exit": 0, "places": 12, "warnings": [], "seconds": 0.214}`, or with
/// `"error"` (and no `"places"`) when the map was not made. `out` is null when the line was not read far
/// enough to know it.
struct BatchReport: Sendable {
  let line: Int
  let out: String?
  var exit: Int32 = 0
  var error: String?
  var places: Int?
  var warnings: [String] = []
  var seconds = 0.0

  init(line: Int, out: String?) {
    self.line = line
    self.out = out
  }

  /// The report as one line of JSON, with its newline.
  var jsonLine: String {
    var members = [
      "\"line\": \(line)", "\"out\": " + (out.map(JSONWriter.quoted) ?? "null"), "\"exit\": \(exit)",
    ]
    if let error { members.append("\"error\": " + JSONWriter.quoted(error)) }
    if let places { members.append("\"places\": \(places)") }
    members.append("\"warnings\": [" + warnings.map(JSONWriter.quoted).joined(separator: ", ") + "]")
    // Milliseconds are plenty for a figure that changes from run to run.
    members.append("\"seconds\": " + JSONWriter.numberText((seconds * 1000).rounded() / 1000))
    return "{" + members.joined(separator: ", ") + "}\n"
  }
}

/// Hands a batch's maps to the workers in the file's order and prints each result line as soon as every
/// line before it is printed, so that the results come in input order while the maps are still being
/// made.
final class BatchQueue: Sendable {
  private struct State {
    var next = 0
    var finished: [Int: BatchReport] = [:]
    var printed = 0
    var worst: Int32 = 0
    var failedLines: [Int] = []
  }

  let count: Int
  private let state = Locked(State())

  init(count: Int) {
    self.count = count
  }

  /// The next map to make; nil when all are taken.
  func take() -> Int? {
    state.withLock { state in
      guard state.next < count else { return nil }
      defer { state.next += 1 }
      return state.next
    }
  }

  /// Records how the map at `index` went and prints the result lines now in order.
  func finish(_ index: Int, report: BatchReport) {
    state.withLock { state in
      state.finished[index] = report
      while let ready = state.finished.removeValue(forKey: state.printed) {
        Console.standardOutput(Array(ready.jsonLine.utf8))
        if ready.exit != 0 {
          state.worst = max(state.worst, ready.exit)
          state.failedLines.append(ready.line)
        }
        state.printed += 1
      }
    }
  }

  /// The highest exit code of the maps (0 when all were made) and the lines of the maps that failed.
  var outcome: (worst: Int32, failedLines: [Int]) {
    state.withLock { ($0.worst, $0.failedLines) }
  }
}
