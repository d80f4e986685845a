import Foundation

/// Finding the stop an input falls in, shared by `step`, `interpolate` and legacy functions.
enum StopSearch {
  /// The index of the last stop at or below `input` (0 when below all). NaN is an error.
  static func index(of input: Double, in stops: [Double]) throws(EvaluationError) -> Int {
    guard !input.isNaN else { throw EvaluationError(.notANumber(.number(input))) }
    guard let first = stops.first, input > first else { return 0 }
    var low = 0
    var high = stops.count - 1
    if input >= stops[high] { return high }
    // Invariant: stops[low] <= input < stops[high].
    while high - low > 1 {
      let middle = (low + high) / 2
      if stops[middle] <= input { low = middle } else { high = middle }
    }
    return low
  }
}

extension Expression.Interpolation.Curve {
  /// How far `input` is from `lower` to `upper`, 0…1, along this curve.
  func fraction(of input: Double, from lower: Double, to upper: Double) -> Double {
    let span = upper - lower
    guard span != 0 else { return 0 }
    let progress = input - lower
    switch self {
    case .linear:
      return progress / span
    case .exponential(let base):
      // Fits base^x through both stops; with base 1 that is a straight line.
      if base == 1 { return progress / span }
      return (pow(base, progress) - 1) / (pow(base, span) - 1)
    case .cubicBezier(let bezier):
      return bezier.solve(progress / span)
    }
  }
}

extension Expression.Interpolation {
  /// Evaluates only the outputs at the two stops around `input` (one at the ends).
  func evaluate(
    input: Double, stops: [Double], output: (Int) throws(EvaluationError) -> StyleValue
  ) throws(EvaluationError) -> StyleValue {
    let index = try StopSearch.index(of: input, in: stops)
    guard index + 1 < stops.count, input > stops[index] else { return try output(index) }
    let t = curve.fraction(of: input, from: stops[index], to: stops[index + 1])
    return try kind.blend(try output(index), try output(index + 1), t)
  }
}

extension Expression.Interpolation.Kind {
  /// The value a fraction `t` of the way from `lower` to `upper`.
  func blend(_ lower: StyleValue, _ upper: StyleValue, _ t: Double) throws(EvaluationError) -> StyleValue {
    switch (self, lower, upper) {
    case (.number, .number(let a), .number(let b)):
      return .number(a + (b - a) * t)
    case (.color(let space), .color(let a), .color(let b)):
      switch space {
      case .rgb: return .color(a.interpolated(to: b, fraction: t))
      case .lab: return .color(a.interpolatedInLab(to: b, fraction: t))
      case .hcl: return .color(a.interpolatedInHCL(to: b, fraction: t))
      }
    case (.numberArray, .array(let a), .array(let b)):
      guard a.count == b.count else { throw EvaluationError(.mismatchedArrays(a.count, b.count)) }
      var result: [StyleValue] = []
      result.reserveCapacity(a.count)
      for (x, y) in zip(a, b) {
        guard case .number(let from) = x, case .number(let to) = y else {
          throw EvaluationError(.typeMismatch(expected: .number, found: x))
        }
        result.append(.number(from + (to - from) * t))
      }
      return .array(result)
    case (.number, _, _):
      throw EvaluationError(.typeMismatch(expected: .number, found: lower))
    case (.color, _, _):
      throw EvaluationError(.typeMismatch(expected: .color, found: lower))
    case (.numberArray, _, _):
      throw EvaluationError(.typeMismatch(expected: .array(.number, count: nil), found: lower))
    }
  }
}

/// A CSS-style cubic Bézier easing from (0, 0) to (1, 1) through two control points, as the
/// `cubic-bezier` interpolation uses: `solve(x)` is the curve's y where its x equals `x`.
struct UnitBezier: Sendable {
  private let cx, bx, ax, cy, by, ay: Double

  init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    cx = 3 * x1
    bx = 3 * (x2 - x1) - cx
    ax = 1 - cx - bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    ay = 1 - cy - by
  }

  private func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
  private func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
  private func slope(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

  func solve(_ target: Double) -> Double {
    let target = min(max(target, 0), 1)
    // Newton's method converges fast where the slope is steep; bisection covers the rest.
    var t = target
    for _ in 0..<8 {
      let error = x(t) - target
      if abs(error) < 1e-7 { return y(t) }
      let d = slope(t)
      if abs(d) < 1e-6 { break }
      t -= error / d
    }
    var low = 0.0
    var high = 1.0
    t = target
    for _ in 0..<64 where high - low > 1e-9 {
      if x(t) < target { low = t } else { high = t }
      t = (low + high) / 2
    }
    return y(t)
  }
}
