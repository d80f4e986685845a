import Foundation
import MapStyle

/// What one label needs from its symbol layer, evaluated for its feature. Style pixels are points.
struct LabelStyle: Hashable {
  var placement: SymbolPlacement
  var font: LabelFont
  var paint: LabelPaint
  var anchor: TextAnchor
  /// `text-offset` in points.
  var offsetX: Double
  var offsetY: Double
  /// Points before a point label wraps; 0 never wraps.
  var maxWidth: Double
  /// Points between baselines.
  var lineHeight: Double
  var justify: TextJustify
  var padding: Double
  /// Radians.
  var maxAngle: Double
  /// Points between repeated labels along a line.
  var spacing: Double
  var allowOverlap: Bool
  var ignorePlacement: Bool
}

/// A symbol layer's text properties at the map's style zoom.
struct SymbolLayerStyle {
  /// Larger text is drawn this large at most.
  static let maximumTextSize = 256.0

  let placement: ResolvedStyleProperty<SymbolPlacement>
  let spacing: ResolvedStyleProperty<Double>
  let sortKey: ResolvedStyleProperty<Double?>
  let textField: ResolvedStyleProperty<String>
  let textFont: ResolvedStyleProperty<[String]>
  let textSize: ResolvedStyleProperty<Double>
  let maxWidth: ResolvedStyleProperty<Double>
  let lineHeight: ResolvedStyleProperty<Double>
  let letterSpacing: ResolvedStyleProperty<Double>
  let justify: ResolvedStyleProperty<TextJustify>
  let anchor: ResolvedStyleProperty<TextAnchor>
  let maxAngle: ResolvedStyleProperty<Double>
  let padding: ResolvedStyleProperty<Double>
  let transform: ResolvedStyleProperty<TextTransform>
  let offset: ResolvedStyleProperty<[Double]>
  let allowOverlap: ResolvedStyleProperty<Bool>
  let ignorePlacement: ResolvedStyleProperty<Bool>
  let color: ResolvedStyleProperty<StyleColor>
  let haloColor: ResolvedStyleProperty<StyleColor>
  let haloWidth: ResolvedStyleProperty<Double>
  let opacity: ResolvedStyleProperty<Double>
  let fontFallback: String
  private let fonts = FontCache()

  /// Fonts already read from their stacks: reading one takes string work that thousands of features
  /// need not repeat.
  private final class FontCache {
    struct Key: Hashable {
      var stack: [String]
      var size: Double
      var letterSpacing: Double
    }

    var fonts: [Key: LabelFont] = [:]
  }

  init(_ style: SymbolStyle, zoom: Double, fontFallback: String) {
    placement = style.placement.resolved(atZoom: zoom)
    spacing = style.spacing.resolved(atZoom: zoom)
    sortKey = style.sortKey.resolved(atZoom: zoom)
    textField = style.textField.resolved(atZoom: zoom)
    textFont = style.textFont.resolved(atZoom: zoom)
    textSize = style.textSize.resolved(atZoom: zoom)
    maxWidth = style.textMaxWidth.resolved(atZoom: zoom)
    lineHeight = style.textLineHeight.resolved(atZoom: zoom)
    letterSpacing = style.textLetterSpacing.resolved(atZoom: zoom)
    justify = style.textJustify.resolved(atZoom: zoom)
    anchor = style.textAnchor.resolved(atZoom: zoom)
    maxAngle = style.textMaxAngle.resolved(atZoom: zoom)
    padding = style.textPadding.resolved(atZoom: zoom)
    transform = style.textTransform.resolved(atZoom: zoom)
    offset = style.textOffset.resolved(atZoom: zoom)
    allowOverlap = style.textAllowOverlap.resolved(atZoom: zoom)
    ignorePlacement = style.textIgnorePlacement.resolved(atZoom: zoom)
    color = style.textColor.resolved(atZoom: zoom)
    haloColor = style.textHaloColor.resolved(atZoom: zoom)
    haloWidth = style.textHaloWidth.resolved(atZoom: zoom)
    opacity = style.textOpacity.resolved(atZoom: zoom)
    self.fontFallback = fontFallback
  }

