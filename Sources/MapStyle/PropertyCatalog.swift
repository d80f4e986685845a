/// How one property's values are typed and checked, from the style specification.
struct PropertyRules: Sendable {
  var type: ExpressionType
  /// Whether zoom functions blend between stops (else the lower stop wins).
  var interpolates: Bool
  /// Whether the value may depend on feature properties.
  var dataDriven: Bool
  /// Whether plain strings resolve `{property}` tokens (`text-field`).
  var tokens = false
  /// The allowed words of an enumerated property.
  var choices: [String]?
  /// Where numbers are clamped.
  var range: ClosedRange<Double>?
}

/// Where a property lives in a layer.
enum PropertySection: Sendable {
  case layout
  case paint
}

/// A supported property: its name, where it lives, its rules and its default.
struct PropertySpec<Value: StylePropertyValue>: Sendable {
  let name: String
  let section: PropertySection
  let rules: PropertyRules
  let defaultValue: Value
}

/// The supported subset of the specification's layer properties, with its defaults.
enum PropertyCatalog {
  typealias Spec = PropertySpec

  private static func number(
    _ name: String, _ section: PropertySection, _ value: Double, dataDriven: Bool = true,
    range: ClosedRange<Double>? = nil
  ) -> Spec<Double> {
    Spec(
      name: name, section: section,
      rules: PropertyRules(type: .number, interpolates: true, dataDriven: dataDriven, range: range),
      defaultValue: value)
  }

  private static func color(_ name: String, _ value: StyleColor, dataDriven: Bool = true) -> Spec<StyleColor>
  {
    Spec(
      name: name, section: .paint,
      rules: PropertyRules(type: .color, interpolates: true, dataDriven: dataDriven),
      defaultValue: value)
  }

  private static func flag(_ name: String, _ section: PropertySection, _ value: Bool) -> Spec<Bool> {
    Spec(
      name: name, section: section,
      rules: PropertyRules(type: .boolean, interpolates: false, dataDriven: false), defaultValue: value)
  }

  private static func choice<E: StyleEnumeration>(
    _ name: String, _ value: E, extra: [String] = [], dataDriven: Bool = true
  )
    -> Spec<E>
  {
    let rules = PropertyRules(
      type: .string, interpolates: false, dataDriven: dataDriven, choices: E.allCases.map(\.rawValue) + extra)
    return Spec(name: name, section: .layout, rules: rules, defaultValue: value)
  }

  static let nonNegative: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude
  static let unit: ClosedRange<Double> = 0...1

  // background
  static let backgroundColor = color("background-color", .black, dataDriven: false)
  static let backgroundOpacity = number("background-opacity", .paint, 1, dataDriven: false, range: unit)

  // fill
  static let fillColor = color("fill-color", .black)
  static let fillOpacity = number("fill-opacity", .paint, 1, range: unit)
  static let fillOutlineColor = Spec<StyleColor?>(
    name: "fill-outline-color", section: .paint,
    rules: PropertyRules(type: .color, interpolates: true, dataDriven: true),
    defaultValue: nil)
  static let fillAntialias = flag("fill-antialias", .paint, true)

  // line
  static let lineColor = color("line-color", .black)
  static let lineOpacity = number("line-opacity", .paint, 1, range: unit)
  static let lineWidth = number("line-width", .paint, 1, range: nonNegative)
  static let lineGapWidth = number("line-gap-width", .paint, 0, range: nonNegative)
  static let lineDashArray = Spec<[Double]?>(
    name: "line-dasharray", section: .paint,
    rules: PropertyRules(type: .array(.number, count: nil), interpolates: false, dataDriven: true),
    defaultValue: nil)
  static let lineCap = choice("line-cap", LineCap.butt)
  static let lineJoin = choice("line-join", LineJoin.miter)
  static let lineMiterLimit = number("line-miter-limit", .layout, 2)
  static let lineRoundLimit = number("line-round-limit", .layout, 1.05)

  // symbol layout
  static let symbolPlacement = choice(
    "symbol-placement", SymbolPlacement.point, extra: ["line-center"], dataDriven: false)
  static let symbolSpacing = number(
    "symbol-spacing", .layout, 250, dataDriven: false, range: 1...Double.greatestFiniteMagnitude)
  static let symbolSortKey = Spec<Double?>(
    name: "symbol-sort-key", section: .layout,
    rules: PropertyRules(type: .number, interpolates: false, dataDriven: true),
    defaultValue: nil)
  static let textField = Spec<String>(
    name: "text-field", section: .layout,
    rules: PropertyRules(type: .formatted, interpolates: false, dataDriven: true, tokens: true),
    defaultValue: "")
  static let textFont = Spec<[String]>(
    name: "text-font", section: .layout,
    rules: PropertyRules(type: .array(.string, count: nil), interpolates: false, dataDriven: true),
    defaultValue: ["Open Sans Regular", "Arial Unicode MS Regular"])
  static let textSize = number("text-size", .layout, 16, range: nonNegative)
  static let textMaxWidth = number("text-max-width", .layout, 10, range: nonNegative)
  static let textLineHeight = number("text-line-height", .layout, 1.2, dataDriven: false)
  static let textLetterSpacing = number("text-letter-spacing", .layout, 0)
  static let textJustify = choice("text-justify", TextJustify.center)
  static let textAnchor = choice("text-anchor", TextAnchor.center)
  static let textMaxAngle = number("text-max-angle", .layout, 45, dataDriven: false)
  static let textPadding = number("text-padding", .layout, 2, dataDriven: false, range: nonNegative)
  static let textTransform = choice("text-transform", TextTransform.none)
  static let textOffset = Spec<[Double]>(
    name: "text-offset", section: .layout,
    rules: PropertyRules(type: .array(.number, count: 2), interpolates: true, dataDriven: true),
    defaultValue: [0, 0])
  static let textAllowOverlap = flag("text-allow-overlap", .layout, false)
  static let textIgnorePlacement = flag("text-ignore-placement", .layout, false)

  // symbol paint
  static let textColor = color("text-color", .black)
  static let textHaloColor = color("text-halo-color", .transparent)
  static let textHaloWidth = number("text-halo-width", .paint, 0, range: nonNegative)
  static let textHaloBlur = number("text-halo-blur", .paint, 0, range: nonNegative)
  static let textOpacity = number("text-opacity", .paint, 1, range: unit)

  /// Properties read without effect, because mymap draws flat, north-up maps with no tile edges and no
  /// icons: they change nothing there, so they are not reported.
  static let withoutEffect: Set<String> = [
    "text-pitch-alignment", "fill-translate-anchor", "line-translate-anchor", "text-translate-anchor",
    "symbol-avoid-edges", "text-optional", "visibility",
  ]

  /// Properties that belong to icons, sprites and patterns: one style-wide warning covers them all.
  static func isIconProperty(_ name: String) -> Bool {
    name.hasPrefix("icon-") || name.hasSuffix("-pattern")
  }
}
