/// Why an expression failed on one feature. Cheap to make: the message is built only when a constant
/// expression fails at compile time, where it becomes a `MapStyleError`.
struct EvaluationError: Error {
  enum Reason {
    case typeMismatch(expected: ExpressionType, found: StyleValue)
    case notAColor(StyleValue)
    case notANumber(StyleValue)
    case invalidRGBA([StyleValue])
    case orderedComparison(StyleValue, StyleValue)
    case indexOutOfRange(index: Double, count: Int)
    case fractionalIndex(Double)
    case mismatchedArrays(Int, Int)
  }

  var reason: Reason

  init(_ reason: Reason) { self.reason = reason }

  var message: String {
    switch reason {
    case .typeMismatch(let expected, let found):
      return "expected \(expected.name) but found \(ExpressionType.of(found).name)"
    case .notAColor(let value):
      return "\(quotedForMessage(value)) is not a colour"
    case .notANumber(let value):
      return "cannot convert \(quotedForMessage(value)) to a number"
    case .invalidRGBA(let values):
      return "invalid rgba value \(StyleValue.array(values)): r, g and b must be 0…255 and alpha 0…1"
    case .orderedComparison(let left, let right):
      return
        "ordering needs two numbers or two strings, found \(ExpressionType.of(left).name) and \(ExpressionType.of(right).name)"
    case .indexOutOfRange(let index, let count):
      return "array index \(StyleValue.javaScriptText(index)) is outside 0..<\(count)"
    case .fractionalIndex(let index):
      return "array index \(StyleValue.javaScriptText(index)) is not a whole number"
    case .mismatchedArrays(let first, let second):
      return "cannot interpolate between arrays of \(first) and \(second) numbers"
    }
  }

  private func quotedForMessage(_ value: StyleValue) -> String {
    if case .string(let text) = value { return "\"\(text)\"" }
    return value.description
  }
}
