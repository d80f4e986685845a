import CCairo
import MapMath

/// A line label's text as Pango shaped it, taken apart into glyphs so that each can be placed and turned
/// along a street: its advance, its centre's distance from the text's start, and a one-glyph Pango glyph
/// string that draws it (as a real glyph in SVG and PDF). Owns its Pango layout (which keeps the fonts
/// alive) and the glyph strings; one thread only, but once `prepareOutlines` has run, `addPath` on
/// any number.
final class CurvedLabelText {
  struct Glyph {
    /// From the text's start to the glyph's centre, in points.
    let center: Double
    /// The glyph's advance, in points.
    let advance: Double
    let font: UnsafeMutablePointer<PangoFont>
    let string: UnsafeMutablePointer<PangoGlyphString>
  }

  private let layout: OpaquePointer
  private(set) var glyphs: [Glyph] = []
  /// Each glyph's outline, read on first use.
  private var outlines: [GlyphOutline]?
  /// The text's length along the line, in points.
  let length: Double
  /// The height of the text's line box, in points.
  let height: Double
  /// From the middle of the line box (which sits on the street) down to the baseline, in points.
  let baselineShift: Double
  /// Characters no installed font could draw.
  let unknownGlyphs: Int

  init(text: String, font: LabelFont, context: OpaquePointer) {
    layout = font.makeLayout(text, context: context)
    pango_layout_set_single_paragraph_mode(layout, 1)
    let scale = Double(TextLayout.pangoScale)
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, nil, &logical)
    length = Double(logical.width) / scale
    height = Double(logical.height) / scale
    baselineShift = Double(pango_layout_get_baseline(layout)) / scale - height / 2
    unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
    var x = -Double(logical.x) / scale
    var run = pango_layout_get_line_readonly(layout, 0)?.pointee.runs
    while let node = run {
      defer { run = node.pointee.next }
      guard let data = node.pointee.data else { continue }
      let item = data.assumingMemoryBound(to: PangoGlyphItem.self).pointee
      guard let font = item.item?.pointee.analysis.font, let string = item.glyphs else { continue }
      for index in 0..<Int(max(string.pointee.num_glyphs, 0)) {
        var info = string.pointee.glyphs[index]
        let advance = Double(info.geometry.width) / scale
        // The glyph's own offset stays in its string; the advance is placed along the street.
        info.geometry.width = 0
        guard let single = pango_glyph_string_new() else { continue }
        pango_glyph_string_set_size(single, 1)
        single.pointee.glyphs[0] = info
        single.pointee.log_clusters[0] = 0
        glyphs.append(Glyph(center: x + advance / 2, advance: advance, font: font, string: single))
        x += advance
      }
    }
  }

  deinit {
    for glyph in glyphs { pango_glyph_string_free(glyph.string) }
    g_object_unref(UnsafeMutableRawPointer(layout))
  }

  /// One glyph as placed: where its centre sits on the street and the street's direction there.
  struct Placed {
    var point: PixelPoint
    /// Radians, clockwise on screen from the x axis.
    var angle: Double
  }

  /// Adds every glyph's outline to the current path: under the halo's stroke, and for images also
  /// the letters themselves (filled), which is much faster than showing turned glyphs.
  /// Made on first use, or before by `prepareOutlines` (then any thread may draw them at once).
  func addPath(_ placed: [Placed], to cr: OpaquePointer) {
    prepareOutlines(using: cr)
    guard let outlines else { return }
    for ((glyph, outline), place) in zip(zip(glyphs, outlines), placed) {
      outline.add(to: cr, origin: place.point, angle: place.angle, dx: -glyph.advance / 2, dy: baselineShift)
    }
  }

  /// Reads every glyph's outline through `cr` (Pango), unless done before. The context's current path
  /// (the halos of the labels before this one) is kept.
  func prepareOutlines(using cr: OpaquePointer) {
    guard outlines == nil else { return }
    let kept = cairo_copy_path(cr)
    defer { cairo_path_destroy(kept) }
    outlines = glyphs.map { GlyphOutline(font: $0.font, string: $0.string, cr: cr) }
    cairo_new_path(cr)
    if let kept, kept.pointee.status == CAIRO_STATUS_SUCCESS, kept.pointee.num_data > 0 {
      cairo_append_path(cr, kept)
    }
  }

  /// Draws every glyph as text (SVG and PDF keep real glyphs) in the current source colour.
  func show(_ placed: [Placed], on cr: OpaquePointer) {
    for (glyph, place) in zip(glyphs, placed) {
      cairo_save(cr)
      cairo_translate(cr, place.point.x, place.point.y)
      cairo_rotate(cr, place.angle)
      cairo_move_to(cr, -glyph.advance / 2, baselineShift)
      pango_cairo_show_glyph_string(cr, glyph.font, glyph.string)
      cairo_restore(cr)
    }
  }
}
