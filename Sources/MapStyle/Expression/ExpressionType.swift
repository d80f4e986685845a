/// The static type of a compiled expression, as the style specification's type system has it. Used at
/// compile time to insert the checks and conversions MapLibre inserts, so evaluation errors happen in
/// the same places.
indirect enum ExpressionType: Hashable, Sendable {
  case null
  case number
  case string
  case boolean
  case color
  case object
  /// Formatted text (`format`, `text-field`): a plain string at evaluation time.
  case formatted
  /// Any value: known only when evaluated (`get`, `id`).
  case value
  /// Items of one type; `count` fixed when known.
  case array(ExpressionType, count: Int?)

  /// How the specification writes the type: `number`, `array<string>`, `array<number, 2>`.
  var name: String {
    switch self {
    case .null: return "null"
    case .number: return "number"
    case .string: return "string"
    case .boolean: return "boolean"
    case .color: return "color"
    case .object: return "object"
    case .formatted: return "formatted"
    case .value: return "value"
    case .array(let item, let count):
      if item == .value && count == nil { return "array" }
      return "array<\(item.name)\(count.map { ", \($0)" } ?? "")>"
    }
  }

  /// The type of a value as `typeof` sees it: arrays report a common item type (or `value`) and length.
  /// Arrays nested deeper than a style could write (a feature might hand in anything) count as `value`.
  static func of(_ value: StyleValue, depth: Int = 0) -> ExpressionType {
    switch value {
    case .null: return .null
    case .bool: return .boolean
    case .number: return .number
    case .string: return .string
    case .color: return .color
    case .object: return .object
    case .array(let elements):
      guard depth < 32 else { return .array(.value, count: elements.count) }
      var item: ExpressionType?
      for element in elements {
        let type = of(element, depth: depth + 1)
        if item == nil {
          item = type
        } else if item != type {
          item = .value
          break
        }
      }
      return .array(item ?? .value, count: elements.count)
    }
  }

  /// Whether a value of static type `actual` may stand where `self` is expected.
  func accepts(_ actual: ExpressionType) -> Bool {
    switch (self, actual) {
    case (.value, _): return true
    case (.array(let item, let count), .array(let actualItem, let actualCount)):
      let itemsFit = item.accepts(actualItem) || (actualCount == 0 && actualItem == .value)
      return itemsFit && (count == nil || count == actualCount)
    default: return self == actual
    }
  }

  /// Whether a runtime value has this type (what an assertion checks).
  func matches(_ value: StyleValue) -> Bool { accepts(Self.of(value)) }
}
