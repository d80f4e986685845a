import JSON

/// What a legacy filter names in its second element: a property, or `$type` / `$id`.
enum LegacyKey: Hashable, Sendable {
  case property(String)
  case geometryType
  case id

  init(_ name: String) {
    switch name {
    case "$type": self = .geometryType
    case "$id": self = .id
    default: self = .property(name)
    }
  }

  /// The feature's value for this key; nil when a property is missing. A feature without an id has a
  /// null `$id`, as in MapLibre.
  func value(in feature: (any StyleFeature)?) -> StyleValue? {
    guard let feature else { return self == .id ? .null : nil }
    switch self {
    case .property(let name): return feature.property(name)
    case .geometryType: return .string(feature.geometryType.rawValue)
    case .id: return feature.id ?? .null
    }
  }
}

/// One test of the legacy (pre-expression) filter syntax. Unlike expressions these never fail: a
/// missing property or a value of another type simply does not match.
enum LegacyFilterTest: Sendable {
  case equals(LegacyKey, StyleValue, negated: Bool)
  case ordering(Expression.Ordering, LegacyKey, StyleValue)
  case membership(LegacyKey, ValueTable, negated: Bool)
  case presence(LegacyKey, negated: Bool)

  /// The key the test reads.
  var key: LegacyKey {
    switch self {
    case .equals(let key, _, _), .ordering(_, let key, _), .membership(let key, _, _), .presence(let key, _):
      return key
    }
  }

  func holds(for feature: (any StyleFeature)?) -> Bool {
    switch self {
    case .equals(let key, let expected, let negated):
      // `["==", "x", null]` matches a present null, never a missing property.
      let equal = key.value(in: feature).map { strictlyEqual($0, expected) } ?? false
      return equal != negated
    case .ordering(let ordering, let key, let bound):
      guard let actual = key.value(in: feature) else { return false }
      return ordering.holdsLoosely(actual, bound)
    case .membership(let key, let values, let negated):
      let found = key.value(in: feature).map { values.index(of: $0) != nil } ?? false
      return found != negated
    case .presence(let key, let negated):
      let present: Bool
      switch key {
      case .geometryType: present = true
      case .id: present = (feature?.id ?? .null) != .null
      case .property: present = key.value(in: feature) != nil
      }
      return present != negated
    }
  }
}

/// Which syntax a filter is written in, decided the way MapLibre decides it: a comparison whose
/// second element is a plain string is a legacy key test; `has` with one key reads the same both ways.
/// (The specification's newest draft reads mixed `all`/`any` trees as expressions; the renderers in use
/// read them as legacy trees with expression children, which keeps such styles working.)
enum FilterSyntax {
  case expression
  case legacy
  case either

  init(of filter: JSONValue) {
    guard case .array(let elements) = filter else {
      self = filter.isBool ? .either : .legacy
      return
    }
    guard case .string(let name)? = elements.first else {
      self = elements.isEmpty ? .legacy : .expression
      return
    }
    let second = elements.count > 1 ? elements[1] : nil
    let third = elements.count > 2 ? elements[2] : nil
    switch name {
    case "has":
      if elements.count < 2 || second == .string("$id") || second == .string("$type") {
        self = .legacy
      } else {
        self = elements.count == 2 ? .either : .expression
      }
    case "in":
      let isExpression = elements.count >= 3 && (second?.isString == false || third?.isArray == true)
      self = isExpression ? .expression : .legacy
    case "!in", "!has", "none":
      self = .legacy
    case "==", "!=", "<", "<=", ">", ">=":
      let isExpression = elements.count != 3 || second?.isArray == true || third?.isArray == true
      self = isExpression ? .expression : .legacy
    case "all", "any":
      // One legacy child makes the whole tree legacy; its other children are then read one by one,
      // so a tree mixing both syntaxes works (as in MapLibre GL JS 5 and MapLibre Native).
      var sawExpression = false
      for child in elements.dropFirst() {
        switch FilterSyntax(of: child) {
        case .legacy:
          self = .legacy
          return
        case .expression: sawExpression = true
        case .either: break
        }
      }
      self = sawExpression ? .expression : .either
    default:
      self = .expression
    }
  }
}

extension JSONValue {
  fileprivate var isBool: Bool {
    if case .bool = self { return true }
    return false
  }
  fileprivate var isString: Bool {
    if case .string = self { return true }
    return false
  }
  fileprivate var isArray: Bool {
    if case .array = self { return true }
    return false
  }
}

