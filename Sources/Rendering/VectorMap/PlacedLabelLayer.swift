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

  func draw(on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for (halo, members) in groups(where: { $0.haloWidth > 0 && $0.halo.alpha > 0 }, by: { $0.halo }) {
      cairo_new_path(cr)
      for label in members {
        switch label.drawing {
        case .point(let text, let origin): text.addPath(at: origin, to: cr)
        case .curved(let text, let placed): text.addPath(placed, to: cr)
        }
      }
      let width = 2 * (members.first?.paint.haloWidth ?? 0)
      // A halo is the outline stroked with round joins and caps: in images, the coverage mask's shape.
      if canvas.format == .png {
        canvas.lineCoverageMask.addCurrentPath(of: cr, width: width * canvas.scale, scale: canvas.scale)
        cairo_new_path(cr)
        canvas.lineCoverageMask.paint(halo, on: canvas)
        continue
      }
      canvas.drawing.setColor(halo)
      cairo_set_line_width(cr, width)
      cairo_stroke(cr)
    }
    for label in labels {
      guard case .point(let text, let origin) = label.drawing else { continue }
      cairo_new_path(cr)
      canvas.drawing.setColor(label.paint.color)
      text.drawText(at: origin, on: cr)
    }
    for (color, members) in groups(where: { _ in true }, by: { $0.color }) {
      cairo_new_path(cr)
      canvas.drawing.setColor(color)
      for label in members {
        guard case .curved(let text, let placed) = label.drawing else { continue }
        // Images fill the outlines (fast); SVG and PDF keep real glyphs.
        if canvas.format == .png { text.addPath(placed, to: cr) } else { text.show(placed, on: cr) }
      }
      if canvas.format == .png {
        // Cairo's coarse antialiasing (4×4 samples a pixel, edges in sixteenths, as the halos): half
        // the scan conversion of every street name, which is drawn while the other core idles.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
        cairo_fill(cr)
      }
    }
    cairo_new_path(cr)
    cairo_restore(cr)
  }

  /// Labels grouped by a colour of their paint (halo groups also by halo width), in order of first
  /// appearance.
  private func groups(where include: (LabelPaint) -> Bool, by color: (LabelPaint) -> Color)
    -> [(Color, [PlacedMapLabel])]
  {
    var order: [LabelPaint] = []
    var members: [LabelPaint: [PlacedMapLabel]] = [:]
    for label in labels where include(label.paint) {
      var key = label.paint
      key.color = color(label.paint)
      key.halo = key.color
      if members[key] == nil { order.append(key) }
      members[key, default: []].append(label)
    }
    return order.map { ($0.color, members[$0] ?? []) }
  }
}
