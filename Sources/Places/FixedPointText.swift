import Foundation

/// A number as printf's `%.Nf` writes it, without Foundation's formatter (which builds a CFString for every
/// call: an eighth of `mymap list`'s time over a million places).
///
/// Exact: the binary value is multiplied by 10ᴺ in 128-bit integers and rounded half to even, as glibc's
/// printf rounds, so the text is the same byte for byte (the tests compare both on halfway cases, tiny,
/// subnormal and large values). Values of 2⁵³ and beyond, infinities and NaN go to `String(format:)`.
public enum FixedPointText {
  /// `value` with `digits` (0–9) digits after the point, as `String(format: "%.<digits>f", value)`.
  public static func string(_ value: Double, digits: Int) -> String {
    precondition((0...9).contains(digits), "0 to 9 digits")
    guard value.isFinite, value.magnitude < 0x1p53 else {
      return String(format: "%.\(digits)f", value)
    }
    let magnitude = value.magnitude
    // magnitude = significand × 2^-shift, shift ≥ 0 below 2^53.
    let significand: UInt64
    let shift: Int
    if magnitude == 0 {
      (significand, shift) = (0, 0)
    } else if magnitude.isNormal {
      significand = magnitude.significandBitPattern | (1 << 52)
      shift = 52 - Int(magnitude.exponent)
    } else {
      (significand, shift) = (magnitude.significandBitPattern, 1074)
    }
    var power: UInt64 = 1
    for _ in 0..<digits { power *= 10 }
    let scaled = UInt128(significand) * UInt128(power)  // < 2^53 × 10^9 < 2^83
    var units: UInt128
    if shift == 0 {
      units = scaled
    } else if shift >= 128 {
      units = 0  // below 2^-45 of a unit: never half of one
    } else {
      units = scaled >> shift
      let rest = scaled & ((1 << shift) - 1)
      let half = UInt128(1) << (shift - 1)
      if rest > half || (rest == half && units & 1 == 1) { units += 1 }
    }
    let whole = String(units / UInt128(power))
    var text = value.sign == .minus ? "-" + whole : whole
    guard digits > 0 else { return text }
    let fraction = String(units % UInt128(power))
    text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    return text
  }
}
