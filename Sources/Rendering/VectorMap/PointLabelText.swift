import CCairo
import MapMath
import MapStyle

/// The text block of a point label set by Pango: wrapped at `text-max-width`, lines `text-line-height`
/// apart and aligned by `text-justify`. Owns a Pango layout, used on one thread only.
final class PointLabelText {
  private let layout: OpaquePointer
  /// The block's size in points.
  let size: PixelSize
  /// From the layout's origin to the top-left of its logical extents.
  private let offset: PixelPoint
  /// Characters no installed font could draw.
  let unknownGlyphs: Int

  /// - Parameters:
  ///   - maxWidth: points before a line wraps (0: never).
  ///   - lineHeight: points from one baseline to the next.
  init(
    text: String, font: LabelFont, maxWidth: Double, lineHeight: Double, justify: TextJustify,
    anchor: TextAnchor, context: OpaquePointer
  ) {
    layout = font.makeLayout(text, context: context)
    let scale = Double(TextLayout.pangoScale)
    // MapLibre wraps only a label wider than the maximum, and balances nothing else.
    if maxWidth > 0, Self.logicalRect(layout).width > Int32(clamping: Int(maxWidth * scale)) {
      pango_layout_set_width(layout, Int32(clamping: Int(maxWidth * scale)))
      pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }
    if pango_layout_get_line_count(layout) > 1 {
      // Pango's factor multiplies the font's own line height; the style gives baseline distances.
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      pango_layout_line_get_extents(pango_layout_get_line_readonly(layout, 0), &ink, &logical)
      let natural = Double(logical.height) / scale
      if natural > 0 { pango_layout_set_line_spacing(layout, Float(lineHeight / natural)) }
      pango_layout_set_alignment(layout, Self.alignment(justify, anchor))
    }
    let logical = Self.logicalRect(layout)
    offset = PixelPoint(x: -Double(logical.x) / scale, y: -Double(logical.y) / scale)
    size = PixelSize(width: Double(logical.width) / scale, height: Double(logical.height) / scale)
    unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(layout))
  }

  private static func logicalRect(_ layout: OpaquePointer) -> PangoRectangle {
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, nil, &logical)
    return logical
  }

  /// `text-justify`; `auto` follows the anchor's side, as in MapLibre.
  private static func alignment(_ justify: TextJustify, _ anchor: TextAnchor) -> PangoAlignment {
    switch justify {
    case .left: return PANGO_ALIGN_LEFT
    case .right: return PANGO_ALIGN_RIGHT
    case .center: return PANGO_ALIGN_CENTER
    case .auto:
      switch anchor {
      case .left, .topLeft, .bottomLeft: return PANGO_ALIGN_LEFT
      case .right, .topRight, .bottomRight: return PANGO_ALIGN_RIGHT
      default: return PANGO_ALIGN_CENTER
      }
    }
  }

  /// The block's rectangle for an anchor point: `text-anchor` says which of its parts sits there.
  static func rect(size: PixelSize, anchor: TextAnchor, at point: PixelPoint) -> PixelRect {
    let x: Double
    let y: Double
    switch anchor {
    case .left, .topLeft, .bottomLeft: x = point.x
    case .right, .topRight, .bottomRight: x = point.x - size.width
    default: x = point.x - size.width / 2
    }
    switch anchor {
    case .top, .topLeft, .topRight: y = point.y
    case .bottom, .bottomLeft, .bottomRight: y = point.y - size.height
    default: y = point.y - size.height / 2
    }
    return PixelRect(x: x, y: y, width: size.width, height: size.height)
  }

  /// Adds the letters' outlines to the current path (for the halo), the block's top-left at `origin`.
  func addPath(at origin: PixelPoint, to cr: OpaquePointer) {
    cairo_move_to(cr, origin.x + offset.x, origin.y + offset.y)
    pango_cairo_update_layout(cr, layout)
    pango_cairo_layout_path(cr, layout)
  }

  /// Draws the letters in the current source colour, the block's top-left at `origin` (points).
  func drawText(at origin: PixelPoint, on cr: OpaquePointer) {
    cairo_move_to(cr, origin.x + offset.x, origin.y + offset.y)
    pango_cairo_update_layout(cr, layout)
    pango_cairo_show_layout(cr, layout)
  }
}
