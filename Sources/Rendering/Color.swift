/// An sRGB colour with straight alpha, each component in 0…1.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
  public init?(hex: String) {
    guard hex.hasPrefix("#") else { return nil }
    let digits = Array(hex.dropFirst())
    // Hex digits only: `UInt8(_:radix:)` alone would also take a sign ("#+1+2+3").
    guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit) else { return nil }
    var components: [Double] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let value = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
      components.append(Double(value) / 255)
    }
    self.init(
      red: components[0], green: components[1], blue: components[2],
      alpha: components.count == 4 ? components[3] : 1)
  }

  public func withAlpha(_ alpha: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// Mixed towards white (`amount` > 0) or black (`amount` < 0).
  public func lightened(_ amount: Double) -> Color {
    let target = amount >= 0 ? 1.0 : 0.0
    let t = abs(amount)
    return Color(
      red: red + (target - red) * t, green: green + (target - green) * t, blue: blue + (target - blue) * t,
      alpha: alpha)
  }

  public var description: String {
    func byte(_ value: Double) -> String {
      let text = String(Int((min(max(value, 0), 1) * 255).rounded()), radix: 16, uppercase: true)
      return text.count == 1 ? "0" + text : text
    }
    return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
  }

  public static let white = Color(red: 1, green: 1, blue: 1)
  public static let black = Color(red: 0, green: 0, blue: 0)
}
