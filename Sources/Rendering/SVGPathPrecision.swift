import Foundation

/// Cairo writes path coordinates with six decimals (`3.207031`); a thousandth of a pixel is far below what
/// any screen or printer shows, and the shorter numbers make a map's SVG (glyph outlines, street
/// geometry) about a sixth smaller.
enum SVGPathPrecision {
  /// Decimals kept in path data.
  static let decimals = 3

  /// Rounds every number inside `d="…"` attributes to `decimals` places (half away from zero, on the
  /// decimal text itself, so no binary rounding creeps in), dropping trailing zeros and a `-` before zero.
  /// Everything else is copied as it is.
  static func round(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    let marker = Array(" d=\"".utf8)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: " "), bytes[index...].starts(with: marker) else {
        output.append(bytes[index])
        index += 1
        continue
      }
      output.append(contentsOf: marker)
      index += marker.count
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        if isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "-") {
          index = copyNumber(bytes, from: index, into: &output)
        } else {
          output.append(bytes[index])
          index += 1
        }
      }
    }
    return output
  }

  /// Copies the number starting at `start`, rounded; returns where it ends.
  private static func copyNumber(_ bytes: [UInt8], from start: Int, into output: inout [UInt8]) -> Int {
    var index = start
    let negative = bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var digits: [UInt8] = []
    while index < bytes.count, isDigit(bytes[index]) {
      digits.append(bytes[index])
      index += 1
    }
    var fraction: [UInt8] = []
    if index < bytes.count, bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count,
      isDigit(bytes[index + 1])
    {
      index += 1
      while index < bytes.count, isDigit(bytes[index]) {
        fraction.append(bytes[index])
        index += 1
      }
    }
    // An exponent, or a bare sign: not a number this pass understands, so it stays as written.
    if digits.isEmpty || (index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e")) {
      output.append(contentsOf: bytes[start..<index])
      return index
    }
    guard fraction.count > decimals else {
      output.append(contentsOf: bytes[start..<index])
      return index
    }
    let roundUp = fraction[decimals] >= UInt8(ascii: "5")
    var kept = digits + fraction[..<decimals]
    if roundUp {
      var position = kept.count - 1
      while position >= 0 {
        if kept[position] == UInt8(ascii: "9") {
          kept[position] = UInt8(ascii: "0")
          position -= 1
        } else {
          kept[position] += 1
          break
        }
      }
      if position < 0 { kept.insert(UInt8(ascii: "1"), at: 0) }
    }
    var integerPart = kept[..<(kept.count - decimals)]
    var fractionPart = kept[(kept.count - decimals)...]
    while let last = fractionPart.last, last == UInt8(ascii: "0") { fractionPart.removeLast() }
    // Leading zeros stay as Cairo wrote them ("0.5"); only the carry above can add a digit.
    if integerPart.isEmpty { integerPart = [UInt8(ascii: "0")] }
    let isZero = integerPart.allSatisfy { $0 == UInt8(ascii: "0") } && fractionPart.isEmpty
    if negative && !isZero { output.append(UInt8(ascii: "-")) }
    output.append(contentsOf: integerPart)
    if !fractionPart.isEmpty {
      output.append(UInt8(ascii: "."))
      output.append(contentsOf: fractionPart)
    }
    return index
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
