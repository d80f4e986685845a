extension Expression {
  /// The value for one feature (or for no feature, when the expression does not read one) at a style
  /// zoom. Errors follow the specification; callers turn them into a property's default or a filter's
  /// `false`.
  func evaluate(_ context: EvaluationContext) throws(EvaluationError) -> StyleValue {
    switch self {
    case .literal(let value):
      return value
    case .property(let key):
      return context.feature?.property(key) ?? .null
    case .computedProperty(let key, let object):
      let name = try key.evaluateString(context)
      if let object { return try object.evaluateObject(context)[name] ?? .null }
      return context.feature?.property(name) ?? .null
    case .hasProperty(let key):
      return .bool(context.feature?.property(key) != nil)
    case .computedHas(let key, let object):
      let name = try key.evaluateString(context)
      if let object { return .bool(try object.evaluateObject(context)[name] != nil) }
      return .bool(context.feature?.property(name) != nil)
    case .featureID:
      return context.feature?.id ?? .null
    case .geometryType:
      guard let feature = context.feature else { return .null }
      return .string(feature.geometryType.rawValue)
    case .zoom:
      return .number(context.zoom)
    case .not(let operand):
      return .bool(!(try operand.evaluateBool(context)))
    case .all(let operands):
      for operand in operands {
        if !(try operand.evaluateBool(context)) { return .bool(false) }
      }
      return .bool(true)
    case .any(let operands):
      for operand in operands {
        if try operand.evaluateBool(context) { return .bool(true) }
      }
      return .bool(false)
    case .equals(let left, let right, let negated):
      return .bool(strictlyEqual(try left.evaluate(context), try right.evaluate(context)) != negated)
    case .ordering(let ordering, let left, let right):
      return .bool(try ordering.holds(try left.evaluate(context), try right.evaluate(context)))
    case .contains(let needle, let haystack):
      return .bool(try membership(of: try needle.evaluate(context), in: try haystack.evaluate(context)))
    case .match(let input, let table, let outputs, let otherwise):
      guard let index = table.index(of: try input.evaluate(context)) else {
        return try otherwise.evaluate(context)
      }
      return try outputs[index].evaluate(context)
    case .firstTrue(let conditions, let outputs, let otherwise):
      for (index, condition) in conditions.enumerated() {
        if try condition.evaluateBool(context) { return try outputs[index].evaluate(context) }
      }
      return try otherwise.evaluate(context)
    case .coalesce(let candidates):
      for candidate in candidates {
        let value = try candidate.evaluate(context)
        if value != .null { return value }
      }
      return .null
    case .step(let input, let stops, let outputs):
      let index = try StopSearch.index(of: try input.evaluateNumber(context), in: stops)
      return try outputs[index].evaluate(context)
    case .interpolate(let interpolation, let input, let stops, let outputs):
      return try interpolation.evaluate(input: try input.evaluateNumber(context), stops: stops) {
        (index) throws(EvaluationError) in try outputs[index].evaluate(context)
      }
    case .assertType(let type, let candidates):
      var last = StyleValue.null
      for candidate in candidates {
        last = try candidate.evaluate(context)
        if type.matches(last) { return last }
      }
      throw EvaluationError(.typeMismatch(expected: type, found: last))
    case .toString(let operand):
      return .string(try operand.evaluate(context).description)
    case .toBoolean(let operand):
      return .bool(Coercion.isTruthy(try operand.evaluate(context)))
    case .toNumber(let candidates):
      var last = StyleValue.null
      for candidate in candidates {
        last = try candidate.evaluate(context)
        if let number = Coercion.number(from: last) { return .number(number) }
      }
      throw EvaluationError(.notANumber(last))
    case .toColor(let candidates):
      var failure = EvaluationError(.notAColor(.null))
      for candidate in candidates {
        let value = try candidate.evaluate(context)
        switch Coercion.color(from: value) {
        case .success(let color): return .color(color)
        case .failure(let error): failure = error
        }
      }
      throw failure
    case .typeName(let operand):
      return .string(ExpressionType.of(try operand.evaluate(context)).name)
    case .concat(let parts):
      var text = ""
      for part in parts { text += try part.evaluate(context).description }
      return .string(text)
    case .upcase(let operand):
      return .string(try operand.evaluateString(context).uppercased())
    case .downcase(let operand):
      return .string(try operand.evaluateString(context).lowercased())
    case .length(let operand):
      switch try operand.evaluate(context) {
      case .string(let text): return .number(Double(text.unicodeScalars.count))
      case .array(let elements): return .number(Double(elements.count))
      case let other: throw EvaluationError(.typeMismatch(expected: .array(.value, count: nil), found: other))
      }
    case .element(let indexExpression, let arrayExpression):
      let index = try indexExpression.evaluateNumber(context)
      let value = try arrayExpression.evaluate(context)
      guard case .array(let elements) = value else {
        throw EvaluationError(.typeMismatch(expected: .array(.value, count: nil), found: value))
      }
      guard index >= 0, index < Double(elements.count) else {
        throw EvaluationError(.indexOutOfRange(index: index, count: elements.count))
      }
      guard index == index.rounded(.down) else { throw EvaluationError(.fractionalIndex(index)) }
      return elements[Int(index)]
    case .position(let needle, let haystack, let from):
      let start = try from?.evaluateNumber(context)
      return .number(
        try Sequences.position(
          of: try needle.evaluate(context), in: try haystack.evaluate(context), from: start))
    case .slice(let input, let start, let end):
      let first = try start.evaluateNumber(context)
      let last = try end?.evaluateNumber(context)
      return try Sequences.slice(try input.evaluate(context), from: first, to: last)
    case .arithmetic(let operation, let operands):
      var numbers: [Double] = []
      numbers.reserveCapacity(operands.count)
      for operand in operands { numbers.append(try operand.evaluateNumber(context)) }
      return .number(operation.apply(numbers))
    case .rgba(let operands):
      var values: [StyleValue] = []
      for operand in operands { values.append(try operand.evaluate(context)) }
      return .color(try Coercion.rgba(values))
    case .colorComponents(let operand):
      let value = try operand.evaluate(context)
      guard case .color(let color) = value else {
        throw EvaluationError(.typeMismatch(expected: .color, found: value))
      }
      return .array(
        [color.red * 255, color.green * 255, color.blue * 255, color.alpha].map(StyleValue.number))
    case .legacyTest(let test):
      return .bool(test.holds(for: context.feature))
    case .legacyFunction(let function):
      return try function.evaluate(context)
    }
  }

  func evaluateBool(_ context: EvaluationContext) throws(EvaluationError) -> Bool {
    let value = try evaluate(context)
    guard case .bool(let flag) = value else {
      throw EvaluationError(.typeMismatch(expected: .boolean, found: value))
    }
    return flag
  }

  func evaluateNumber(_ context: EvaluationContext) throws(EvaluationError) -> Double {
    let value = try evaluate(context)
    guard case .number(let number) = value else {
      throw EvaluationError(.typeMismatch(expected: .number, found: value))
    }
    return number
  }

  func evaluateString(_ context: EvaluationContext) throws(EvaluationError) -> String {
    let value = try evaluate(context)
    guard case .string(let text) = value else {
      throw EvaluationError(.typeMismatch(expected: .string, found: value))
    }
    return text
  }

  private func evaluateObject(_ context: EvaluationContext) throws(EvaluationError)
    -> [String: StyleValue]
  {
    let value = try evaluate(context)
    guard case .object(let members) = value else {
      throw EvaluationError(.typeMismatch(expected: .object, found: value))
    }
    return members
  }
}

