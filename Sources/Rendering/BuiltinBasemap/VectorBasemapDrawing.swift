import CCairo
import MapMath

/// Painting the built-in basemap: everything was read, clipped and placed when the layer was made.
extension VectorBasemapLayer {
  /// Line widths are a little thinner when the whole world is on the map.
  private var widthFactor: Double { min(1, 0.55 + 0.15 * max(zoom, 0)) }

  /// Rivers widen from a point at zoom 5 to 1.8 points at zoom 9.
  private var riverWidth: Double { min(max(1 + 0.2 * (zoom - 5), 1), 2) }

  /// Paints the sea, land, lakes, rivers, coastline, borders and names, in that order.
  func draw(on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: size.width, height: size.height), color: style.water)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    fill(land, color: style.land, canvas)
    fill(lakes, color: style.lake, canvas)
    // Round joins and ends for the lines and the names' halos.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    // The lines are two points wide at most, and cairo's fast antialiasing (a coarser grid of samples)
    // draws them alike to the eye in half the time of its default, which was most of a render of a
    // continent (zoom 5, 800×600: the strokes 66 → 30 ms). Fills and names keep the default.
    cairo_save(cr)
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
    stroke(rivers, color: style.lake, width: riverWidth, canvas)
    stroke(coastlines, color: style.coastline, width: style.coastlineWidth * widthFactor, canvas)
    // Thousands of short dashes: square ends and bevelled corners, which at this width look the same
    // as round ones, save the stroker a third of its work.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    stroke(stateBorders, color: style.stateBorder, width: style.stateBorderWidth, canvas, dashed: true)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    stroke(countryBorders, color: style.countryBorder, width: style.countryBorderWidth * widthFactor, canvas)
    cairo_restore(cr)
    drawLabels(canvas)
    cairo_restore(cr)
  }

  private func addPath(_ parts: [[PixelPoint]], closed: Bool, _ cr: OpaquePointer) {
    for part in parts {
      guard let first = part.first else { continue }
      cairo_move_to(cr, first.x, first.y)
      for point in part.dropFirst() { cairo_line_to(cr, point.x, point.y) }
      if closed { cairo_close_path(cr) }
    }
  }

  private func fill(_ rings: [[PixelPoint]], color: Color, _ canvas: Canvas) {
    guard !rings.isEmpty else { return }
    cairo_new_path(canvas.context)
    addPath(rings, closed: true, canvas.context)
    canvas.drawing.setColor(color)
    cairo_fill(canvas.context)
  }

  private func stroke(
    _ lines: [[PixelPoint]], color: Color, width: Double, _ canvas: Canvas, dashed: Bool = false
  ) {
    guard !lines.isEmpty, width > 0 else { return }
    let cr = canvas.context
    cairo_new_path(cr)
    addPath(lines, closed: false, cr)
    canvas.drawing.setColor(color)
    cairo_set_line_width(cr, width)
    if dashed {
      let pattern = [4 * width, 2.5 * width]
      cairo_set_dash(cr, pattern, Int32(pattern.count), 0)
    }
    cairo_stroke(cr)
    if dashed { cairo_set_dash(cr, nil, 0, 0) }
  }

  private func drawLabels(_ canvas: Canvas) {
    let cr = canvas.context
    let halo = style.labelHaloWidth
    for entry in labels.entries {
      if let dot = entry.label.dot {
        let radius = style.cityDotRadius
        cairo_new_path(cr)
        cairo_arc(cr, dot.midX, dot.midY, radius, 0, 2 * .pi)
        canvas.drawing.setColor(style.cityDot)
        cairo_fill_preserve(cr)
        canvas.drawing.setColor(style.labelHalo)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
      }
      var y = entry.label.text.minY
      let color = entry.kind == .country || labels.isAreaZoom ? style.countryLabel : style.cityLabel
      for line in entry.lines {
        // Each line centred in the block.
        let origin = PixelPoint(x: entry.label.text.midX - line.size.width / 2, y: y)
        if halo > 0 {
          cairo_new_path(cr)
          line.addPath(at: origin, in: cr)
          canvas.drawing.setColor(style.labelHalo)
          cairo_set_line_width(cr, 2 * halo)
          cairo_stroke(cr)
        }
        cairo_new_path(cr)
        canvas.drawing.setColor(color)
        line.draw(at: origin, in: cr)
        y += line.size.height
      }
    }
  }
}
