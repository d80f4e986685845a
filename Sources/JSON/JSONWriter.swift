/// Writes `JSONValue`s as text that is the same for the same value on every run: members in their stored
/// order, two-space indentation, numbers in their shortest exact form.
public enum JSONWriter {
  /// Pretty-printed JSON ending in a newline.
  public static func text(_ value: JSONValue) -> String {
    var output = ""
    write(value, indent: 0, into: &output)
    output += "\n"
    return output
  }

  /// The shortest text that reads back as the same `Double`, in plain decimals (`37.3349`, `-122`,
  /// `0.00001`; exponents only past 1e±21); `null` for NaN and infinities, which JSON cannot hold.
  public static func numberText(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
    let shortest = "\(value)"
    guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
      let exponent = Int(shortest[shortest.index(after: e)...]), abs(exponent) <= 21
    else { return shortest }
    // Swift writes 1e-05 and 1e+16; move the decimal point instead.
    let mantissa = shortest[..<e]
    let negative = mantissa.hasPrefix("-")
    let digits = mantissa.filter(\.isNumber)
    let pointPosition =
      (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
        ?? mantissa.count) - (negative ? 1 : 0) + exponent
    var text: String
    if pointPosition <= 0 {
      text = "0." + String(repeating: "0", count: -pointPosition) + digits
    } else if pointPosition >= digits.count {
      text = digits + String(repeating: "0", count: pointPosition - digits.count)
    } else {
      text = String(digits.prefix(pointPosition)) + "." + String(digits.dropFirst(pointPosition))
    }
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return (negative ? "-" : "") + text
  }

  /// How many characters of an input a message quotes: a 200 MB string in a file must not become a 200 MB
  /// line on stderr.
  public static let excerptLength = 80

  /// `text` quoted for a message: like `quoted`, but at most `limit` characters of it, then `…` and its
  /// size in bytes (`"aaaa…" (1000000 bytes)`).
  public static func quotedExcerpt(_ text: String, limit: Int = excerptLength) -> String {
    let head = text.prefix(limit + 1)
    guard head.count > limit else { return quoted(text) }
    return quoted(String(head.dropLast()) + "…") + " (\(text.utf8.count) bytes)"
  }

  /// A JSON string literal: quotes, backslashes and control characters escaped; everything else as is.
  public static func quoted(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }

  private static func write(_ value: JSONValue, indent: Int, into output: inout String) {
    let inner = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch value {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .number(let number): output += numberText(number)
    case .string(let text): output += quoted(text)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "[\n"
      for (offset, element) in elements.enumerated() {
        output += inner
        write(element, indent: indent + 1, into: &output)
        output += offset == elements.count - 1 ? "\n" : ",\n"
      }
      output += closing + "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{\n"
      for (offset, member) in members.enumerated() {
        output += inner + quoted(member.name) + ": "
        write(member.value, indent: indent + 1, into: &output)
        output += offset == members.count - 1 ? "\n" : ",\n"
      }
      output += closing + "}"
    }
  }
}
