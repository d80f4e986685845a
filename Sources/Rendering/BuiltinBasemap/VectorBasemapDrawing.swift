import CCairo
import MapMath

/// Painting the built-in basemap: everything was read, clipped and placed when the layer was made.
extension VectorBasemapLayer {
  /// Line widths are a little thinner when the whole world is on the map.
  private var widthFactor: Double { min(1, 0.55 + 0.15 * max(zoom, 0)) }

  /// Rivers widen from a point at zoom 5 to 1.8 points at zoom 9.
  private var riverWidth: Double { min(max(1 + 0.2 * (zoom - 5), 1), 2) }

  /// Paints the sea, land, lakes, rivers, coastline, borders and names, in that order: in an image the
  /// geometry and the names' dots and halos in horizontal bands on every core (`BandedDrawing`; `bands`
  /// overrides its rows), the names' text (Pango, one thread) over the whole canvas after.
  func draw(on canvas: Canvas, bands: [Range<Int>]? = nil) {
    bandedDrawing(on: canvas, bands: bands).draw(on: canvas)
  }

  /// The layer as bands and a top (`draw`): the geometry in the bands, then the names' dots and halos
  /// (their outlines made by `prepare`), the names' text on top.
  func bandedDrawing(on canvas: Canvas, bands: [Range<Int>]? = nil) -> BandedMapDrawing {
    let geometry = BandGeometry(self)
    let halos = PreparedForBands<LabelHalos>()
    // Each band draws only its parts of the geometry, so bands cost little: four even ones from 400 rows.
    let rows = bands ?? BandedDrawing.bands(pixelHeight: canvas.pixelHeight, minimumRows: 100)
    return BandedMapDrawing(
      rows: rows,
      band: { band, drawn in self.drawGeometry(geometry, on: band, drawn: drawn) },
      prepare: { halos.value = LabelHalos(self, canvas: canvas) },
      late: { band, drawn in
        if let made = halos.value { self.drawDotsAndHalos(made, on: band, drawn: drawn) }
      },
      top: { self.drawLabelText($0) }, release: { halos.value?.release() })
  }

  /// The names' dots and halos, made on the one thread that may use Pango: each halo is the outline of a
  /// line of text (`TextLayout.addPath`) copied out of Cairo, with its bounds, so that the bands can stroke
  /// those that reach into them. Halos and dots go before every name's text; names never overlap one
  /// another, so that is the same picture as each name drawn whole in turn. Unchecked: the bands only read
  /// the copied paths, which `release` frees once they are drawn.
  private struct LabelHalos: @unchecked Sendable {
    struct Mark {
      var dot: PixelRect?
      var halos: [(path: UnsafeMutablePointer<cairo_path_t>, bounds: PixelRect)]
    }

    let marks: [Mark]

    init(_ layer: VectorBasemapLayer, canvas: Canvas) {
      let cr = canvas.context
      let haloWidth = layer.style.labelHaloWidth
      var marks: [Mark] = []
      for entry in layer.labels.entries {
        var mark = Mark(dot: entry.label.dot, halos: [])
        for (line, origin) in entry.placedLines where haloWidth > 0 {
          cairo_new_path(cr)
          line.addPath(at: origin, in: cr)
          var (left, top, right, bottom) = (0.0, 0.0, 0.0, 0.0)
          cairo_path_extents(cr, &left, &top, &right, &bottom)
          if let path = cairo_copy_path(cr) {
            mark.halos.append(
              (path, PixelRect(x: left, y: top, width: right - left, height: bottom - top)))
          }
          cairo_new_path(cr)
        }
        marks.append(mark)
      }
      self.marks = marks
    }

    func release() {
      for mark in marks { for halo in mark.halos { cairo_path_destroy(halo.path) } }
    }
  }

