/// A file's warnings in file order: at most `InputLimits.maximumWarnings` of them, then one line counting
/// the rest. A million places with an unknown category would otherwise be a million lines, hundreds of
/// megabytes to keep and a screenful a thousand times over to print; a line that is left out is never made.
struct FileWarnings {
  private var kept: [String] = []
  private var leftOut = 0

  /// Keeps `line` while there is room; only counts it after that.
  mutating func append(_ line: @autoclosure () -> String) {
    if kept.count < InputLimits.maximumWarnings {
      kept.append(line())
    } else {
      leftOut += 1
    }
  }

  /// A warning about the whole file, put before the others and never left out.
  mutating func prepend(_ line: String) {
    kept.insert(line, at: 0)
  }

  /// The warnings kept, and the count of the rest when there are any.
  var lines: [String] {
    leftOut > 0 ? kept + ["… and \(leftOut) more warnings"] : kept
  }
}
