import CCairo
import MapMath

/// Drawing helpers shared by the layers, over one Cairo context (a canvas, or a pin sprite's surface).
struct DrawingContext {
  let cr: OpaquePointer

  func setColor(_ color: Color) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
  }

  func setColor(_ color: Color, alpha: Double) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * alpha)
  }

  /// Adds a rounded rectangle to the current path.
  func addRoundedRect(_ rect: PixelRect, radius: Double) {
    let r = min(radius, rect.width / 2, rect.height / 2)
    cairo_new_sub_path(cr)
    cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -.pi / 2, 0)
    cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, .pi / 2)
    cairo_arc(cr, rect.minX + r, rect.maxY - r, r, .pi / 2, .pi)
    cairo_arc(cr, rect.minX + r, rect.minY + r, r, .pi, 3 * .pi / 2)
    cairo_close_path(cr)
  }

  func fillRect(_ rect: PixelRect, color: Color) {
    setColor(color)
    cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
    cairo_fill(cr)
  }

  /// A soft shadow without blur support: concentric translucent copies of a shape, widest first.
  func softShadow(steps: Int, spread: Double, opacity: Double, shape: (Double) -> Void) {
    guard steps > 0, opacity > 0 else { return }
    let stepOpacity = opacity / Double(steps)
    for step in stride(from: steps, through: 1, by: -1) {
      shape(spread * Double(step) / Double(steps))
      cairo_set_source_rgba(cr, 0, 0, 0, stepOpacity)
      cairo_fill(cr)
    }
  }
}