/// JavaScript's `===` on style values: equal only with the same type; arrays, objects and colours are
/// never equal (they would be distinct objects in MapLibre).
func strictlyEqual(_ left: StyleValue, _ right: StyleValue) -> Bool {
  switch (left, right) {
  case (.null, .null): return true
  case (.bool(let a), .bool(let b)): return a == b
  case (.number(let a), .number(let b)): return a == b
  case (.string(let a), .string(let b)): return a == b
  default: return false
  }
}

/// The `in` expression: false for an empty or missing haystack; otherwise the needle (a boolean,
/// string, number or null) found in an array, or its text found in a string.
private func membership(of needle: StyleValue, in haystack: StyleValue) throws(EvaluationError) -> Bool {
  guard Coercion.isTruthy(haystack) else { return false }
  switch needle {
  case .null, .bool, .number, .string: break
  default: throw EvaluationError(.typeMismatch(expected: .value, found: needle))
  }
  switch haystack {
  case .array(let elements):
    return elements.contains { strictlyEqual($0, needle) }
  case .string(let text):
    // JavaScript's indexOf turns the needle into text first; null becomes "null".
    let part = needle == .null ? "null" : needle.description
    return part.isEmpty || text.utf8.firstRange(of: part.utf8) != nil
  default:
    throw EvaluationError(.typeMismatch(expected: .array(.value, count: nil), found: haystack))
  }
}

extension Expression.Ordering {
  func holds(_ left: StyleValue, _ right: StyleValue) throws(EvaluationError) -> Bool {
    switch (left, right) {
    case (.number(let a), .number(let b)):
      return compare(a, b)
    case (.string(let a), .string(let b)):
      // JavaScript orders strings by UTF-16 code units.
      if a == b { return compare(0, 0) }
      return a.utf16.lexicographicallyPrecedes(b.utf16) ? compare(0, 1) : compare(1, 0)
    default:
      throw EvaluationError(.orderedComparison(left, right))
    }
  }

  private func compare(_ a: Double, _ b: Double) -> Bool {
    switch self {
    case .less: return a < b
    case .lessOrEqual: return a <= b
    case .greater: return a > b
    case .greaterOrEqual: return a >= b
    }
  }
}
