/// Reads the CSS colour syntaxes MapLibre styles use. Written as a small hand parser (no regular
/// expressions) so it is fast enough to run on feature values that a style turns into colours.
enum CSSColorParser {
  static func parse(_ input: String) -> StyleColor? {
    let text = String(input.lowercased().trimmingSpaces())
    // Real-world colours are short; refusing long strings keeps hostile feature values cheap.
    guard !text.isEmpty, text.utf8.count <= 128 else { return nil }
    if text == "transparent" { return .transparent }
    if let rgb = CSSNamedColors.table[text] {
      return StyleColor(red: Double(rgb.0) / 255, green: Double(rgb.1) / 255, blue: Double(rgb.2) / 255)
    }
    if text.hasPrefix("#") { return hex(text.utf8.dropFirst()) }
    for (prefix, isHSL) in [("rgba(", false), ("rgb(", false), ("hsla(", true), ("hsl(", true)]
    where text.hasPrefix(prefix) && text.hasSuffix(")") {
      let inner = text.dropFirst(prefix.count).dropLast()
      guard let components = components(of: inner) else { return nil }
      return isHSL ? hsl(components) : rgb(components)
    }
    return nil
  }

  private static func hex(_ digits: Substring.UTF8View) -> StyleColor? {
    var values: [Double] = []
    for byte in digits {
      guard let value = hexValue(byte) else { return nil }
      values.append(Double(value))
    }
    switch values.count {
    case 3, 4:
      // #f0c means #ff00cc: each digit is doubled.
      let channels = values.map { $0 * 17 / 255 }
      return StyleColor(
        red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    case 6, 8:
      let channels = stride(from: 0, to: values.count, by: 2).map { (values[$0] * 16 + values[$0 + 1]) / 255 }
      return StyleColor(
        red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    default:
      return nil
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
  }

  /// One argument of `rgb()`/`hsl()`: a number, whether it had `%`, and the text for unit checks.
  private struct Component {
    var value: Double
    var isPercentage: Bool
    var unit: Substring
  }

  /// Splits `1, 2, 3, 0.5` or `1 2 3 / 0.5` into components. The comma form needs commas between all
  /// components; the space form allows `/` only before the fourth.
  private static func components(of inner: Substring) -> [Component]? {
    let commaParts = inner.split(separator: ",", omittingEmptySubsequences: false)
    var words: [Substring]
    if commaParts.count > 1 {
      words = commaParts.map { Substring($0.trimmingSpaces()) }
      guard words.count == 3 || words.count == 4, words.allSatisfy({ !$0.isEmpty && !$0.contains(" ") })
      else { return nil }
    } else {
      let slashParts = inner.split(separator: "/", omittingEmptySubsequences: false)
      guard slashParts.count <= 2 else { return nil }
      words = slashParts[0].split(separator: " ")
      guard words.count == 3 else { return nil }
      if slashParts.count == 2 {
        let alpha = slashParts[1].split(separator: " ")
        guard alpha.count == 1 else { return nil }
        words.append(alpha[0])
      }
    }
    var result: [Component] = []
    for word in words {
      guard let component = component(word) else { return nil }
      result.append(component)
    }
    return result
  }

  private static func component(_ word: Substring) -> Component? {
    var number = word
    var isPercentage = false
    var unit: Substring = ""
    if number.hasSuffix("%") {
      isPercentage = true
      number = number.dropLast()
    } else if number.hasSuffix("deg") {
      unit = "deg"
      number = number.dropLast(3)
    }
    guard let value = CSSNumber.parse(number) else { return nil }
    return Component(value: value, isPercentage: isPercentage, unit: unit)
  }

  private static func rgb(_ components: [Component]) -> StyleColor? {
    let channels = components.prefix(3)
    guard channels.allSatisfy({ $0.unit.isEmpty }) else { return nil }
    let percentages = channels.filter(\.isPercentage).count
    guard percentages == 0 || percentages == 3 else { return nil }
    let scale = percentages == 3 ? 100.0 : 255.0
    let values = channels.map { $0.value / scale }
    guard let alpha = alpha(components) else { return nil }
    return StyleColor(red: values[0], green: values[1], blue: values[2], alpha: alpha)
  }

  private static func hsl(_ components: [Component]) -> StyleColor? {
    let hue = components[0]
    guard !hue.isPercentage, components[1].isPercentage, components[2].isPercentage,
      components[1].unit.isEmpty, components[2].unit.isEmpty, let alpha = alpha(components)
    else { return nil }
    let saturation = min(max(components[1].value, 0), 100) / 100
    let lightness = min(max(components[2].value, 0), 100) / 100
    let degrees = hue.value.truncatingRemainder(dividingBy: 360)
    let h = degrees < 0 ? degrees + 360 : degrees
    let chroma = saturation * min(lightness, 1 - lightness)
    func channel(_ n: Double) -> Double {
      let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
      return lightness - chroma * max(-1, min(k - 3, 9 - k, 1))
    }
    return StyleColor(red: channel(0), green: channel(8), blue: channel(4), alpha: alpha)
  }

  /// The optional fourth component: a number in 0…1 or a percentage; 1 when absent.
  private static func alpha(_ components: [Component]) -> Double? {
    guard components.count == 4 else { return 1 }
    let alpha = components[3]
    guard alpha.unit.isEmpty else { return nil }
    return min(max(alpha.isPercentage ? alpha.value / 100 : alpha.value, 0), 1)
  }
}

/// CSS and JSON number text: optional sign, digits with an optional fraction (or a bare fraction), an
/// optional exponent. Swift's `Double(String)` alone would also take `nan`, `inf` and hex floats.
enum CSSNumber {
  static func parse(_ text: Substring) -> Double? {
    var bytes = text.utf8[...]
    if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let integerDigits = bytes.prefix(while: isDigit).count
    bytes = bytes.dropFirst(integerDigits)
    var fractionDigits = 0
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      fractionDigits = bytes.prefix(while: isDigit).count
      bytes = bytes.dropFirst(fractionDigits)
    }
    guard integerDigits + fractionDigits > 0 else { return nil }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      let exponentDigits = bytes.prefix(while: isDigit).count
      guard exponentDigits > 0 else { return nil }
      bytes = bytes.dropFirst(exponentDigits)
    }
    guard bytes.isEmpty, let value = Double(String(text)), value.isFinite else { return nil }
    return value
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and line breaks.
  func trimmingSpaces() -> SubSequence {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let start = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
    else { return self[endIndex...] }
    return self[start...last]
  }
}
