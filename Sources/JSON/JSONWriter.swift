/// Writes `JSONValue`s as text that is the same for the same value on every run: members in their stored
/// order, two-space indentation, numbers in their shortest exact form.
public enum JSONWriter {
  /// Pretty-printed JSON ending in a newline.
  public static func text(_ value: JSONValue) -> String {
    var output: [UInt8] = []
    write(value, indent: 0, into: &output)
    output.append(UInt8(ascii: "\n"))
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `value` as UTF-8, pretty-printed as if nested `indent` levels deep (its first line not
  /// indented, its closing bracket at `indent` levels), without a newline after it. Bytes, not `String`:
  /// a million places are listed by appending to one buffer.
  public static func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
    switch value {
    case .null: append("null", to: &output)
    case .bool(let flag): append(flag ? "true" : "false", to: &output)
    case .number(let number): append(numberText(number), to: &output)
    case .string(let text): appendQuoted(text, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else { return append("[]", to: &output) }
      output.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "\n"))
        appendIndent(indent + 1, to: &output)
        write(element, indent: indent + 1, into: &output)
      }
      output.append(UInt8(ascii: "\n"))
      appendIndent(indent, to: &output)
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else { return append("{}", to: &output) }
      output.append(UInt8(ascii: "{"))
      for (offset, member) in members.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "\n"))
        appendIndent(indent + 1, to: &output)
        appendQuoted(member.name, to: &output)
        output.append(UInt8(ascii: ":"))
        output.append(UInt8(ascii: " "))
        write(member.value, indent: indent + 1, into: &output)
      }
      output.append(UInt8(ascii: "\n"))
      appendIndent(indent, to: &output)
      output.append(UInt8(ascii: "}"))
    }
  }

  /// The shortest text that reads back as the same `Double`, in plain decimals (`37.3349`, `-122`,
  /// `0.00001`; exponents only past 1e±21); `null` for NaN and infinities, which JSON cannot hold.
  public static func numberText(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
    let shortest = value.description
    // Most numbers (coordinates) have no exponent: look for one in the bytes, not the Characters.
    guard shortest.utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
      let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
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
    var output: [UInt8] = []
    appendQuoted(text, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `text` as a JSON string literal: runs of bytes that need no escape are copied whole (in UTF-8
  /// every byte of a character past ASCII is 0x80 or more, so only ASCII bytes are ever escaped).
  public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { bytes in
      var runStart = 0
      for index in 0..<bytes.count {
        let byte = bytes[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        runStart = index + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
          let digits = Array("0123456789abcdef".utf8)
          output.append(contentsOf: [
            UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)],
            digits[Int(byte & 15)],
          ])
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func append(_ text: String, to output: inout [UInt8]) {
    output.append(contentsOf: text.utf8)
  }

  private static func appendIndent(_ levels: Int, to output: inout [UInt8]) {
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * levels))
  }
}
