import JSON

/// Reads the supported properties of one layer's `layout` and `paint`, remembering which it read so
/// the rest can be reported as ignored.
struct PropertyReader {
  let layer: String
  let layout: [JSONValue.Member]
  let paint: [JSONValue.Member]
  private var read: Set<String> = []

  init(layer: String, layout: [JSONValue.Member], paint: [JSONValue.Member]) {
    self.layer = layer
    self.layout = layout
    self.paint = paint
  }

  mutating func read<Value>(_ spec: PropertySpec<Value>) throws(MapStyleError) -> StyleProperty<Value> {
    let members = spec.section == .layout ? layout : paint
    guard let json = members.first(where: { $0.name == spec.name })?.value else {
      return StyleProperty(default: spec.defaultValue)
    }
    read.insert(spec.name)
    let compiler = ExpressionCompiler(layer: layer, property: spec.name)
    let compiled = try compiler.compileProperty(json, rules: spec.rules)
    return StyleProperty(compiled: compiled, default: spec.defaultValue, range: spec.rules.range)
  }

  /// The names set in `layout` or `paint` that were not read, in the order they appear.
  var unread: [String] {
    (layout + paint).map(\.name).filter { !read.contains($0) }
  }
}

extension ExpressionCompiler {
  /// A property value in any of its forms: a constant, a legacy function, an expression, or for text a
  /// string with `{property}` tokens.
  func compileProperty(_ json: JSONValue, rules: PropertyRules) throws(MapStyleError) -> Compiled {
    let compiled: Compiled
    switch json {
    case .object(let members):
      compiled = try compileFunction(members, rules: rules)
    case .array(let elements) where Self.isExpression(elements, for: rules.type):
      compiled = try compile(json, expected: rules.type)
    case .string(let text) where rules.tokens:
      compiled = try folded(try annotate(try compileTokens(text), expected: rules.type, omit: false))
    default:
      compiled = try compileConstant(json, expected: rules.type)
    }
    if !rules.dataDriven, compiled.dependence.contains(.feature) {
      throw fail("this property cannot depend on feature data")
    }
    if let choices = rules.choices, case .literal(.string(let word)) = compiled.expression,
      !choices.contains(word)
    {
      throw fail("\(JSONWriter.quoted(word)) is not one of \(choices.joined(separator: ", "))")
    }
    return compiled
  }

  /// Whether an array value is an expression. For array-typed properties (`text-font`, `text-offset`,
  /// `line-dasharray`) only an array that starts with an operator name is; for the rest any array is.
  static func isExpression(_ elements: [JSONValue], for type: ExpressionType) -> Bool {
    guard case .array = type else { return true }
    guard case .string(let name)? = elements.first else { return false }
    return operatorNames.contains(name)
  }

  /// Every operator the compiler knows.
  static let operatorNames: Set<String> = Set(
    [
      "literal", "get", "has", "id", "geometry-type", "zoom", "feature-state", "!", "all", "any", "==", "!=",
      "<",
      "<=", ">", ">=", "in", "match", "case", "coalesce", "step", "interpolate", "interpolate-lab",
      "interpolate-hcl", "let", "var", "concat",
      "format",
      "to-string", "to-boolean", "typeof", "to-number", "to-color", "string", "number", "boolean", "object",
      "array",
      "upcase", "downcase", "length", "at", "index-of", "slice", "is-supported-script", "rgb", "rgba",
      "to-rgba",
    ] + Expression.Arithmetic.allCases.map(\.rawValue))
}
