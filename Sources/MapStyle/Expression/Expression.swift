/// A compiled expression: a tree of typed nodes evaluated per feature without touching JSON or
/// parsing text. Filters, property values, legacy filters and legacy functions all compile to it.
indirect enum Expression: Sendable {
  case literal(StyleValue)
  /// `["get", "name"]` with a literal key: the common case, kept apart to skip evaluating the key.
  case property(String)
  /// `["get", key]` or `["get", key, object]` with a computed key or an object to read.
  case computedProperty(key: Expression, object: Expression?)
  case hasProperty(String)
  case computedHas(key: Expression, object: Expression?)
  case featureID
  case geometryType
  case zoom

  case not(Expression)
  case all([Expression])
  case any([Expression])
  /// `==` (or `!=` when `negated`): strict equality, false across types.
  case equals(Expression, Expression, negated: Bool)
  /// An ordering; both sides must turn out two numbers or two strings.
  case ordering(Ordering, Expression, Expression)
  /// `in`: an item in an array or a substring in a string.
  case contains(needle: Expression, haystack: Expression)

  case match(input: Expression, table: ValueTable, outputs: [Expression], otherwise: Expression)
  case firstTrue(conditions: [Expression], outputs: [Expression], otherwise: Expression)
  case coalesce([Expression])
  case step(input: Expression, stops: [Double], outputs: [Expression])
  case interpolate(Interpolation, input: Expression, stops: [Double], outputs: [Expression])

  /// Passes the first argument whose value has the type; a type error when none has.
  case assertType(ExpressionType, [Expression])
  case toString(Expression)
  case toBoolean(Expression)
  case toNumber([Expression])
  case toColor([Expression])
  case typeName(Expression)

  case concat([Expression])
  case upcase(Expression)
  case downcase(Expression)
  case length(Expression)
  case element(index: Expression, array: Expression)
  /// `index-of`: the position of a value in an array, or of text in a string (in characters); -1 if absent.
  case position(needle: Expression, haystack: Expression, from: Expression?)
  /// `slice`: part of an array or string, JavaScript-style indices (negative counts from the end).
  case slice(Expression, start: Expression, end: Expression?)
  case arithmetic(Arithmetic, [Expression])
  case rgba([Expression])
  case colorComponents(Expression)

  /// A legacy filter test (`["==", "class", "x"]`, `["in", "$type", …]`): never an evaluation error.
  case legacyTest(LegacyFilterTest)
  /// A legacy `{"stops": …}` function.
  case legacyFunction(LegacyFunction)

  enum Ordering: Sendable {
    case less
    case lessOrEqual
    case greater
    case greaterOrEqual
  }

  enum Arithmetic: String, Sendable, CaseIterable {
    case add = "+"
    case multiply = "*"
    case subtract = "-"
    case divide = "/"
    case remainder = "%"
    case power = "^"
    case minimum = "min"
    case maximum = "max"
    case squareRoot = "sqrt"
    case absolute = "abs"
    case floor, ceil, round
    case naturalLog = "ln"
    case log10, log2, sin, cos, tan, asin, acos, atan
    case pi, e, ln2

    /// How many arguments the operator takes: nil for any number.
    var arity: ClosedRange<Int>? {
      switch self {
      case .add, .multiply, .minimum, .maximum: return nil
      case .subtract: return 1...2
      case .divide, .remainder, .power: return 2...2
      case .pi, .e, .ln2: return 0...0
      default: return 1...1
      }
    }
  }

  /// How `interpolate` blends between two stops; `kind` is what it blends.
  struct Interpolation: Sendable {
    enum Curve: Sendable {
      case linear
      case exponential(base: Double)
      case cubicBezier(UnitBezier)
    }

    enum Kind: Sendable {
      case number
      /// Colours blend in sRGB (`interpolate`), CIE L*a*b* (`interpolate-lab`) or HCL (`interpolate-hcl`).
      case color(ColorSpace)
      case numberArray
    }

    enum ColorSpace: String, Sendable {
      case rgb, lab, hcl
    }

    var curve: Curve
    var kind: Kind
  }
}

/// What evaluation can read: the style zoom and, for data-driven values, one feature.
///
/// Not generic on purpose: generic evaluation called from another module runs unspecialized and spent
/// about half its time looking up generic type metadata. A feature type of up to three words (a class
/// reference, or a tile reference and an index) fits the existential without an allocation.
struct EvaluationContext {
  var zoom: Double
  var feature: (any StyleFeature)?
}

/// What an expression's value depends on besides its own constants.
struct Dependence: OptionSet, Hashable, Sendable {
  let rawValue: UInt8
  static let zoom = Dependence(rawValue: 1)
  static let feature = Dependence(rawValue: 2)
  /// Reads the feature's id (always with `feature`): values cannot be shared between features with
  /// equal properties.
  static let featureID = Dependence(rawValue: 4)
}
