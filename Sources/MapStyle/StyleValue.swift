import JSON

/// A value that expressions compute with and that features hand in as properties.
///
/// Numbers are `Double`s, as in MapLibre: a vector tile's integer `2` and a style's `2.0` are equal.
public enum StyleValue: Hashable, Sendable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case color(StyleColor)
  case array([StyleValue])
  case object([String: StyleValue])

  /// Converts parsed JSON; objects lose their member order, which no expression depends on.
  public init(json: JSONValue) {
    switch json {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .number(let value): self = .number(value)
    case .string(let value): self = .string(value)
    case .array(let elements): self = .array(elements.map(StyleValue.init(json:)))
    case .object(let members):
      var object: [String: StyleValue] = [:]
      for member in members { object[member.name] = StyleValue(json: member.value) }
      self = .object(object)
    }
  }

  /// The text `to-string` and `concat` make of a value: `""` for null, numbers as JavaScript writes them
  /// (`3`, `1.5`, `1e-7`), colours as `rgba(r,g,b,a)`, arrays and objects as JSON.
  public var description: String {
    switch self {
    case .null: return ""
    case .bool(let value): return value ? "true" : "false"
    case .number(let value): return Self.javaScriptText(value)
    case .string(let value): return value
    case .color(let color): return color.description
    case .array, .object: return jsonText
    }
  }

  /// The type name the `typeof` expression reports: `number`, `string`, `array<number, 2>`…
  public var typeName: String { ExpressionType.of(self).name }

  private var jsonText: String {
    switch self {
    case .null: return "null"
    case .bool: return description
    case .number(let value): return value.isFinite ? description : "null"
    case .string(let value): return JSONWriter.quoted(value)
    case .color(let color): return JSONWriter.quoted(color.description)
    case .array(let elements): return "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
    case .object(let members):
      // Sorted, so the same object always prints the same way.
      let pairs = members.sorted { $0.key < $1.key }.map {
        JSONWriter.quoted($0.key) + ":" + $0.value.jsonText
      }
      return "{" + pairs.joined(separator: ",") + "}"
    }
  }

  /// JavaScript's `String(number)`: integers without a fraction, exponents below 1e-6 and from 1e21.
  static func javaScriptText(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
    let magnitude = abs(value)
    if magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e21) { return JSONWriter.numberText(value) }
    // Swift writes 1e-07 and 1e+21; JavaScript drops the exponent's leading zeros.
    let text = "\(value)"
    guard let e = text.firstIndex(of: "e") else { return text }
    let mantissa = text[..<e]
    var exponent = text[text.index(after: e)...]
    let sign = exponent.first == "-" ? "-" : "+"
    exponent = exponent.drop { $0 == "-" || $0 == "+" || $0 == "0" }
    return "\(mantissa)e\(sign)\(exponent)"
  }
}
