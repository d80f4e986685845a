import CCairo
import MapMath

/// One line of a basemap label, set by Pango like `TextLayout` (same font options, so the metrics do not
/// depend on the scale or the format), but with letter spacing and the text's outline as a path: the halo
/// that keeps a label legible is a stroke of that outline. Owns a Pango layout, used on one thread only.
final class LabelText {
  private let layout: OpaquePointer
  /// The logical size in points.
  let size: PixelSize
  /// Characters no installed font could draw.
  let unknownGlyphs: Int
  private let offset: PixelPoint

  /// `letterSpacing` is extra space between letters, in points.
  init(text: String, font: FontSpec, letterSpacing: Double = 0, context: OpaquePointer) {
    layout = pango_cairo_create_layout(context)
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), TextLayout.fontOptions)
    pango_layout_context_changed(layout)
    let scale = Double(TextLayout.pangoScale)
    let description = pango_font_description_new()
    pango_font_description_set_family(description, font.family)
    pango_font_description_set_absolute_size(description, font.size * scale)
    pango_font_description_set_weight(description, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    pango_layout_set_single_paragraph_mode(layout, 1)
    if letterSpacing > 0, let attributes = pango_attr_list_new() {
      pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(Int32(letterSpacing * scale)))
      pango_layout_set_attributes(layout, attributes)
      pango_attr_list_unref(attributes)
    }
    pango_layout_set_text(layout, text, -1)
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, nil, &logical)
    // Pango adds the letter spacing between letters only (none after the last), so the logical extents are
    // the text's own.
    offset = PixelPoint(x: -Double(logical.x) / scale, y: -Double(logical.y) / scale)
    size = PixelSize(width: Double(logical.width) / scale, height: Double(logical.height) / scale)
    unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(layout))
  }

  /// Adds the outline of the text, its top-left corner at `origin` (points), to the current path.
  func addPath(at origin: PixelPoint, in context: OpaquePointer) {
    cairo_move_to(context, origin.x + offset.x, origin.y + offset.y)
    pango_cairo_update_layout(context, layout)
    pango_cairo_layout_path(context, layout)
  }

  /// Draws the text, its top-left corner at `origin` (points), in the current source colour.
  func draw(at origin: PixelPoint, in context: OpaquePointer) {
    cairo_move_to(context, origin.x + offset.x, origin.y + offset.y)
    pango_cairo_update_layout(context, layout)
    pango_cairo_show_layout(context, layout)
  }
}
