import JSON

extension ExpressionCompiler {
  /// The output type branches must share: the expected type when it says something, else the first
  /// branch's type.
  private func branchType(_ expected: ExpressionType?) -> ExpressionType? {
    guard let expected, expected != .value else { return nil }
    return expected
  }

  func compileMatch(_ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int)
    throws(MapStyleError)
    -> Compiled
  {
    guard arguments.count >= 4, arguments.count % 2 == 0 else {
      throw fail("\"match\" takes an input, label/output pairs and a fallback")
    }
    let input = try compile(arguments[arguments.startIndex], expected: .value, depth: depth + 1)
    var table = ValueTable()
    var labelType: ExpressionType?
    var outputType = branchType(expected)
    var outputs: [Compiled] = []
    let pairs = arguments.dropFirst().dropLast()
    for index in stride(from: pairs.startIndex, to: pairs.endIndex, by: 2) {
      let labels: [JSONValue]
      if case .array(let list) = pairs[index] { labels = list } else { labels = [pairs[index]] }
      guard !labels.isEmpty else { throw fail("a \"match\" branch needs at least one label") }
      for label in labels {
        let (key, type) = try matchLabel(label)
        if let labelType, labelType != type {
          throw fail("\"match\" labels must all be numbers or all strings")
        }
        labelType = type
        guard table.insert(key, index: outputs.count) else {
          throw fail("\"match\" label \(key) appears twice")
        }
      }
      let output = try compile(pairs[index + 1], expected: outputType, depth: depth + 1)
      outputType = outputType ?? output.type
      outputs.append(output)
    }
    let otherwise = try compile(arguments[arguments.endIndex - 1], expected: outputType, depth: depth + 1)
    if let labelType, input.type != .value, input.type != labelType {
      throw fail("\"match\" input is \(input.type.name) but its labels are \(labelType.name)s")
    }
    let expression = Expression.match(
      input: input.expression, table: table, outputs: outputs.map(\.expression),
      otherwise: otherwise.expression)
    return try node(expression, outputType ?? otherwise.type, [input] + outputs + [otherwise])
  }

  private func matchLabel(_ label: JSONValue) throws(MapStyleError) -> (StyleValue, ExpressionType) {
    switch label {
    case .string(let text):
      return (.string(text), .string)
    case .number(let number):
      guard number == number.rounded(.towardZero), abs(number) <= 9_007_199_254_740_991 else {
        throw fail("\"match\" number labels must be integers")
      }
      return (.number(number), .number)
    default:
      throw fail("\"match\" labels must be numbers or strings, found \(label.summary)")
    }
  }

  func compileCase(_ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int)
    throws(MapStyleError)
    -> Compiled
  {
    guard arguments.count >= 3, arguments.count % 2 == 1 else {
      throw fail("\"case\" takes condition/output pairs and a fallback")
    }
    var outputType = branchType(expected)
    var conditions: [Compiled] = []
    var outputs: [Compiled] = []
    let pairs = arguments.dropLast()
    for index in stride(from: pairs.startIndex, to: pairs.endIndex, by: 2) {
      conditions.append(try compile(pairs[index], expected: .boolean, depth: depth + 1))
      let output = try compile(pairs[index + 1], expected: outputType, depth: depth + 1)
      outputType = outputType ?? output.type
      outputs.append(output)
    }
    let otherwise = try compile(arguments[arguments.endIndex - 1], expected: outputType, depth: depth + 1)
    let expression = Expression.firstTrue(
      conditions: conditions.map(\.expression), outputs: outputs.map(\.expression),
      otherwise: otherwise.expression)
    return try node(expression, outputType ?? otherwise.type, conditions + outputs + [otherwise])
  }

  func compileCoalesce(_ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int)
    throws(MapStyleError) -> Compiled
  {
    try requireAtLeast("coalesce", arguments, 1)
    var outputType = branchType(expected)
    var candidates: [Compiled] = []
    for argument in arguments {
      // No inserted checks on the arguments: a null must reach coalesce, not fail a check first.
      let candidate = try compile(argument, expected: outputType, omitAnnotation: true, depth: depth + 1)
      outputType = outputType ?? candidate.type
      candidates.append(candidate)
    }
    // When an argument needed a check, the check moves to the coalesce as a whole.
    let needsCheck = expected.map { expected in candidates.contains { !expected.accepts($0.type) } } ?? false
    let type = needsCheck ? .value : outputType ?? .value
    return try node(.coalesce(candidates.map(\.expression)), type, candidates)
  }

  /// Stop inputs: literal numbers in strictly ascending order.
  private func stopInput(_ json: JSONValue, after previous: Double?, operator name: String)
    throws(MapStyleError)
    -> Double
  {
    guard case .number(let stop) = json else {
      throw fail("\"\(name)\" stop inputs must be literal numbers, found \(json.summary)")
    }
    if let previous, stop <= previous {
      throw fail("\"\(name)\" stop inputs must be in strictly ascending order")
    }
    return stop
  }

