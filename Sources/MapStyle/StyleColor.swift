import JSON

/// A colour from a style: sRGB channels and alpha in 0…1, not premultiplied.
///
/// The renderer converts it to its own colour type; the style module never premultiplies, so colours
/// interpolate and print exactly as MapLibre's unpremultiplied `rgb` view of a colour does.
public struct StyleColor: Hashable, Sendable, CustomStringConvertible {
  /// Red, 0…1.
  public var red: Double
  /// Green, 0…1.
  public var green: Double
  /// Blue, 0…1.
  public var blue: Double
  /// Opacity, 0…1 (not premultiplied into the channels).
  public var alpha: Double

  /// Channels in 0…1; values outside are clamped so a colour is always drawable.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = Self.unit(red)
    self.green = Self.unit(green)
    self.blue = Self.unit(blue)
    self.alpha = Self.unit(alpha)
  }

  /// Parses a CSS colour as MapLibre accepts it: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()`
  /// with numbers or percentages (commas or spaces, `/ alpha`), `hsl()`/`hsla()`, the 148 CSS named
  /// colours and `transparent`. Case and surrounding spaces do not matter. Nil for anything else.
  public init?(css text: String) {
    guard let color = CSSColorParser.parse(text) else { return nil }
    self = color
  }

  /// The default of most colour properties.
  public static let black = StyleColor(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = StyleColor(red: 1, green: 1, blue: 1)
  /// Fully transparent (the default halo colour).
  public static let transparent = StyleColor(red: 0, green: 0, blue: 0, alpha: 0)

  /// The colour a fraction `t` of the way from `self` to `other`, channel by channel in sRGB with
  /// unpremultiplied alpha (MapLibre's default for `interpolate` on colours).
  public func interpolated(to other: StyleColor, fraction t: Double) -> StyleColor {
    StyleColor(
      red: red + (other.red - red) * t, green: green + (other.green - green) * t,
      blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
  }

  /// `rgba(r,g,b,a)` with channels rounded to 0…255, as the `to-string` expression writes a colour.
  public var description: String {
    // Clamped again here: the channels are public and may have been set to anything.
    let channels = [red, green, blue].map { String(Int((Self.unit($0) * 255).rounded())) }
    return "rgba(\(channels.joined(separator: ",")),\(JSONWriter.numberText(Self.unit(alpha))))"
  }

  private static func unit(_ value: Double) -> Double {
    guard value.isFinite else { return value > 0 ? 1 : 0 }
    return min(max(value, 0), 1)
  }
}
