/// A Debian font package that draws characters the installed fonts may lack, named in the warning about
/// characters drawn as boxes so that the user installs the right one.
public enum FontPackage: String, CaseIterable, Comparable, Sendable {
  /// Chinese, Japanese and Korean.
  case cjk = "fonts-noto-cjk"
  /// Colour emoji, flags among them (Cairo draws the colour glyphs).
  case emoji = "fonts-noto-color-emoji"

  /// The packages whose scripts occur in `text`: where a text has characters no font could draw, these
  /// are the likely cure.
  static func candidates(for text: some StringProtocol) -> Set<FontPackage> {
    var found: Set<FontPackage> = []
    for scalar in text.unicodeScalars {
      if isEmoji(scalar) {
        found.insert(.emoji)
      } else if isCJK(scalar.value) {
        found.insert(.cjk)
      }
      if found.count == FontPackage.allCases.count { break }
    }
    return found
  }

  private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
    // Regional indicators make flags; the rest are pictographs shown as emoji by default.
    (0x1F1E6...0x1F1FF).contains(scalar.value) || scalar.properties.isEmojiPresentation
  }

  private static func isCJK(_ value: UInt32) -> Bool {
    let ranges: [ClosedRange<UInt32>] = [
      0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x30FF, 0x3130...0x318F, 0x31F0...0x9FFF,
      0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3134F,
    ]
    return ranges.contains { $0.contains(value) }
  }

  public static func < (a: FontPackage, b: FontPackage) -> Bool { a.rawValue < b.rawValue }
}
