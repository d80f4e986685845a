import JSON

extension ExpressionCompiler {
  func compileComparison(_ name: String, _ arguments: ArraySlice<JSONValue>, depth: Int) throws(MapStyleError)
    -> Compiled
  {
    // A third argument would be a collator, which this module does not evaluate.
    if arguments.count == 3 {
      throw MapStyleError.unknownOperator(layer: layer, property: property, operator: "collator")
    }
    try requireArguments(name, arguments, 2...2)
    let isEquality = name == "==" || name == "!="
    var left = try compile(arguments[arguments.startIndex], expected: .value, depth: depth + 1)
    var right = try compile(arguments[arguments.startIndex + 1], expected: .value, depth: depth + 1)
    for side in [left, right] {
      let comparable: Bool =
        switch side.type {
        case .string, .number, .value: true
        case .boolean, .null: isEquality
        default: false
        }
      guard comparable else { throw fail("\"\(name)\" cannot compare values of type \(side.type.name)") }
    }
    if left.type != .value, right.type != .value, left.type != right.type {
      throw fail("\"\(name)\" cannot compare \(left.type.name) with \(right.type.name)")
    }
    if isEquality {
      return try node(
        .equals(left.expression, right.expression, negated: name == "!="), .boolean, [left, right])
    }
    // An ordering of a known type against an unknown one checks the unknown side's type first.
    if left.type == .value, right.type != .value {
      left = try annotate(left, expected: right.type, omit: false)
    }
    if right.type == .value, left.type != .value {
      right = try annotate(right, expected: left.type, omit: false)
    }
    let ordering: Expression.Ordering =
      switch name {
      case "<": .less
      case "<=": .lessOrEqual
      case ">": .greater
      default: .greaterOrEqual
      }
    return try node(.ordering(ordering, left.expression, right.expression), .boolean, [left, right])
  }

  func compileIn(_ arguments: ArraySlice<JSONValue>, depth: Int) throws(MapStyleError) -> Compiled {
    try requireArguments("in", arguments, 2...2)
    let needle = try compile(arguments[arguments.startIndex], expected: .value, depth: depth + 1)
    let haystack = try compile(arguments[arguments.startIndex + 1], expected: .value, depth: depth + 1)
    switch needle.type {
    case .boolean, .string, .number, .null, .value: break
    default: throw fail("\"in\" looks for a boolean, string, number or null, not \(needle.type.name)")
    }
    return try node(
      .contains(needle: needle.expression, haystack: haystack.expression), .boolean, [needle, haystack])
  }

