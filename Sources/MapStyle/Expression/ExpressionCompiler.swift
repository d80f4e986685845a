import JSON

/// A compiled expression with what the compiler knows about it.
struct Compiled: Sendable {
  var expression: Expression
  var type: ExpressionType
  var dependence: Dependence
  /// Nodes in the tree, counting every use of a `let` variable in full: bounds evaluation work.
  var nodes: Int
}

/// Turns expression JSON into `Expression` trees, type-checking as the style specification does:
/// where a typed value is expected and a value of unknown type is given, a runtime check or conversion
/// is inserted; where the types are known to clash, compilation fails. Constant sub-expressions are
/// evaluated once here.
struct ExpressionCompiler {
  /// The layer and property (or `filter`) being compiled, for error messages.
  let layer: String
  let property: String
  /// `let` bindings visible at this point.
  var scope: [String: Compiled] = [:]

  init(layer: String, property: String) {
    self.layer = layer
    self.property = property
  }

  /// Compiles `json` as an expression whose value must fit `expected` (nil: any).
  /// `omitAnnotation` leaves out the inserted check, for `coalesce`'s arguments.
  func compile(_ json: JSONValue, expected: ExpressionType?, omitAnnotation: Bool = false, depth: Int = 0)
    throws(MapStyleError) -> Compiled
  {
    guard depth <= StyleLimits.maximumExpressionDepth else {
      throw .limitExceeded(
        layer: layer, what: "\(property) nesting depth", limit: StyleLimits.maximumExpressionDepth)
    }
    var compiled: Compiled
    switch json {
    case .array(let elements):
      guard let first = elements.first else {
        throw fail("an expression cannot be an empty array; write [\"literal\", []] for an empty array")
      }
      guard case .string(let name) = first else {
        throw fail(
          "an expression must start with an operator name; write [\"literal\", [...]] for an array value")
      }
      try checkLength(elements.count)
      compiled = try compileOperator(name, elements.dropFirst(), expected: expected, depth: depth)
    case .object:
      throw fail("an object is not an expression; write [\"literal\", {...}] for an object value")
    default:
      let value = StyleValue(json: json)
      compiled = Compiled(expression: .literal(value), type: .of(value), dependence: [], nodes: 1)
    }
    compiled = try annotate(compiled, expected: expected, omit: omitAnnotation)
    return try folded(compiled)
  }

  /// A property's plain value (not an expression): checked against the property's type like a literal.
  func compileConstant(_ json: JSONValue, expected: ExpressionType) throws(MapStyleError) -> Compiled {
    try checkSize(of: json)
    let value = StyleValue(json: json)
    var type = ExpressionType.of(value)
    if case .array(.value, 0) = type, case .array = expected { type = expected }
    let literal = Compiled(expression: .literal(value), type: type, dependence: [], nodes: 1)
    return try folded(try annotate(literal, expected: expected, omit: false))
  }

  func fail(_ message: String) -> MapStyleError {
    .invalidLayer(layer: layer, property: property, message: message)
  }

  func checkLength(_ count: Int) throws(MapStyleError) {
    guard count <= StyleLimits.maximumArrayLength else {
      throw .limitExceeded(
        layer: layer, what: "an array in \(property)", limit: StyleLimits.maximumArrayLength)
    }
  }

  /// Checks every array in a literal value against the length cap.
  func checkSize(of json: JSONValue) throws(MapStyleError) {
    switch json {
    case .array(let elements):
      try checkLength(elements.count)
      for element in elements { try checkSize(of: element) }
    case .object(let members):
      try checkLength(members.count)
      for member in members { try checkSize(of: member.value) }
    default: break
    }
  }

  /// A node over already-compiled children, enforcing the size cap.
  func node(
    _ expression: Expression, _ type: ExpressionType, _ children: [Compiled], adding own: Dependence = []
  )
    throws(MapStyleError) -> Compiled
  {
    var dependence = own
    var nodes = 1
    for child in children {
      dependence.formUnion(child.dependence)
      nodes += child.nodes
    }
    guard nodes <= StyleLimits.maximumExpressionNodes else {
      throw .limitExceeded(
        layer: layer, what: "the size of \(property)", limit: StyleLimits.maximumExpressionNodes)
    }
    return Compiled(expression: expression, type: type, dependence: dependence, nodes: nodes)
  }

  /// Inserts the check or conversion the specification inserts where `expected` meets `compiled.type`.
  func annotate(_ compiled: Compiled, expected: ExpressionType?, omit: Bool) throws(MapStyleError) -> Compiled
  {
    guard let expected else { return compiled }
    let actual = compiled.type
    switch expected {
    case .string, .number, .boolean, .object, .array:
      if actual == .value {
        return omit ? compiled : try node(.assertType(expected, [compiled.expression]), expected, [compiled])
      }
    case .color, .formatted:
      if actual == .value || actual == .string {
        guard !omit else { return compiled }
        let conversion: Expression =
          expected == .color ? .toColor([compiled.expression]) : .toString(compiled.expression)
        return try node(conversion, expected, [compiled])
      }
    default:
      break
    }
    guard expected.accepts(actual) else { throw fail("expected \(expected.name) but found \(actual.name)") }
    return compiled
  }

