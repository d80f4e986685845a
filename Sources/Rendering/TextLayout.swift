import CCairo
import Foundation
import MapMath

/// A font: a Pango family list, a size in points and a weight.
struct FontSpec: Hashable {
  var family: String
  var size: Double
  var bold: Bool
}

/// One line of text set by Pango, ready to measure and draw; cut with an ellipsis past `maxWidth`.
///
/// Hinting is off so that a text measures the same at every scale and in every output format: layout is
/// computed in points before the canvas exists. Owns a Pango layout, used on one thread only; one made
/// with `keepsLayout: false` lets it go once measured (a layout is a few KB, and a million callouts are
/// measured to draw a few hundred) and sets the text again when it is drawn.
final class TextLayout {
  private var layout: OpaquePointer?
  /// What the layout is made of, to make it again.
  private let text: String
  private let font: FontSpec
  private let maxWidth: Double?
  private let letterSpacing: Double
  /// Whether the text was cut to `maxWidth` when measured: a layout made again is cut the same way.
  private let isEllipsized: Bool
  /// The logical size in points.
  let size: PixelSize
  /// Distance from the top to the first baseline, in points.
  let baseline: Double
  /// Characters no installed font could draw (they would show as boxes).
  let unknownGlyphs: Int
  /// The font packages that would likely draw them (empty when nothing is missing).
  let missingFonts: Set<FontPackage>
  /// From the layout's origin to the top-left of its logical extents (non-zero for right-aligned text).
  private let offset: PixelPoint

  /// Text measured against a Cairo context (any context: the metrics do not depend on it). `letterSpacing`
  /// is extra space between letters, in points (Pango adds none after the last letter).
  init(
    text: String, font: FontSpec, maxWidth: Double?, letterSpacing: Double = 0, context: OpaquePointer,
    keepsLayout: Bool = true
  ) {
    let single = Self.visiblePart(of: text, font: font, maxWidth: maxWidth)
      .split(whereSeparator: \.isNewline).joined(separator: " ")
    self.text = single
    self.font = font
    self.maxWidth = maxWidth
    self.letterSpacing = letterSpacing
    let layout = Self.makeLayout(
      text: single, font: font, maxWidth: maxWidth, letterSpacing: letterSpacing, context: context)
    isEllipsized = pango_layout_get_width(layout) >= 0
    let scale = Double(TextLayout.pangoScale)
    let logical = TextLayout.logicalRect(layout)
    offset = PixelPoint(x: -Double(logical.x) / scale, y: -Double(logical.y) / scale)
    size = PixelSize(width: Double(logical.width) / scale, height: Double(logical.height) / scale)
    baseline = Double(pango_layout_get_baseline(layout)) / scale
    unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
    missingFonts = unknownGlyphs > 0 ? FontPackage.candidates(for: single) : []
    if keepsLayout {
      self.layout = layout
    } else {
      g_object_unref(UnsafeMutableRawPointer(layout))
    }
  }

  /// A layout of `text`, cut to `maxWidth` when it is wider (or, with `ellipsized` given, as that says).
  private static func makeLayout(
    text: String, font: FontSpec, maxWidth: Double?, letterSpacing: Double, context: OpaquePointer,
    ellipsized: Bool? = nil
  ) -> OpaquePointer {
    let layout = pango_cairo_create_layout(context)!
    let pangoContext = pango_layout_get_context(layout)
    pango_cairo_context_set_font_options(pangoContext, TextLayout.fontOptions)
    pango_layout_context_changed(layout)
    let description = pango_font_description_new()
    pango_font_description_set_family(description, font.family)
    pango_font_description_set_absolute_size(description, font.size * Double(TextLayout.pangoScale))
    pango_font_description_set_weight(description, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    pango_layout_set_single_paragraph_mode(layout, 1)
    let scale = Double(TextLayout.pangoScale)
    if letterSpacing > 0, let attributes = pango_attr_list_new() {
      pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(Int32(letterSpacing * scale)))
      pango_layout_set_attributes(layout, attributes)
      pango_attr_list_unref(attributes)
    }
    pango_layout_set_text(layout, text, -1)
    // Only a text that is too long gets a width: a set width also aligns right-to-left text to its right
    // edge, which would move a short Arabic or Hebrew title away from its bubble's left padding.
    if let maxWidth,
      ellipsized ?? (Double(TextLayout.logicalRect(layout).width) / scale > maxWidth)
    {
      pango_layout_set_width(layout, Int32(maxWidth * scale))
      pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    }
    return layout
  }

  /// Whether the Pango layout is held now (for tests).
  var holdsLayout: Bool { layout != nil }

  /// The layout, made again on `context` (then kept) if it was let go.
  private func layout(for context: OpaquePointer) -> OpaquePointer {
    if let layout { return layout }
    let made = Self.makeLayout(
      text: text, font: font, maxWidth: maxWidth, letterSpacing: letterSpacing, context: context,
      ellipsized: isEllipsized)
    layout = made
    return made
  }

  /// No font sets more than a few characters per em, so past `maxWidth` only a bounded start of a text can
  /// show: Pango is never asked to shape a 20 MB title (it took 2 GB) to draw one line of it.
  static func visiblePart(of text: String, font: FontSpec, maxWidth: Double?) -> Substring {
    guard let maxWidth, maxWidth.isFinite, font.size > 0 else { return text[...] }
    let limit = max(64, Int(min(maxWidth / font.size * 8, 100_000)))
    let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex) ?? text.endIndex
    return text[..<end]
  }

  private static func logicalRect(_ layout: OpaquePointer) -> PangoRectangle {
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, nil, &logical)
    return logical
  }

  deinit {
    if let layout { g_object_unref(UnsafeMutableRawPointer(layout)) }
  }

  /// Draws the text with its top-left corner at `origin` (points) in the current source colour.
  func draw(at origin: PixelPoint, in context: OpaquePointer) {
    let layout = layout(for: context)
    cairo_move_to(context, origin.x + offset.x, origin.y + offset.y)
    pango_cairo_update_layout(context, layout)
    pango_cairo_show_layout(context, layout)
  }

  /// Adds the outline of the text, its top-left corner at `origin` (points), to the current path: a stroke
  /// of it is the halo that keeps a map label legible on any colour.
  func addPath(at origin: PixelPoint, in context: OpaquePointer) {
    let layout = layout(for: context)
    cairo_move_to(context, origin.x + offset.x, origin.y + offset.y)
    pango_cairo_update_layout(context, layout)
    pango_cairo_layout_path(context, layout)
  }

  /// Pango's fixed-point unit (PANGO_SCALE; the macro does not import into Swift).
  static let pangoScale: Int32 = 1024

  /// The cairo side of `GlyphRaster.current` (installing its fontconfig rule first). Created once, never
  /// changed.
  nonisolated(unsafe) static let fontOptions: OpaquePointer = GlyphRaster.current.makeFontOptions()
}

/// A Cairo context on a one-pixel surface, for measuring text before any canvas exists. One thread only.
final class MeasuringContext {
  let surface: OpaquePointer
  let context: OpaquePointer

  init() {
    // Every render makes one before any text: the glyph settings join fontconfig's configuration here,
    // once, before Pango or any other thread reads it.
    _ = TextLayout.fontOptions
    surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
    context = cairo_create(surface)
  }

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }
}
