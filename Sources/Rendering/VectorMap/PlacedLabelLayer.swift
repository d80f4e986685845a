import CCairo
import MapMath

/// The labels of one symbol layer as placed, drawn where the layer stands in the style: every halo of
/// the layer first, then every text, so that no halo covers a neighbour's letters.
struct PlacedLabelLayer {
  let id: String
  var labels: [PlacedMapLabel] = []

  func draw(on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for label in labels {
      let paint = label.paint
      guard paint.haloWidth > 0, paint.halo.alpha > 0 else { continue }
      switch label.drawing {
      case .point(let text, let origin):
        text.drawHalo(at: origin, paint: paint, on: cr)
      case .curved(let text, let placed):
        cairo_new_path(cr)
        text.addPath(placed, to: cr)
        canvas.drawing.setColor(paint.halo)
        cairo_set_line_width(cr, 2 * paint.haloWidth)
        cairo_stroke(cr)
      }
    }
    for label in labels {
      cairo_new_path(cr)
      canvas.drawing.setColor(label.paint.color)
      switch label.drawing {
      case .point(let text, let origin):
        text.drawText(at: origin, on: cr)
      case .curved(let text, let placed):
        text.show(placed, on: cr)
      }
    }
    cairo_new_path(cr)
    cairo_restore(cr)
  }
}