  /// Operators that compute a value from their arguments; anything not known here is an unknown
  /// operator.
  func compileValueOperator(
    _ name: String, _ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int
  ) throws(MapStyleError) -> Compiled {
    switch name {
    case "concat":
      let parts = try compileAll(arguments, expected: .value, depth: depth)
      return try node(.concat(parts.map(\.expression)), .string, parts)
    case "format":
      return try compileFormat(arguments, depth: depth)
    case "to-string", "to-boolean", "typeof":
      try requireArguments(name, arguments, 1...1)
      let operand = try compile(arguments[arguments.startIndex], expected: .value, depth: depth + 1)
      switch name {
      case "to-string": return try node(.toString(operand.expression), .string, [operand])
      case "to-boolean": return try node(.toBoolean(operand.expression), .boolean, [operand])
      default: return try node(.typeName(operand.expression), .string, [operand])
      }
    case "to-number", "to-color":
      try requireAtLeast(name, arguments, 1)
      let candidates = try compileAll(arguments, expected: .value, depth: depth)
      let expressions = candidates.map(\.expression)
      return name == "to-number"
        ? try node(.toNumber(expressions), .number, candidates)
        : try node(.toColor(expressions), .color, candidates)
    case "string", "number", "boolean", "object":
      try requireAtLeast(name, arguments, 1)
      let type: ExpressionType =
        switch name {
        case "string": .string
        case "number": .number
        case "boolean": .boolean
        default: .object
        }
      let candidates = try compileAll(arguments, expected: .value, depth: depth)
      return try node(.assertType(type, candidates.map(\.expression)), type, candidates)
    case "array":
      return try compileArrayAssertion(arguments, depth: depth)
    case "upcase", "downcase":
      try requireArguments(name, arguments, 1...1)
      let operand = try compile(arguments[arguments.startIndex], expected: .string, depth: depth + 1)
      return try node(
        name == "upcase" ? .upcase(operand.expression) : .downcase(operand.expression), .string, [operand])
    case "length":
      try requireArguments(name, arguments, 1...1)
      let operand = try compile(arguments[arguments.startIndex], expected: nil, depth: depth + 1)
      switch operand.type {
      case .string, .array, .value: return try node(.length(operand.expression), .number, [operand])
      default: throw fail("\"length\" needs a string or an array, found \(operand.type.name)")
      }
    case "at":
      try requireArguments(name, arguments, 2...2)
      let index = try compile(arguments[arguments.startIndex], expected: .number, depth: depth + 1)
      let array = try compile(
        arguments[arguments.startIndex + 1], expected: .array(expected ?? .value, count: nil),
        depth: depth + 1)
      guard case .array(let item, _) = array.type else { throw fail("\"at\" needs an array") }
      return try node(.element(index: index.expression, array: array.expression), item, [index, array])
    case "index-of":
      try requireArguments(name, arguments, 2...3)
      let needle = try compile(arguments[arguments.startIndex], expected: .value, depth: depth + 1)
      switch needle.type {
      case .boolean, .string, .number, .null, .value: break
      default: throw fail("\"index-of\" looks for a boolean, string, number or null, not \(needle.type.name)")
      }
      let haystack = try compile(arguments[arguments.startIndex + 1], expected: .value, depth: depth + 1)
      let start =
        arguments.count == 3
        ? try compile(arguments[arguments.startIndex + 2], expected: .number, depth: depth + 1) : nil
      let expression = Expression.position(
        needle: needle.expression, haystack: haystack.expression, from: start?.expression)
      return try node(expression, .number, [needle, haystack] + (start.map { [$0] } ?? []))
    case "slice":
      try requireArguments(name, arguments, 2...3)
      let input = try compile(arguments[arguments.startIndex], expected: .value, depth: depth + 1)
      let type: ExpressionType
      switch input.type {
      case .string, .value: type = input.type
      case .array(let item, _): type = .array(item, count: nil)
      default: throw fail("\"slice\" needs a string or an array, found \(input.type.name)")
      }
      let start = try compile(arguments[arguments.startIndex + 1], expected: .number, depth: depth + 1)
      let end =
        arguments.count == 3
        ? try compile(arguments[arguments.startIndex + 2], expected: .number, depth: depth + 1) : nil
      let expression = Expression.slice(input.expression, start: start.expression, end: end?.expression)
      return try node(expression, type, [input, start] + (end.map { [$0] } ?? []))
    case "is-supported-script":
      // mymap draws text with Pango, which shapes every script.
      try requireArguments(name, arguments, 1...1)
      let script = try compile(arguments[arguments.startIndex], expected: .string, depth: depth + 1)
      return try node(.literal(.bool(true)), .boolean, [script])
    case "rgb", "rgba":
      try requireArguments(name, arguments, name == "rgb" ? 3...3 : 4...4)
      let channels = try compileAll(arguments, expected: .number, depth: depth)
      return try node(.rgba(channels.map(\.expression)), .color, channels)
    case "to-rgba":
      try requireArguments(name, arguments, 1...1)
      let color = try compile(arguments[arguments.startIndex], expected: .color, depth: depth + 1)
      return try node(.colorComponents(color.expression), .array(.number, count: 4), [color])
    default:
      guard let operation = Expression.Arithmetic(rawValue: name) else {
        throw MapStyleError.unknownOperator(layer: layer, property: property, operator: name)
      }
      if let arity = operation.arity {
        try requireArguments(name, arguments, arity)
      }
      let operands = try compileAll(arguments, expected: .number, depth: depth)
      return try node(.arithmetic(operation, operands.map(\.expression)), .number, operands)
    }
  }

  /// `["array", value]`, `["array", itemType, value]` or `["array", itemType, length, value]`.
  private func compileArrayAssertion(_ arguments: ArraySlice<JSONValue>, depth: Int) throws(MapStyleError)
    -> Compiled
  {
    try requireArguments("array", arguments, 1...3)
    var item = ExpressionType.value
    var count: Int?
    if arguments.count >= 2 {
      switch arguments[arguments.startIndex] {
      case .string("string"): item = .string
      case .string("number"): item = .number
      case .string("boolean"): item = .boolean
      default: throw fail("\"array\" item type must be \"string\", \"number\" or \"boolean\"")
      }
    }
    if arguments.count == 3 {
      switch arguments[arguments.startIndex + 1] {
      case .null: break
      case .number(let length)
      where length >= 0 && length <= Double(StyleLimits.maximumArrayLength)
        && length == length.rounded(.down):
        count = Int(length)
      default: throw fail("\"array\" length must be a non-negative whole number")
      }
    }
    let type = ExpressionType.array(item, count: count)
    let operand = try compile(arguments[arguments.endIndex - 1], expected: .value, depth: depth + 1)
    return try node(.assertType(type, [operand.expression]), type, [operand])
  }

  /// `format` keeps only the text of its sections: fonts, scales and colours per section are not drawn.
  private func compileFormat(_ arguments: ArraySlice<JSONValue>, depth: Int) throws(MapStyleError) -> Compiled
  {
    try requireAtLeast("format", arguments, 1)
    if case .object = arguments[arguments.startIndex] {
      throw fail("\"format\" must start with a text section")
    }
    var sections: [Compiled] = []
    for argument in arguments {
      if case .object = argument { continue }  // a section's options
      let section = try compile(argument, expected: .value, depth: depth + 1)
      switch section.type {
      case .string, .value, .null, .formatted: break
      default: throw fail("\"format\" sections must be text, found \(section.type.name)")
      }
      sections.append(section)
    }
    return try node(.concat(sections.map(\.expression)), .formatted, sections)
  }
}
