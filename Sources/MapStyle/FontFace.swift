/// A font as fontconfig and Pango want it, read from a style's font stack name.
///
/// Style fonts are named for glyph servers ("Noto Sans Bold Italic", "Open Sans Semibold"): a family
/// followed by weight and style words. `FontFace(fontStack:)` splits the trailing words off, so
/// "Noto Sans Bold Italic" is family "Noto Sans", weight `.bold`, style `.italic`.
public struct FontFace: Hashable, Sendable {
  /// The family name for fontconfig ("Noto Sans").
  public var family: String
  /// The weight the name ends with; `.regular` when it names none.
  public var weight: FontWeight
  /// Italic or oblique when the name says so.
  public var style: FontStyle

  /// A face from its parts.
  public init(family: String, weight: FontWeight = .regular, style: FontStyle = .normal) {
    self.family = family
    self.weight = weight
    self.style = style
  }

  /// Reads a style's font stack name: trailing style and weight words split off the family.
  public init(fontStack name: String) {
    var words = name.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    var weight = FontWeight.regular
    var style = FontStyle.normal
    // The family keeps at least one word: a font called "Bold" stays "Bold".
    if words.count > 1, let found = FontStyle(word: words[words.count - 1].lowercased()) {
      style = found
      words.removeLast()
    }
    if words.count > 1 {
      let last = words[words.count - 1].lowercased()
      if let found = FontWeight(word: last) {
        weight = found
        words.removeLast()
      } else if style == .normal, let (found, glued) = Self.weightWithStyle(last) {
        (weight, style) = (found, glued)
        words.removeLast()
      }
    }
    // "Extra Bold", "Semi Bold": a modifier word before the weight.
    if weight != .regular, words.count > 1,
      let combined = FontWeight(word: words[words.count - 1].lowercased() + Self.baseWord(weight))
    {
      weight = combined
      words.removeLast()
    }
    self.init(family: words.joined(separator: " "), weight: weight, style: style)
  }

  /// A weight word with "italic" or "oblique" glued on: "bolditalic".
  private static func weightWithStyle(_ word: String) -> (FontWeight, FontStyle)? {
    for (suffix, style) in [("italic", FontStyle.italic), ("oblique", .oblique)] where word.hasSuffix(suffix)
    {
      if let weight = FontWeight(word: String(word.dropLast(suffix.count))) { return (weight, style) }
    }
    return nil
  }

  /// The word a modifier ("extra", "semi") combines with.
  private static func baseWord(_ weight: FontWeight) -> String {
    switch weight {
    case .bold: return "bold"
    case .light: return "light"
    default: return "-"
    }
  }
}

/// CSS / OpenType weights; Pango's `PangoWeight` uses the same numbers.
public enum FontWeight: Int, Hashable, Sendable, CaseIterable {
  case thin = 100
  case extraLight = 200
  case light = 300
  case regular = 400
  case medium = 500
  case semibold = 600
  case bold = 700
  case extraBold = 800
  case black = 900

  init?(word: String) {
    switch word {
    case "thin", "hairline": self = .thin
    case "extralight", "ultralight": self = .extraLight
    case "light": self = .light
    case "regular", "normal", "book", "roman": self = .regular
    case "medium": self = .medium
    case "semibold", "demibold": self = .semibold
    case "bold": self = .bold
    case "extrabold", "ultrabold": self = .extraBold
    case "black", "heavy": self = .black
    default: return nil
    }
  }
}

/// Upright, italic or oblique.
public enum FontStyle: Hashable, Sendable {
  case normal
  case italic
  case oblique

  init?(word: String) {
    switch word {
    case "italic": self = .italic
    case "oblique": self = .oblique
    default: return nil
    }
  }
}