  func compileStep(_ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int)
    throws(MapStyleError)
    -> Compiled
  {
    guard arguments.count >= 4, arguments.count % 2 == 0 else {
      throw fail("\"step\" takes an input, a first output and stop/output pairs")
    }
    let input = try compile(arguments[arguments.startIndex], expected: .number, depth: depth + 1)
    var outputType = branchType(expected)
    let first = try compile(arguments[arguments.startIndex + 1], expected: outputType, depth: depth + 1)
    outputType = outputType ?? first.type
    var stops: [Double] = [-.infinity]
    var outputs = [first]
    let pairs = arguments.dropFirst(2)
    for index in stride(from: pairs.startIndex, to: pairs.endIndex, by: 2) {
      stops.append(try stopInput(pairs[index], after: stops.last, operator: "step"))
      outputs.append(try compile(pairs[index + 1], expected: outputType, depth: depth + 1))
    }
    let expression = Expression.step(
      input: input.expression, stops: stops, outputs: outputs.map(\.expression))
    return try node(expression, outputType ?? first.type, [input] + outputs)
  }

  /// `interpolate`, or with `space` set, `interpolate-lab` / `interpolate-hcl` (colours only).
  func compileInterpolate(
    _ arguments: ArraySlice<JSONValue>, expected: ExpressionType?,
    space: Expression.Interpolation.ColorSpace? = nil,
    depth: Int
  ) throws(MapStyleError) -> Compiled {
    let name = space.map { "interpolate-\($0.rawValue)" } ?? "interpolate"
    guard arguments.count >= 4, arguments.count % 2 == 0 else {
      throw fail("\"\(name)\" takes a curve, an input and stop/output pairs")
    }
    let curve = try interpolationCurve(arguments[arguments.startIndex])
    let input = try compile(arguments[arguments.startIndex + 1], expected: .number, depth: depth + 1)
    var outputType = space == nil ? branchType(expected) : .color
    var stops: [Double] = []
    var outputs: [Compiled] = []
    let pairs = arguments.dropFirst(2)
    for index in stride(from: pairs.startIndex, to: pairs.endIndex, by: 2) {
      stops.append(try stopInput(pairs[index], after: stops.last, operator: "interpolate"))
      let output = try compile(pairs[index + 1], expected: outputType, depth: depth + 1)
      outputType = outputType ?? output.type
      outputs.append(output)
    }
    let type = outputType ?? .value
    guard let kind = Self.interpolationKind(of: type, space: space ?? .rgb) else {
      throw fail("\"\(name)\" cannot blend values of type \(type.name)")
    }
    let expression = Expression.interpolate(
      Expression.Interpolation(curve: curve, kind: kind), input: input.expression, stops: stops,
      outputs: outputs.map(\.expression))
    return try node(expression, type, [input] + outputs)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"):
      return true
    default:
      return false
    }
  }

  /// What `interpolate` can blend: numbers, colours and arrays of numbers.
  static func interpolationKind(of type: ExpressionType, space: Expression.Interpolation.ColorSpace = .rgb)
    -> Expression.Interpolation.Kind?
  {
    switch type {
    case .number: return .number
    case .color: return .color(space)
    case .array(.number, _): return .numberArray
    default: return nil
    }
  }

  private func interpolationCurve(_ json: JSONValue) throws(MapStyleError) -> Expression.Interpolation.Curve {
    guard case .array(let parts) = json, case .string(let name)? = parts.first else {
      throw fail(
        "\"interpolate\" needs a curve: [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", …]")
    }
    let numbers = parts.dropFirst().compactMap { part -> Double? in
      if case .number(let number) = part { return number }
      return nil
    }
    switch name {
    // Extra elements after "linear" and after the base are ignored, as MapLibre ignores them.
    case "linear":
      return .linear
    case "exponential" where parts.count >= 2:
      guard case .number(let base) = parts[1] else { break }
      return .exponential(base: base)
    case "cubic-bezier"
    where parts.count == 5 && numbers.count == 4 && numbers.allSatisfy({ (0...1).contains($0) }):
      return .cubicBezier(UnitBezier(numbers[0], numbers[1], numbers[2], numbers[3]))
    default:
      break
    }
    throw fail("unknown interpolation curve \(JSONWriter.quoted(name)) or wrong arguments for it")
  }

  func compileLet(_ arguments: ArraySlice<JSONValue>, expected: ExpressionType?, depth: Int)
    throws(MapStyleError)
    -> Compiled
  {
    guard arguments.count >= 3, arguments.count % 2 == 1 else {
      throw fail("\"let\" takes name/value pairs and a result")
    }
    var inner = self
    let pairs = arguments.dropLast()
    for index in stride(from: pairs.startIndex, to: pairs.endIndex, by: 2) {
      guard case .string(let name) = pairs[index], !name.isEmpty, name.utf8.allSatisfy(Self.isNameByte) else {
        throw fail("\"let\" variable names must be letters, digits and '_'")
      }
      // Bindings see only the enclosing scope, not their siblings.
      inner.scope[name] = try compile(pairs[index + 1], expected: nil, depth: depth + 1)
    }
    // Each `var` is the bound expression itself; the result carries the whole computation.
    return try inner.compile(arguments[arguments.endIndex - 1], expected: expected, depth: depth + 1)
  }
}