  /// The names' dots and halos that reach into `drawn` (points), in the names' order. Runs on several
  /// threads at once, one band each: it only reads.
  private func drawDotsAndHalos(_ halos: LabelHalos, on canvas: Canvas, drawn: PixelRect) {
    let cr = canvas.context
    let haloWidth = style.labelHaloWidth
    // Past a mark's bounds: half its stroke, and its antialiased edge.
    let reach = drawn.insetBy(dx: -(haloWidth + 2), dy: -(haloWidth + 2))
    cairo_save(cr)
    // Round joins and ends for the halos.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for mark in halos.marks {
      if let dot = mark.dot {
        let radius = style.cityDotRadius
        let bounds = PixelRect(
          x: dot.midX - radius, y: dot.midY - radius, width: 2 * radius, height: 2 * radius)
        if bounds.intersects(reach) {
          cairo_new_path(cr)
          cairo_arc(cr, dot.midX, dot.midY, radius, 0, 2 * .pi)
          canvas.drawing.setColor(style.cityDot)
          cairo_fill_preserve(cr)
          canvas.drawing.setColor(style.labelHalo)
          cairo_set_line_width(cr, 1)
          cairo_stroke(cr)
        }
      }
      for halo in mark.halos where halo.bounds.intersects(reach) {
        cairo_new_path(cr)
        cairo_append_path(cr, halo.path)
        canvas.drawing.setColor(style.labelHalo)
        cairo_set_line_width(cr, 2 * haloWidth)
        cairo_stroke(cr)
      }
    }
    cairo_restore(cr)
  }

  /// Each kind of line or area with the bounds of each of its parts, so that a band draws only the parts
  /// that reach into it (`drawn`, in points, widened by `margin`). A part is drawn whole or not at all:
  /// one that misses the band would give none of its pixels any ink (a dash pattern starts again with each
  /// part, and a ring's winding counts only inside its bounds), so the bands are the one drawing's pixels.
  private struct BandGeometry: @unchecked Sendable {
    struct Kind {
      let parts: [[PixelPoint]]
      let bounds: [PixelRect]

      init(_ parts: [[PixelPoint]]) {
        self.parts = parts
        bounds = parts.map { PixelRect.enclosing($0) ?? PixelRect(x: 0, y: 0, width: 0, height: 0) }
      }

      /// The parts that reach into `drawn` widened by `margin` on every side.
      func parts(reaching drawn: PixelRect, margin: Double) -> [[PixelPoint]] {
        let wide = drawn.insetBy(dx: -margin, dy: -margin)
        return parts.indices.filter { bounds[$0].intersects(wide) }.map { parts[$0] }
      }
    }

    let land, lakes, rivers, coastlines, stateBorders, countryBorders: Kind

    init(_ layer: VectorBasemapLayer) {
      land = Kind(layer.land)
      lakes = Kind(layer.lakes)
      rivers = Kind(layer.rivers)
      coastlines = Kind(layer.coastlines)
      stateBorders = Kind(layer.stateBorders)
      countryBorders = Kind(layer.countryBorders)
    }
  }

  /// The sea, land, lakes, rivers, coastline and borders that reach into `drawn` (points). Runs on several
  /// threads at once, one band each: it only reads the layer.
  private func drawGeometry(_ geometry: BandGeometry, on canvas: Canvas, drawn: PixelRect) {
    let cr = canvas.context
    // Past a part's bounds: its antialiased edge, and half its line's width (round or bevelled ends).
    let margin = 2 + max(style.coastlineWidth, style.stateBorderWidth, style.countryBorderWidth, riverWidth)
    func parts(_ kind: BandGeometry.Kind) -> [[PixelPoint]] { kind.parts(reaching: drawn, margin: margin) }
    cairo_save(cr)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: size.width, height: size.height), color: style.water)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    fill(parts(geometry.land), color: style.land, canvas)
    fill(parts(geometry.lakes), color: style.lake, canvas)
    // Round joins and ends for the lines.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    // The lines are two points wide at most, and cairo's fast antialiasing (a coarser grid of samples)
    // draws them alike to the eye in half the time of its default, which was most of a render of a
    // continent (zoom 5, 800×600: the strokes 66 → 30 ms). Fills and names keep the default.
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
    stroke(parts(geometry.rivers), color: style.lake, width: riverWidth, canvas)
    stroke(
      parts(geometry.coastlines), color: style.coastline, width: style.coastlineWidth * widthFactor, canvas)
    // Thousands of short dashes: square ends and bevelled corners, which at this width look the same
    // as round ones, save the stroker a third of its work.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    stroke(
      parts(geometry.stateBorders), color: style.stateBorder, width: style.stateBorderWidth, canvas,
      dashed: true)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    stroke(
      parts(geometry.countryBorders), color: style.countryBorder,
      width: style.countryBorderWidth * widthFactor, canvas)
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

  /// The names' text, over their halos.
  private func drawLabelText(_ canvas: Canvas) {
    let cr = canvas.context
    for entry in labels.entries {
      let color = entry.kind == .country || labels.isAreaZoom ? style.countryLabel : style.cityLabel
      for (line, origin) in entry.placedLines {
        cairo_new_path(cr)
        canvas.drawing.setColor(color)
        line.draw(at: origin, in: cr)
      }
    }
  }
}
