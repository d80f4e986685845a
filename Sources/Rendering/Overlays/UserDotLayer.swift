import CCairo
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's position, as MapKit draws it: a blue dot in a white ring with a soft shadow, and a translucent
/// accuracy circle when the accuracy is known.
struct UserDotLayer {
  let style: UserDotStyle

  /// The rectangle the dot itself covers, in points relative to the position.
  var extent: PixelRect {
    let outer = style.radius + style.ringWidth + 1.5
    return PixelRect(x: -outer, y: -outer, width: 2 * outer, height: 2 * outer + 1)
  }

  /// Draws the dot at `point` (points); `accuracyRadius` is the accuracy circle's radius in points.
  /// The translucent accuracy circle around `point`, drawn under everything else of the map's overlays
  /// (as the app does), so that pins and callouts over it keep their own colours.
  func drawAccuracyCircle(at point: PixelPoint, radius accuracyRadius: Double?, on canvas: Canvas) {
    let cr = canvas.context
    if let accuracyRadius, accuracyRadius > style.radius + style.ringWidth {
      // A circle far larger than the image looks the same as one just past its farthest corner, and Cairo
      // would spend forever flattening the huge arc.
      var (left, top, right, bottom) = (0.0, 0.0, 0.0, 0.0)
      cairo_clip_extents(cr, &left, &top, &right, &bottom)
      let farthest =
        [(left, top), (right, top), (left, bottom), (right, bottom)]
        .map { hypot($0.0 - point.x, $0.1 - point.y) }.max() ?? 0
      cairo_new_sub_path(cr)
      cairo_arc(cr, point.x, point.y, min(accuracyRadius, farthest + 10), 0, 2 * .pi)
      canvas.drawing.setColor(style.color, alpha: style.accuracyFillOpacity)
      cairo_fill_preserve(cr)
      canvas.drawing.setColor(style.color, alpha: style.accuracyStrokeOpacity)
      cairo_set_line_width(cr, 1)
      cairo_stroke(cr)
    }
  }

  /// The blue dot itself, with its white ring and shadow.
  func drawDot(at point: PixelPoint, on canvas: Canvas) {
    let cr = canvas.context
    let outer = style.radius + style.ringWidth
    canvas.drawing.softShadow(steps: 4, spread: 2, opacity: style.shadowOpacity) { spread in
      cairo_new_sub_path(cr)
      cairo_arc(cr, point.x, point.y + 1, outer + spread - 0.5, 0, 2 * .pi)
    }
    cairo_new_sub_path(cr)
    cairo_arc(cr, point.x, point.y, outer, 0, 2 * .pi)
    canvas.drawing.setColor(style.ringColor)
    cairo_fill(cr)
    cairo_new_sub_path(cr)
    cairo_arc(cr, point.x, point.y, style.radius, 0, 2 * .pi)
    let shading = cairo_pattern_create_radial(
      point.x - style.radius * 0.3, point.y - style.radius * 0.3, 0, point.x, point.y, style.radius)
    addStop(shading, 0, style.color.lightened(0.25))
    addStop(shading, 1, style.color)
    cairo_set_source(cr, shading)
    cairo_fill(cr)
    cairo_pattern_destroy(shading)
  }
}
