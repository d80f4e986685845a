import CCairo
import Foundation
import MapStyle

/// The font of a label as Pango wants it: a family list (the style's fonts, then the fallbacks), a
/// weight, a slant and a size in points.
struct LabelFont: Hashable {
  var families: String
  var weight: FontWeight
  var style: FontStyle
  var size: Double
  /// Extra space between letters, in points.
  var letterSpacing: Double

  /// A style's `text-font` stack read through `FontFace`: every named family in order, then
  /// `fallback` (families installed on every machine, so labels look the same everywhere); weight and
  /// slant from the first name.
  init(stack: [String], size: Double, letterSpacing: Double, fallback: String) {
    let faces = stack.prefix(8).map(FontFace.init(fontStack:))
    var names: [String] = []
    for face in faces where !face.family.isEmpty && !names.contains(face.family) { names.append(face.family) }
    for name in fallback.split(separator: ",") {
      let trimmed = name.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty, !names.contains(trimmed) { names.append(trimmed) }
    }
    families = names.joined(separator: ",")
    weight = faces.first?.weight ?? .regular
    style = faces.first?.style ?? .normal
    self.size = size
    self.letterSpacing = letterSpacing
  }

  /// Sets the font (and letter spacing) on a Pango layout.
  func apply(to layout: OpaquePointer) {
    let description = pango_font_description_new()
    pango_font_description_set_family(description, families)
    pango_font_description_set_absolute_size(description, size * Double(TextLayout.pangoScale))
    pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(weight.rawValue)))
    switch style {
    case .normal: pango_font_description_set_style(description, PANGO_STYLE_NORMAL)
    case .italic: pango_font_description_set_style(description, PANGO_STYLE_ITALIC)
    case .oblique: pango_font_description_set_style(description, PANGO_STYLE_OBLIQUE)
    }
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    if letterSpacing != 0, let attributes = pango_attr_list_new() {
      let spacing = Int32(clamping: Int((letterSpacing * Double(TextLayout.pangoScale)).rounded()))
      pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(spacing))
      pango_layout_set_attributes(layout, attributes)
      pango_attr_list_unref(attributes)
    }
  }

  /// A Pango layout for `text` on the measuring context, hinting off (metrics equal at every scale).
  func makeLayout(_ text: String, context: OpaquePointer) -> OpaquePointer {
    let layout = pango_cairo_create_layout(context)!
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), TextLayout.fontOptions)
    pango_layout_context_changed(layout)
    apply(to: layout)
    pango_layout_set_text(layout, text, -1)
    return layout
  }
}

/// How a label is painted: colours with opacity folded in, and the halo's width in points.
struct LabelPaint: Hashable {
  var color: Color
  var halo: Color
  var haloWidth: Double
}
