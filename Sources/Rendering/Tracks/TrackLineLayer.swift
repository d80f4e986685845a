import CCairo
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws lines as cased lines with round joins and caps: every casing first, then every line, so that
/// where lines cross or a line meets itself no casing cuts through a line. Direction chevrons go on top.
struct TrackLineLayer {
  let style: TrackStyle

  func lineWidth(showsDirection: Bool) -> Double { showsDirection ? style.routeWidth : style.width }

  /// Half the widest drawn line, casing included, in points.
  var halfWidth: Double { max(style.width, style.routeWidth) / 2 + style.casingWidth }

  func draw(_ lines: [(pieces: [[PixelPoint]], showsDirection: Bool)], on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for (pieces, showsDirection) in lines {
      cairo_set_line_width(cr, lineWidth(showsDirection: showsDirection) + 2 * style.casingWidth)
      canvas.drawing.setColor(style.casingColor)
      addPath(pieces, cr)
      cairo_stroke(cr)
    }
    for (pieces, showsDirection) in lines {
      cairo_set_line_width(cr, lineWidth(showsDirection: showsDirection))
      canvas.drawing.setColor(showsDirection ? style.routeColor : style.color)
      addPath(pieces, cr)
      cairo_stroke(cr)
    }
    for (pieces, showsDirection) in lines where showsDirection {
      drawChevrons(pieces, on: canvas)
    }
    cairo_restore(cr)
  }

  private func addPath(_ pieces: [[PixelPoint]], _ cr: OpaquePointer) {
    for piece in pieces {
      guard let first = piece.first else { continue }
      cairo_move_to(cr, first.x, first.y)
      if piece.count == 1 { cairo_line_to(cr, first.x, first.y) }
      for point in piece.dropFirst() { cairo_line_to(cr, point.x, point.y) }
    }
  }

  /// Small open chevrons (›) inside the line, every `chevronSpacing` points along it, half a spacing in.
  private func drawChevrons(_ pieces: [[PixelPoint]], on canvas: Canvas) {
    let cr = canvas.context
    let size = style.routeWidth * 0.7
    cairo_set_line_width(cr, max(0.8, style.routeWidth * 0.4))
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    canvas.drawing.setColor(style.chevronColor)
    let spacing = max(style.chevronSpacing, 8)
    for piece in pieces {
      var untilNext = spacing / 2
      for index in piece.indices.dropFirst() {
        let a = piece[index - 1]
        let b = piece[index]
        let length = hypot(b.x - a.x, b.y - a.y)
        guard length > 0 else { continue }
        var travelled = 0.0
        while travelled + untilNext <= length {
          travelled += untilNext
          untilNext = spacing
          let t = travelled / length
          let x = a.x + (b.x - a.x) * t
          let y = a.y + (b.y - a.y) * t
          let ux = (b.x - a.x) / length
          let uy = (b.y - a.y) / length
          // The tip ahead of the point, the arms back and out on either side.
          cairo_move_to(cr, x - ux * size - uy * size, y - uy * size + ux * size)
          cairo_line_to(cr, x + ux * size * 0.6, y + uy * size * 0.6)
          cairo_line_to(cr, x - ux * size + uy * size, y - uy * size - ux * size)
        }
        untilNext -= length - travelled
      }
    }
    cairo_stroke(cr)
  }
}
