// The C math library is the only thing MapMath takes from outside the standard library (no Foundation).
// Imported, not re-exported: a client of MapMath imports what it uses itself.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `value` as a whole number inside `range`: clamped to it, and its lower bound for NaN. `Int(_:)` traps on
/// NaN, infinities and values past `Int`'s range; MapMath's functions are total, whatever numbers they are
/// given. The bounds must be exactly representable as `Double` (within ±2^53).
func clampedInteger(_ value: Double, in range: ClosedRange<Int>) -> Int {
  guard !value.isNaN else { return range.lowerBound }
  return Int(min(max(value, Double(range.lowerBound)), Double(range.upperBound)))
}