  /// Evaluates an expression that reads neither zoom nor feature once, now.
  func folded(_ compiled: Compiled) throws(MapStyleError) -> Compiled {
    guard compiled.dependence.isEmpty else { return compiled }
    if case .literal = compiled.expression { return compiled }
    do {
      let value = try compiled.expression.evaluate(EvaluationContext(zoom: 0, feature: nil))
      return Compiled(expression: .literal(value), type: compiled.type, dependence: [], nodes: 1)
    } catch {
      if case .notAColor(.string(let text)) = error.reason {
        throw .invalidColor(layer: layer, property: property, text: text)
      }
      throw fail(error.message)
    }
  }

  /// Compiles each argument with the same expected type.
  func compileAll(_ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int)
    throws(MapStyleError)
    -> [Compiled]
  {
    var result: [Compiled] = []
    result.reserveCapacity(arguments.count)
    for argument in arguments { result.append(try compile(argument, expected: expected, depth: depth + 1)) }
    return result
  }

  func requireArguments(_ name: String, _ arguments: ArraySlice<JSONValue>, _ range: ClosedRange<Int>)
    throws(MapStyleError)
  {
    guard range.contains(arguments.count) else {
      let count =
        range.lowerBound == range.upperBound
        ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
      throw fail("\"\(name)\" takes \(count) arguments, found \(arguments.count)")
    }
  }

  func requireAtLeast(_ name: String, _ arguments: ArraySlice<JSONValue>, _ minimum: Int)
    throws(MapStyleError)
  {
    guard arguments.count >= minimum else {
      throw fail("\"\(name)\" takes at least \(minimum) arguments, found \(arguments.count)")
    }
  }

  private func compileOperator(
    _ name: String, _ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int
  ) throws(MapStyleError) -> Compiled {
    switch name {
    case "literal":
      try requireArguments(name, arguments, 1...1)
      let json = arguments[arguments.startIndex]
      try checkSize(of: json)
      let value = StyleValue(json: json)
      var type = ExpressionType.of(value)
      if case .array(.value, 0) = type, let expected, case .array(_, let count) = expected,
        count == nil || count == 0
      {
        type = expected
      }
      return Compiled(expression: .literal(value), type: type, dependence: [], nodes: 1)
    case "get", "has":
      return try compileLookup(name, arguments, depth: depth)
    case "id":
      try requireArguments(name, arguments, 0...0)
      return try node(.featureID, .value, [], adding: [.feature, .featureID])
    case "geometry-type":
      try requireArguments(name, arguments, 0...0)
      return try node(.geometryType, .string, [], adding: .feature)
    case "zoom":
      try requireArguments(name, arguments, 0...0)
      return try node(.zoom, .number, [], adding: .zoom)
    case "feature-state":
      // A static map has no interaction state: every feature's state is empty.
      try requireArguments(name, arguments, 1...1)
      _ = try compile(arguments[arguments.startIndex], expected: .string, depth: depth + 1)
      return try node(.literal(.null), .value, [], adding: .feature)
    case "!":
      try requireArguments(name, arguments, 1...1)
      let operand = try compile(arguments[arguments.startIndex], expected: .boolean, depth: depth + 1)
      return try node(.not(operand.expression), .boolean, [operand])
    case "all", "any":
      let operands = try compileAll(arguments, expected: .boolean, depth: depth)
      let expressions = operands.map(\.expression)
      return try node(name == "all" ? .all(expressions) : .any(expressions), .boolean, operands)
    case "==", "!=", "<", "<=", ">", ">=":
      return try compileComparison(name, arguments, depth: depth)
    case "in":
      return try compileIn(arguments, depth: depth)
    case "match":
      return try compileMatch(arguments, expected: expected, depth: depth)
    case "case":
      return try compileCase(arguments, expected: expected, depth: depth)
    case "coalesce":
      return try compileCoalesce(arguments, expected: expected, depth: depth)
    case "step":
      return try compileStep(arguments, expected: expected, depth: depth)
    case "interpolate":
      return try compileInterpolate(arguments, expected: expected, depth: depth)
    case "interpolate-lab", "interpolate-hcl":
      return try compileInterpolate(
        arguments, expected: expected, space: name == "interpolate-lab" ? .lab : .hcl, depth: depth)
    case "let":
      return try compileLet(arguments, expected: expected, depth: depth)
    case "var":
      try requireArguments(name, arguments, 1...1)
      guard case .string(let variable) = arguments[arguments.startIndex], let bound = scope[variable] else {
        throw fail("\"var\" names a variable no enclosing \"let\" binds")
      }
      return bound
    default:
      return try compileValueOperator(name, arguments, expected: expected, depth: depth)
    }
  }

  private func compileLookup(_ name: String, _ arguments: ArraySlice<JSONValue>, depth: Int)
    throws(MapStyleError)
    -> Compiled
  {
    try requireArguments(name, arguments, 1...2)
    let key = try compile(arguments[arguments.startIndex], expected: .string, depth: depth + 1)
    let object =
      arguments.count == 2
      ? try compile(arguments[arguments.startIndex + 1], expected: .object, depth: depth + 1) : nil
    let type: ExpressionType = name == "get" ? .value : .boolean
    if object == nil, case .literal(.string(let literalKey)) = key.expression {
      return try node(
        name == "get" ? .property(literalKey) : .hasProperty(literalKey), type, [], adding: .feature)
    }
    let expression: Expression =
      name == "get"
      ? .computedProperty(key: key.expression, object: object?.expression)
      : .computedHas(key: key.expression, object: object?.expression)
    return try node(
      expression, type, [key] + (object.map { [$0] } ?? []), adding: object == nil ? .feature : [])
  }
}
