import JSON

/// A legacy style function, `{"stops": [[z, v], …], "base": b}`, optionally driven by a feature
/// property (`"property"`, `"type"`: exponential, interval, categorical or identity), or by zoom and
/// property at once (stops keyed `{"zoom": z, "value": v}`).
struct LegacyFunction: Sendable {
  enum Input: Sendable {
    case zoom
    case property(String)
  }

  enum Method: Sendable {
    case exponential(base: Double)
    case interval
    case categorical(ValueTable)
    /// The input itself, converted to the property's type.
    case identity(ExpressionType)
  }

  var input: Input
  var method: Method
  /// Stop inputs for exponential and interval functions.
  var stops: [Double]
  var outputs: [Expression]
  /// The function's `default`, for inputs no stop covers; nil leaves the property's default.
  var fallback: Expression?
  /// How outputs blend; nil when the property does not interpolate (the lower stop wins).
  var blend: Expression.Interpolation.Kind?

  func evaluate(_ context: EvaluationContext) throws(EvaluationError) -> StyleValue {
    let value: StyleValue
    switch input {
    case .zoom:
      value = .number(context.zoom)
    case .property(let key):
      guard let found = context.feature?.property(key) else { return try fallbackValue(context) }
      value = found
    }
    switch method {
    case .exponential, .interval:
      guard case .number(let number) = value, let index = try? StopSearch.index(of: number, in: stops) else {
        return try fallbackValue(context)
      }
      if case .exponential(let base) = method, let blend, index + 1 < stops.count, number > stops[index] {
        let t = Expression.Interpolation.Curve.exponential(base: base).fraction(
          of: number, from: stops[index], to: stops[index + 1])
        return try blend.blend(
          try outputs[index].evaluate(context), try outputs[index + 1].evaluate(context), t)
      }
      return try outputs[index].evaluate(context)
    case .categorical(let table):
      guard let index = table.index(of: value) else { return try fallbackValue(context) }
      return try outputs[index].evaluate(context)
    case .identity(let type):
      switch type {
      case .color:
        guard case .success(let color) = Coercion.color(from: value) else {
          return try fallbackValue(context)
        }
        return .color(color)
      case .formatted:
        return .string(value.description)
      default:
        return type.matches(value) ? value : try fallbackValue(context)
      }
    }
  }

  private func fallbackValue(_ context: EvaluationContext) throws(EvaluationError)
    -> StyleValue
  {
    try fallback?.evaluate(context) ?? .null
  }
}

extension ExpressionCompiler {
  /// Compiles a legacy function object for a property described by `rules`.
  func compileFunction(_ members: [JSONValue.Member], rules: PropertyRules) throws(MapStyleError) -> Compiled
  {
    let object = JSONValue.object(members)
    let propertyName: String?
    switch object["property"] {
    case nil: propertyName = nil
    case .string(let name)?: propertyName = name
    case let other?: throw fail("a function's \"property\" must be a string, found \(other.summary)")
    }
    if propertyName != nil, !rules.dataDriven {
      throw fail("this property cannot depend on feature properties")
    }
    var base = 1.0
    if let json = object["base"] {
      guard case .number(let number) = json, number >= 0 else {
        throw fail("a function's \"base\" must be a number of at least 0")
      }
      base = number
    }
    let type: String
    switch object["type"] {
    case nil: type = rules.interpolates ? "exponential" : "interval"
    case .string(let name)? where ["exponential", "interval", "categorical", "identity"].contains(name):
      type = name
    case let other?: throw fail("unknown function type \(other.summary)")
    }
    let fallback = try object["default"].map { (json) throws(MapStyleError) in
      try compileOutput(json, rules: rules)
    }
    if type == "identity" {
      guard let propertyName else { throw fail("an identity function needs a \"property\"") }
      let function = LegacyFunction(
        input: .property(propertyName), method: .identity(rules.type), stops: [], outputs: [],
        fallback: fallback?.expression, blend: nil)
      return try node(.legacyFunction(function), rules.type, fallback.map { [$0] } ?? [], adding: .feature)
    }
    guard case .array(let stopList)? = object["stops"], !stopList.isEmpty else {
      throw fail("a function needs a non-empty \"stops\" array")
    }
    try checkLength(stopList.count)
    var stops: [(input: JSONValue, output: JSONValue)] = []
    for stop in stopList {
      guard case .array(let pair) = stop, pair.count == 2 else {
        throw fail("each function stop must be [input, output]")
      }
      stops.append((pair[0], pair[1]))
    }
    var space = Expression.Interpolation.ColorSpace.rgb
    if let json = object["colorSpace"] {
      guard case .string(let name) = json, let found = Expression.Interpolation.ColorSpace(rawValue: name)
      else {
        throw fail("a function's \"colorSpace\" must be \"rgb\", \"lab\" or \"hcl\"")
      }
      space = found
    }
    let method = MethodSpec(
      type: type, base: base,
      blend: rules.interpolates ? Self.interpolationKind(of: rules.type, space: space) : nil)
    if let propertyName, case .object = stops[0].input {
      return try compileZoomAndPropertyFunction(
        stops, property: propertyName, method: method, fallback: fallback, rules: rules)
    }
    let input: LegacyFunction.Input = propertyName.map { .property($0) } ?? .zoom
    return try compileStops(stops, input: input, method: method, fallback: fallback, rules: rules)
  }

