import CCairo
import MapMath

/// Draws MapKit-like pins: a glossy round head on a thin needle whose tip is exactly on the place, with a
/// soft ground shadow and the head's shadow cast down to the right.
struct PinLayer {
  let style: PinStyle
  let geometry: PinGeometry

  init(style: PinStyle) {
    self.style = style
    self.geometry = PinGeometry(style: style)
  }

  /// Draws the pins in the given order (callers sort north to south so southern pins overlap northern ones).
  func draw(at points: [PixelPoint], on canvas: Canvas) {
    for point in points { drawPin(at: point, on: canvas) }
  }

  private func drawPin(at tip: PixelPoint, on canvas: Canvas) {
    let cr = canvas.context
    let r = geometry.headRadius
    let head = PixelPoint(x: tip.x + geometry.headCenter.x, y: tip.y + geometry.headCenter.y)
    let offset = PinGeometry.shadowOffset

    // Ground shadow where the needle meets the map.
    canvas.softShadow(steps: 4, spread: 1.5, opacity: style.shadowOpacity) { spread in
      ellipse(cr, center: PixelPoint(x: tip.x + 1, y: tip.y), rx: 3 + spread, ry: 1.2 + spread / 2)
    }
    // The head's cast shadow.
    canvas.softShadow(steps: 4, spread: 1.5, opacity: style.shadowOpacity * 0.7) { spread in
      cairo_new_sub_path(cr)
      cairo_arc(cr, head.x + offset, head.y + offset, r - 0.5 + spread, 0, 2 * .pi)
    }

    // The needle: a thin wedge, widest under the head, a point at the place.
    let needleTop = head.y + r - 1
    let halfWidth = style.needleWidth / 2
    cairo_move_to(cr, tip.x - halfWidth, needleTop)
    cairo_line_to(cr, tip.x + halfWidth, needleTop)
    cairo_line_to(cr, tip.x + 0.25, tip.y)
    cairo_line_to(cr, tip.x - 0.25, tip.y)
    cairo_close_path(cr)
    let needle = cairo_pattern_create_linear(tip.x - halfWidth, 0, tip.x + halfWidth, 0)
    addStop(needle, 0, style.needleColor.lightened(0.35))
    addStop(needle, 1, style.needleColor.lightened(-0.25))
    cairo_set_source(cr, needle)
    cairo_fill(cr)
    cairo_pattern_destroy(needle)

    // The head: lit from the upper left.
    cairo_new_sub_path(cr)
    cairo_arc(cr, head.x, head.y, r, 0, 2 * .pi)
    let shading = cairo_pattern_create_radial(
      head.x - 0.35 * r, head.y - 0.4 * r, 0, head.x, head.y, r * 1.05)
    addStop(shading, 0, style.color.lightened(0.45))
    addStop(shading, 0.55, style.color)
    addStop(shading, 1, style.color.lightened(-0.22))
    cairo_set_source(cr, shading)
    cairo_fill_preserve(cr)
    cairo_pattern_destroy(shading)
    canvas.setColor(style.color.lightened(-0.45), alpha: 0.8)
    cairo_set_line_width(cr, 0.8)
    cairo_stroke(cr)

    // The gloss highlight.
    ellipse(cr, center: PixelPoint(x: head.x - 0.3 * r, y: head.y - 0.38 * r), rx: 0.42 * r, ry: 0.28 * r)
    cairo_set_source_rgba(cr, 1, 1, 1, 0.75)
    cairo_fill(cr)
  }
}

/// Adds an axis-aligned ellipse to the current path.
func ellipse(_ cr: OpaquePointer, center: PixelPoint, rx: Double, ry: Double) {
  cairo_save(cr)
  cairo_translate(cr, center.x, center.y)
  cairo_scale(cr, rx, ry)
  cairo_new_sub_path(cr)
  cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
  cairo_restore(cr)
}

/// Adds a colour stop to a Cairo gradient.
func addStop(_ pattern: OpaquePointer?, _ offset: Double, _ color: Color) {
  cairo_pattern_add_color_stop_rgba(pattern, offset, color.red, color.green, color.blue, color.alpha)
}
