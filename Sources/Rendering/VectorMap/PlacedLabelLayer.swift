import CCairo
import MapMath

/// The labels of one symbol layer as placed, drawn where the layer stands in the style: every halo of
/// the layer first, then every text, so that no halo covers a neighbour's letters.
///
/// Labels of equal paint share one path: one stroke for their halos (overlapping halos of neighbouring
/// letters are not blended twice), and in images one fill for the letters of every street name.
struct PlacedLabelLayer {
  let id: String
  var labels: [PlacedMapLabel] = []

  /// Draws the layer on one canvas, halos, then point labels' letters, then street names'.
  func draw(on canvas: Canvas) {
    drawHalos(labels.indices, on: canvas) { index, cr in
      guard case .point(let text, let origin) = labels[index].drawing else { return }
      text.addPath(at: origin, to: cr)
    }
    drawPointTexts(on: canvas)
    drawCurvedTexts(labels.indices, on: canvas)
  }

  /// Makes, on Pango's thread, what `drawInBand` reads: each point label's outline (nil for a street
  /// name), the street names' glyph outlines, all in points.
  func prepareForBands(on canvas: Canvas) -> [[PathElement]?] {
    let cr = canvas.context
    return labels.map { label in
      switch label.drawing {
      case .point(let text, let origin):
        cairo_new_path(cr)
        text.addPath(at: origin, to: cr)
        var elements: [PathElement] = []
        PathElement.forEach(inCurrentPathOf: cr) { elements.append($0) }
        cairo_new_path(cr)
        return elements
      case .curved(let text, _):
        text.prepareOutlines(using: cr)
        return nil
      }
    }
  }

  /// The part of the layer a band of an image draws without Pango, on any thread: the halos of the
  /// labels that reach into `drawn` (points) and the street names' letters, from `outlines`
  /// (`prepareForBands`). The point labels' letters follow on the whole image (`drawPointTexts`).
  func drawInBand(on canvas: Canvas, drawn: PixelRect, outlines: [[PathElement]?]) {
    let shown = labels.indices.filter { index in
      // Letters may reach a little past their line box; halos past the letters.
      let margin = 8 + 2 * labels[index].paint.haloWidth
      return labels[index].rect.insetBy(dx: -margin, dy: -margin).intersects(drawn)
    }
    guard !shown.isEmpty else { return }
    drawHalos(shown, on: canvas) { index, cr in
      if let elements = outlines[index] { PathElement.add(elements, to: cr) }
    }
    drawCurvedTexts(shown, on: canvas)
  }

  /// Every halo of `members` (indices into `labels`), one path per halo paint; `addPointOutline` adds a
  /// point label's letters to the current path.
  private func drawHalos(
    _ members: some Collection<Int>, on canvas: Canvas, addPointOutline: (Int, OpaquePointer) -> Void
  ) {
    let cr = canvas.context
    cairo_save(cr)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for (halo, group) in groups(members, where: { $0.haloWidth > 0 && $0.halo.alpha > 0 }, by: { $0.halo }) {
      cairo_new_path(cr)
      for index in group {
        switch labels[index].drawing {
        case .point: addPointOutline(index, cr)
        case .curved(let text, let placed): text.addPath(placed, to: cr)
        }
      }
      let width = 2 * (group.first.map { labels[$0].paint.haloWidth } ?? 0)
      // A halo is the outline stroked with round joins and caps: in images, the coverage mask's shape.
      if canvas.format == .png {
        // Flattened to a quarter pixel: the mask keeps no points closer than half a pixel anyway.
        cairo_set_tolerance(cr, 0.25)
        canvas.lineCoverageMask.addCurrentPath(of: cr, width: width * canvas.scale, scale: canvas.scale)
        cairo_new_path(cr)
        canvas.lineCoverageMask.paint(halo, on: canvas)
        continue
      }
      canvas.drawing.setColor(halo)
      cairo_set_line_width(cr, width)
      cairo_stroke(cr)
    }
    cairo_new_path(cr)
    cairo_restore(cr)
  }

  /// The point labels' letters (Pango, one thread).
  func drawPointTexts(on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    for label in labels {
      guard case .point(let text, let origin) = label.drawing else { continue }
      cairo_new_path(cr)
      canvas.drawing.setColor(label.paint.color)
      text.drawText(at: origin, on: cr)
    }
    cairo_new_path(cr)
    cairo_restore(cr)
  }

  /// The street names' letters among `members`, one path per colour.
  private func drawCurvedTexts(_ members: some Collection<Int>, on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    for (color, group) in groups(members, where: { _ in true }, by: { $0.color }) {
      cairo_new_path(cr)
      canvas.drawing.setColor(color)
      for index in group {
        guard case .curved(let text, let placed) = labels[index].drawing else { continue }
        // Images fill the outlines (fast); SVG and PDF keep real glyphs.
        if canvas.format == .png { text.addPath(placed, to: cr) } else { text.show(placed, on: cr) }
      }
      if canvas.format == .png {
        // Cairo's coarse antialiasing (4×4 samples a pixel, edges in sixteenths, as the halos): half
        // the scan conversion of every street name.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
        cairo_fill(cr)
      }
    }
    cairo_new_path(cr)
    cairo_restore(cr)
  }

  /// `members` (indices into `labels`) grouped by a colour of their paint (halo groups also by halo
  /// width), in order of first appearance.
  private func groups(
    _ indices: some Collection<Int>, where include: (LabelPaint) -> Bool, by color: (LabelPaint) -> Color
  ) -> [(Color, [Int])] {
    var order: [LabelPaint] = []
    var members: [LabelPaint: [Int]] = [:]
    for index in indices where include(labels[index].paint) {
      var key = labels[index].paint
      key.color = color(key)
      key.halo = key.color
      if members[key] == nil { order.append(key) }
      members[key, default: []].append(index)
    }
    return order.map { ($0.color, members[$0] ?? []) }
  }
}
