/// A Swift type a style property evaluates to. `init?(styleValue:)` returns nil for a value of the
/// wrong shape, and the property then uses its default (as MapLibre does).
public protocol StylePropertyValue: Sendable {
  init?(styleValue: StyleValue)
}

extension Double: StylePropertyValue {
  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    guard case .number(let number) = styleValue, number.isFinite else { return nil }
    self = number
  }
}

extension Bool: StylePropertyValue {
  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    guard case .bool(let flag) = styleValue else { return nil }
    self = flag
  }
}

extension String: StylePropertyValue {
  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    guard case .string(let text) = styleValue else { return nil }
    self = text
  }
}

extension StyleColor: StylePropertyValue {
  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    guard case .color(let color) = styleValue else { return nil }
    self = color
  }
}

extension Array: StylePropertyValue where Element: StylePropertyValue {
  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    guard case .array(let elements) = styleValue else { return nil }
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard let converted = Element(styleValue: element) else { return nil }
      result.append(converted)
    }
    self = result
  }
}

extension Optional: StylePropertyValue where Wrapped: StylePropertyValue {
  /// A present value of the wrapped type; nil (so the default) for anything else.
  public init?(styleValue: StyleValue) {
    guard let wrapped = Wrapped(styleValue: styleValue) else { return nil }
    self = .some(wrapped)
  }
}

/// Enumerated properties read from their specification names.
public protocol StyleEnumeration: StylePropertyValue, RawRepresentable, CaseIterable
where RawValue == String {}

extension StyleEnumeration {
  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    guard case .string(let text) = styleValue, let value = Self(rawValue: text) else { return nil }
    self = value
  }
}

/// `line-cap`.
public enum LineCap: String, StyleEnumeration {
  case butt, round, square
}

/// `line-join`.
public enum LineJoin: String, StyleEnumeration {
  case bevel, round, miter
}

/// `symbol-placement`. `line-center` (one label at a line's middle) is read as `line`.
public enum SymbolPlacement: String, StyleEnumeration {
  case point, line

  /// Converts a style value of the matching kind; nil for any other.
  public init?(styleValue: StyleValue) {
    switch styleValue {
    case .string("point"): self = .point
    case .string("line"), .string("line-center"): self = .line
    default: return nil
    }
  }
}

/// `text-anchor`: which part of the label sits on the anchor point.
public enum TextAnchor: String, StyleEnumeration {
  case center, left, right, top, bottom
  case topLeft = "top-left"
  case topRight = "top-right"
  case bottomLeft = "bottom-left"
  case bottomRight = "bottom-right"
}

/// `text-justify`: alignment of the lines of a multi-line label.
public enum TextJustify: String, StyleEnumeration {
  case auto, left, center, right
}

/// `text-transform`.
public enum TextTransform: String, StyleEnumeration {
  case none, uppercase, lowercase

  /// The label text with the transform applied (Unicode case mapping, as JavaScript's).
  public func apply(to text: String) -> String {
    switch self {
    case .none: return text
    case .uppercase: return text.uppercased()
    case .lowercase: return text.lowercased()
    }
  }
}