  /// Whether any property but the text reads feature ids (so features with equal tags may differ).
  var readsFeatureID: Bool {
    let properties: [Bool] = [
      placement.readsFeatureID, spacing.readsFeatureID, sortKey.readsFeatureID, textFont.readsFeatureID,
      textSize.readsFeatureID, maxWidth.readsFeatureID, lineHeight.readsFeatureID,
      letterSpacing.readsFeatureID, justify.readsFeatureID, anchor.readsFeatureID, maxAngle.readsFeatureID,
      padding.readsFeatureID, transform.readsFeatureID, offset.readsFeatureID, allowOverlap.readsFeatureID,
      ignorePlacement.readsFeatureID, color.readsFeatureID, haloColor.readsFeatureID,
      haloWidth.readsFeatureID, opacity.readsFeatureID,
    ]
    return properties.contains(true)
  }

  /// The feature's label text: trimmed (a `concat` with an empty part can leave a newline at an end)
  /// and transformed; nil when nothing is left.
  func text(for feature: MapFeature) -> String? {
    let raw = textField.value(for: feature)
    guard !raw.isEmpty else { return nil }
    // A label is a few words: a hostile tile's megabyte of text is cut long before Pango sees it. (No
    // more bytes than 512 is no more characters: counting characters walks the whole text.)
    let bounded = raw.utf8.count > 512 && raw.count > 512 ? String(raw.prefix(512)) : raw
    let text = transform.value(for: feature).apply(to: Self.trimmed(bounded))
    return text.isEmpty ? nil : text
  }

  /// `text` without the white space and line breaks at its ends. Nearly every name has none, which its
  /// first and last letters tell at once; Foundation's trimming (a character set's walk) only when they
  /// might be.
  static func trimmed(_ text: String) -> String {
    func surelyKept(_ scalar: Unicode.Scalar?) -> Bool {
      guard let scalar else { return false }
      // Printable ASCII but the space, or a letter, mark or digit: never white space.
      if scalar.isASCII { return scalar.value > 0x20 && scalar.value < 0x7f }
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
        return true
      default:
        return false
      }
    }
    if surelyKept(text.unicodeScalars.first), surelyKept(text.unicodeScalars.last) { return text }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The label's style for one feature; nil when it would not show.
  func style(for feature: MapFeature) -> LabelStyle? {
    let size = min(textSize.value(for: feature), Self.maximumTextSize)
    let opacity = opacity.value(for: feature)
    let color = Color(color.value(for: feature), opacity: opacity)
    guard size >= 1, color.alpha > 0 else { return nil }
    let offset = offset.value(for: feature)
    let ems = { (value: Double) in min(max(value, -100), 100) * size }
    let key = FontCache.Key(
      stack: textFont.value(for: feature), size: size, letterSpacing: ems(letterSpacing.value(for: feature)))
    let font =
      fonts.fonts[key]
      ?? LabelFont(stack: key.stack, size: size, letterSpacing: key.letterSpacing, fallback: fontFallback)
    if fonts.fonts.count < 64 { fonts.fonts[key] = font }
    return LabelStyle(
      placement: placement.value(for: feature), font: font,
      paint: LabelPaint(
        color: color, halo: Color(haloColor.value(for: feature), opacity: opacity),
        haloWidth: min(max(haloWidth.value(for: feature), 0), size / 4)),
      anchor: anchor.value(for: feature), offsetX: offset.count == 2 ? ems(offset[0]) : 0,
      offsetY: offset.count == 2 ? ems(offset[1]) : 0, maxWidth: ems(max(maxWidth.value(for: feature), 0)),
      lineHeight: ems(lineHeight.value(for: feature)), justify: justify.value(for: feature),
      padding: min(max(padding.value(for: feature), 0), 256),
      maxAngle: min(max(maxAngle.value(for: feature), 0), 180) * .pi / 180,
      spacing: min(max(spacing.value(for: feature), 1), 100_000),
      allowOverlap: allowOverlap.value(for: feature), ignorePlacement: ignorePlacement.value(for: feature))
  }
}