  private struct MethodSpec {
    var type: String
    var base: Double
    var blend: Expression.Interpolation.Kind?
  }

  private func compileStops(
    _ stops: [(input: JSONValue, output: JSONValue)], input: LegacyFunction.Input, method spec: MethodSpec,
    fallback: Compiled?, rules: PropertyRules
  ) throws(MapStyleError) -> Compiled {
    var outputs: [Compiled] = []
    for stop in stops { outputs.append(try compileOutput(stop.output, rules: rules)) }
    var method: LegacyFunction.Method
    var stopInputs: [Double] = []
    if spec.type == "categorical" {
      var table = ValueTable()
      for (index, stop) in stops.enumerated() {
        let key = StyleValue(json: stop.input)
        switch key {
        case .string, .number, .bool: break
        default: throw fail("categorical stop inputs must be strings, numbers or booleans")
        }
        guard table.insert(key, index: index) else {
          throw fail("categorical stop input \(key) appears twice")
        }
      }
      method = .categorical(table)
    } else {
      for stop in stops {
        guard case .number(let value) = stop.input else { throw fail("function stop inputs must be numbers") }
        if let last = stopInputs.last, value < last {
          throw fail("function stops must be in ascending order")
        }
        stopInputs.append(value)
      }
      method = spec.type == "exponential" ? .exponential(base: spec.base) : .interval
    }
    let function = LegacyFunction(
      input: input, method: method, stops: stopInputs, outputs: outputs.map(\.expression),
      fallback: fallback?.expression, blend: spec.blend)
    let own: Dependence
    if case .zoom = input { own = .zoom } else { own = .feature }
    return try node(
      .legacyFunction(function), rules.type, outputs + (fallback.map { [$0] } ?? []), adding: own)
  }

  /// Stops keyed `{"zoom": z, "value": v}`: one property function per zoom, blended across zooms.
  private func compileZoomAndPropertyFunction(
    _ stops: [(input: JSONValue, output: JSONValue)], property: String, method spec: MethodSpec,
    fallback: Compiled?,
    rules: PropertyRules
  ) throws(MapStyleError) -> Compiled {
    var zooms: [Double] = []
    var groups: [[(input: JSONValue, output: JSONValue)]] = []
    for stop in stops {
      guard case .number(let zoom)? = stop.input["zoom"], let value = stop.input["value"] else {
        throw fail("zoom-and-property stops must be keyed {\"zoom\": z, \"value\": v}")
      }
      if zoom == zooms.last {
        groups[groups.count - 1].append((value, stop.output))
      } else {
        if let last = zooms.last, zoom < last { throw fail("function stops must be in ascending zoom order") }
        zooms.append(zoom)
        groups.append([(value, stop.output)])
      }
    }
    var inner: [Compiled] = []
    for group in groups {
      inner.append(
        try compileStops(group, input: .property(property), method: spec, fallback: fallback, rules: rules))
    }
    let function = LegacyFunction(
      input: .zoom, method: .exponential(base: spec.base), stops: zooms, outputs: inner.map(\.expression),
      fallback: nil, blend: spec.blend)
    return try node(.legacyFunction(function), rules.type, inner, adding: .zoom)
  }

  /// A stop output or default: a plain value of the property's type (tokens resolved for text).
  private func compileOutput(_ json: JSONValue, rules: PropertyRules) throws(MapStyleError) -> Compiled {
    if rules.tokens, case .string(let text) = json { return try compileTokens(text) }
    return try compileConstant(json, expected: rules.type)
  }

  /// A `text-field` string with `{property}` tokens: each token becomes the property's text, or
  /// nothing when the feature lacks it. Text without tokens stays a constant.
  func compileTokens(_ text: String) throws(MapStyleError) -> Compiled {
    var parts: [Compiled] = []
    var literal = ""
    var rest = text[...]
    while let open = rest.firstIndex(of: "{") {
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
        close > afterOpen
      else {
        literal += rest[...open]
        rest = rest[afterOpen...]
        continue
      }
      literal += rest[..<open]
      if !literal.isEmpty {
        parts.append(
          Compiled(expression: .literal(.string(literal)), type: .string, dependence: [], nodes: 1))
      }
      literal = ""
      let key = String(rest[afterOpen..<close])
      parts.append(try node(.toString(.property(key)), .string, [], adding: .feature))
      rest = rest[rest.index(after: close)...]
    }
    literal += rest
    guard !parts.isEmpty else {
      return Compiled(expression: .literal(.string(text)), type: .string, dependence: [], nodes: 1)
    }
    if !literal.isEmpty {
      parts.append(Compiled(expression: .literal(.string(literal)), type: .string, dependence: [], nodes: 1))
    }
    if parts.count == 1 { return parts[0] }
    return try node(.concat(parts.map(\.expression)), .string, parts)
  }
}