extension ExpressionCompiler {
  /// A layer filter in either syntax, compiled to a boolean expression.
  func compileFilter(_ filter: JSONValue, depth: Int = 0) throws(MapStyleError) -> Compiled {
    guard depth <= StyleLimits.maximumExpressionDepth else {
      throw .limitExceeded(
        layer: layer, what: "filter nesting depth", limit: StyleLimits.maximumExpressionDepth)
    }
    if filter == .null {
      return Compiled(expression: .literal(.bool(true)), type: .boolean, dependence: [], nodes: 1)
    }
    guard FilterSyntax(of: filter) == .legacy else {
      return try compile(filter, expected: .boolean, depth: depth)
    }
    guard case .array(let elements) = filter else {
      throw fail("a filter must be an array or a boolean, found \(filter.summary)")
    }
    try checkLength(elements.count)
    guard let first = elements.first else { return literal(true) }
    guard case .string(let name) = first else { throw fail("a filter must start with an operator name") }
    if elements.count == 1 { return literal(name != "any") }
    let arguments = elements.dropFirst()
    switch name {
    case "all", "any", "none":
      var children: [Compiled] = []
      for child in arguments { children.append(try compileFilter(child, depth: depth + 1)) }
      let expressions = children.map(\.expression)
      let combined: Expression =
        switch name {
        case "all": .all(expressions)
        case "any": .any(expressions)
        default: .not(.any(expressions))
        }
      return try node(combined, .boolean, children)
    case "==", "!=", "<", "<=", ">", ">=":
      guard arguments.count == 2 else { throw fail("legacy filter \"\(name)\" takes a key and a value") }
      let key = try legacyKey(arguments.first, operator: name)
      let value = StyleValue(json: elements[2])
      try checkGeometryTypeTest(key, operator: name, values: [value])
      let test: LegacyFilterTest =
        switch name {
        case "==": .equals(key, value, negated: false)
        case "!=": .equals(key, value, negated: true)
        case "<": .ordering(.less, key, value)
        case "<=": .ordering(.lessOrEqual, key, value)
        case ">": .ordering(.greater, key, value)
        default: .ordering(.greaterOrEqual, key, value)
        }
      return try legacyNode(test)
    case "in", "!in":
      let key = try legacyKey(arguments.first, operator: name)
      try checkGeometryTypeTest(
        key, operator: name, values: arguments.dropFirst().map(StyleValue.init(json:)))
      // Only plain values can ever equal a feature's value.
      var values = ValueTable()
      for value in arguments.dropFirst().map(StyleValue.init(json:)) where value.isScalar {
        _ = values.insert(value, index: 0)
      }
      return try legacyNode(.membership(key, values, negated: name == "!in"))
    case "has", "!has":
      guard arguments.count == 1 else { throw fail("legacy filter \"\(name)\" takes one key") }
      return try legacyNode(
        .presence(try legacyKey(arguments.first, operator: name), negated: name == "!has"))
    default:
      throw MapStyleError.unknownOperator(layer: layer, property: property, operator: name)
    }
  }

  private func literal(_ flag: Bool) -> Compiled {
    Compiled(expression: .literal(.bool(flag)), type: .boolean, dependence: [], nodes: 1)
  }

  private func legacyKey(_ json: JSONValue?, operator name: String) throws(MapStyleError) -> LegacyKey {
    guard case .string(let key)? = json else {
      throw fail("legacy filter \"\(name)\" needs a property name first")
    }
    return LegacyKey(key)
  }

  /// `$type` compares only for (in)equality with geometry type names, as MapLibre requires.
  private func checkGeometryTypeTest(_ key: LegacyKey, operator name: String, values: [StyleValue])
    throws(MapStyleError)
  {
    guard key == .geometryType else { return }
    let isEquality = ["==", "!=", "in", "!in"].contains(name)
    guard isEquality, values.allSatisfy({ if case .string = $0 { true } else { false } }) else {
      throw fail("legacy filter on \"$type\" takes ==, !=, in or !in with geometry type names")
    }
  }

  private func legacyNode(_ test: LegacyFilterTest) throws(MapStyleError) -> Compiled {
    try node(.legacyTest(test), .boolean, [], adding: test.key == .id ? [.feature, .featureID] : .feature)
  }
}

extension Expression.Ordering {
  /// A legacy filter's ordering: JavaScript's `<` on two values of the same JavaScript type (null,
  /// boolean, number, string); false for anything else.
  func holdsLoosely(_ left: StyleValue, _ right: StyleValue) -> Bool {
    switch (left, right) {
    case (.null, .null): return self == .lessOrEqual || self == .greaterOrEqual
    case (.bool(let a), .bool(let b)): return (try? holds(.number(a ? 1 : 0), .number(b ? 1 : 0))) ?? false
    case (.number, .number), (.string, .string): return (try? holds(left, right)) ?? false
    default: return false
    }
  }
}

extension StyleValue {
  fileprivate var isScalar: Bool {
    switch self {
    case .null, .bool, .number, .string: return true
    default: return false
    }
  }
}
