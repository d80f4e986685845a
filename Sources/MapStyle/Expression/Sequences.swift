/// `index-of` and `slice` with JavaScript's index rules: indices truncate toward zero, negative ones
/// count from the end, and strings are measured in characters (Unicode scalars), as MapLibre does.
enum Sequences {
  static func position(of needle: StyleValue, in haystack: StyleValue, from start: Double?)
    throws(EvaluationError)
    -> Double
  {
    switch needle {
    case .null, .bool, .number, .string: break
    default: throw EvaluationError(.typeMismatch(expected: .value, found: needle))
    }
    switch haystack {
    case .array(let elements):
      var index = relativeIndex(start ?? 0, count: elements.count)
      while index < elements.count {
        if strictlyEqual(elements[index], needle) { return Double(index) }
        index += 1
      }
      return -1
    case .string(let text):
      // JavaScript searches UTF-16 code units for the needle's text, then MapLibre counts characters.
      let units = Array(text.utf16)
      let target = Array((needle == .null ? "null" : needle.description).utf16)
      let first = min(max(truncated(start ?? 0), 0), units.count)
      guard let found = firstIndex(of: target, in: units, from: first) else { return -1 }
      return Double(String(decoding: units[..<found], as: UTF16.self).unicodeScalars.count)
    default:
      throw EvaluationError(.typeMismatch(expected: .array(.value, count: nil), found: haystack))
    }
  }

  static func slice(_ input: StyleValue, from start: Double, to end: Double?) throws(EvaluationError)
    -> StyleValue
  {
    switch input {
    case .string(let text):
      let scalars = Array(text.unicodeScalars)
      let range = bounds(start, end, count: scalars.count)
      var result = String.UnicodeScalarView()
      result.append(contentsOf: scalars[range])
      return .string(String(result))
    case .array(let elements):
      return .array(Array(elements[bounds(start, end, count: elements.count)]))
    default:
      throw EvaluationError(.typeMismatch(expected: .array(.value, count: nil), found: input))
    }
  }

  private static func bounds(_ start: Double, _ end: Double?, count: Int) -> Range<Int> {
    let lower = relativeIndex(start, count: count)
    let upper = end.map { relativeIndex($0, count: count) } ?? count
    return lower..<max(lower, upper)
  }

  /// JavaScript's relative index: truncated, negative from the end, clamped to 0…count.
  private static func relativeIndex(_ value: Double, count: Int) -> Int {
    let index = truncated(value)
    return index < 0 ? max(count + index, 0) : min(index, count)
  }

  /// Truncates toward zero into a safe integer range; NaN is 0.
  private static func truncated(_ value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    let bound = Double(Int32.max)
    return Int(min(max(value, -bound), bound).rounded(.towardZero))
  }

  private static func firstIndex(of target: [UInt16], in units: [UInt16], from start: Int) -> Int? {
    guard target.count <= units.count - start else { return nil }
    guard !target.isEmpty else { return start }
    for index in start...(units.count - target.count)
    where units[index..<index + target.count].elementsEqual(target) {
      return index
    }
    return nil
  }
}
