import Foundation

/// The conversions the specification defines between value types, with JavaScript's rules where the
/// specification defers to them.
enum Coercion {
  /// JavaScript truthiness: false for null, false, 0, NaN and "".
  static func isTruthy(_ value: StyleValue) -> Bool {
    switch value {
    case .null: return false
    case .bool(let flag): return flag
    case .number(let number): return number != 0 && !number.isNaN
    case .string(let text): return !text.isEmpty
    case .color, .array, .object: return true
    }
  }

  /// `to-number` on one value: null is 0, booleans 1 and 0, strings as JavaScript's `Number()` reads
  /// them; nil when the value does not convert.
  static func number(from value: StyleValue) -> Double? {
    switch value {
    case .null: return 0
    case .bool(let flag): return flag ? 1 : 0
    case .number(let number): return number.isNaN ? nil : number
    case .string(let text): return number(fromText: text)
    case .color, .array, .object: return nil
    }
  }

  private static func number(fromText text: String) -> Double? {
    let trimmed = text.trimmingSpaces()
    if trimmed.isEmpty { return 0 }
    switch trimmed {
    case "Infinity", "+Infinity": return .infinity
    case "-Infinity": return -.infinity
    default: break
    }
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)]
    where trimmed.hasPrefix(prefix) {
      return UInt64(trimmed.dropFirst(2), radix: radix).map { Double($0) }
    }
    guard trimmed.utf8.count <= 400 else { return nil }
    return CSSNumber.parse(trimmed)
  }

  /// `to-color` on one value: a colour, a CSS colour string, or an `[r, g, b]`/`[r, g, b, a]` array.
  static func color(from value: StyleValue) -> Result<StyleColor, EvaluationError> {
    switch value {
    case .color(let color):
      return .success(color)
    case .string(let text):
      guard let color = CSSColorParser.parse(text) else {
        return .failure(EvaluationError(.notAColor(value)))
      }
      return .success(color)
    case .array(let elements) where elements.count == 3 || elements.count == 4:
      do {
        return .success(try rgba(elements))
      } catch {
        return .failure(error)
      }
    default:
      return .failure(EvaluationError(.notAColor(value)))
    }
  }

  /// A colour from 0…255 channels and an optional 0…1 alpha, all required to be in range.
  static func rgba(_ values: [StyleValue]) throws(EvaluationError) -> StyleColor {
    var numbers: [Double] = []
    for value in values {
      guard case .number(let number) = value else { throw EvaluationError(.invalidRGBA(values)) }
      numbers.append(number)
    }
    guard numbers.count == 3 || numbers.count == 4, numbers.prefix(3).allSatisfy({ (0...255).contains($0) }),
      numbers.count == 3 || (0...1).contains(numbers[3])
    else { throw EvaluationError(.invalidRGBA(values)) }
    return StyleColor(
      red: numbers[0] / 255, green: numbers[1] / 255, blue: numbers[2] / 255,
      alpha: numbers.count == 4 ? numbers[3] : 1)
  }
}

extension Expression.Arithmetic {
  /// The result on already-checked numbers; `arity` was enforced at compile time.
  func apply(_ numbers: [Double]) -> Double {
    let first = numbers.first ?? 0
    let second = numbers.count > 1 ? numbers[1] : 0
    switch self {
    case .add: return numbers.reduce(0, +)
    case .multiply: return numbers.reduce(1, *)
    case .subtract: return numbers.count == 1 ? -first : first - second
    case .divide: return first / second
    case .remainder: return first.truncatingRemainder(dividingBy: second)
    case .power: return pow(first, second)
    case .minimum: return numbers.contains(where: \.isNaN) ? .nan : numbers.min() ?? .infinity
    case .maximum: return numbers.contains(where: \.isNaN) ? .nan : numbers.max() ?? -.infinity
    case .squareRoot: return first.squareRoot()
    case .absolute: return abs(first)
    case .floor: return first.rounded(.down)
    case .ceil: return first.rounded(.up)
    // Halves round away from zero, as MapLibre does for negative numbers too.
    case .round: return first.rounded(.toNearestOrAwayFromZero)
    case .naturalLog: return log(first)
    case .log10: return Foundation.log10(first)
    case .log2: return Foundation.log2(first)
    case .sin: return Foundation.sin(first)
    case .cos: return Foundation.cos(first)
    case .tan: return Foundation.tan(first)
    case .asin: return Foundation.asin(first)
    case .acos: return Foundation.acos(first)
    case .atan: return Foundation.atan(first)
    case .pi: return Double.pi
    case .e: return M_E
    case .ln2: return M_LN2
    }
  }
}
