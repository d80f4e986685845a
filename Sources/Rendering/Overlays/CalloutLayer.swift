import CCairo
import MapMath

/// Draws callouts as in the app: a white rounded bubble with a pointer to the pin head, the title in bold,
/// the subtitle (category) below it in a secondary colour, and the ⓘ disclosure glyph on the right.
struct CalloutLayer {
  let style: CalloutStyle

  func draw(_ content: CalloutContent, at placement: CalloutPlacement, on canvas: Canvas) {
    let cr = canvas.context
    canvas.drawing.softShadow(steps: 4, spread: 3, opacity: style.shadowOpacity) { spread in
      addOutline(placement.offsetBy(dx: 0, dy: 1.5), grow: spread, to: cr)
    }
    addOutline(placement, grow: 0, to: cr)
    canvas.drawing.setColor(style.background)
    cairo_fill_preserve(cr)
    cairo_set_source_rgba(cr, 0, 0, 0, 0.12)
    cairo_set_line_width(cr, 0.6)
    cairo_stroke(cr)

    let bubble = placement.bubble
    let textHeight =
      content.title.size.height + (content.subtitle.map { CalloutContent.lineGap + $0.size.height } ?? 0)
    let textTop = bubble.midY - textHeight / 2
    let textLeft = bubble.minX + style.horizontalPadding
    canvas.drawing.setColor(style.titleColor)
    content.title.draw(at: PixelPoint(x: textLeft, y: textTop), in: cr)
    if let subtitle = content.subtitle {
      canvas.drawing.setColor(style.subtitleColor)
      subtitle.draw(
        at: PixelPoint(x: textLeft, y: textTop + content.title.size.height + CalloutContent.lineGap), in: cr)
    }
    drawDisclosure(
      center: PixelPoint(x: bubble.maxX - style.horizontalPadding - style.disclosureSize / 2, y: bubble.midY),
      on: canvas)
  }

  /// The bubble and its pointer as one path, clockwise from the top-left corner; `grow` widens it (for the
  /// shadow). The pointer sits on the edge that faces the pin.
  private func addOutline(_ placement: CalloutPlacement, grow: Double, to cr: OpaquePointer) {
    let b = placement.bubble.insetBy(dx: -grow, dy: -grow)
    let r = min(style.cornerRadius + grow, b.width / 2, b.height / 2)
    let tip = placement.pointerTip
    let half = style.pointerWidth / 2 + grow
    cairo_new_sub_path(cr)
    cairo_move_to(cr, b.minX + r, b.minY)
    if placement.side == .below {
      cairo_line_to(cr, tip.x - half, b.minY)
      cairo_line_to(cr, tip.x, tip.y - grow)
      cairo_line_to(cr, tip.x + half, b.minY)
    }
    cairo_arc(cr, b.maxX - r, b.minY + r, r, -.pi / 2, 0)
    if placement.side == .left {
      cairo_line_to(cr, b.maxX, tip.y - half)
      cairo_line_to(cr, tip.x + grow, tip.y)
      cairo_line_to(cr, b.maxX, tip.y + half)
    }
    cairo_arc(cr, b.maxX - r, b.maxY - r, r, 0, .pi / 2)
    if placement.side == .above {
      cairo_line_to(cr, tip.x + half, b.maxY)
      cairo_line_to(cr, tip.x, tip.y + grow)
      cairo_line_to(cr, tip.x - half, b.maxY)
    }
    cairo_arc(cr, b.minX + r, b.maxY - r, r, .pi / 2, .pi)
    if placement.side == .right {
      cairo_line_to(cr, b.minX, tip.y + half)
      cairo_line_to(cr, tip.x - grow, tip.y)
      cairo_line_to(cr, b.minX, tip.y - half)
    }
    cairo_arc(cr, b.minX + r, b.minY + r, r, .pi, 3 * .pi / 2)
    cairo_close_path(cr)
  }

  /// The ⓘ glyph drawn as shapes, so it looks the same whatever fonts are installed.
  private func drawDisclosure(center: PixelPoint, on canvas: Canvas) {
    let cr = canvas.context
    let d = style.disclosureSize
    canvas.drawing.setColor(style.disclosureColor)
    cairo_set_line_width(cr, max(d * 0.075, 1))
    cairo_new_sub_path(cr)
    cairo_arc(cr, center.x, center.y, d / 2 - d * 0.05, 0, 2 * .pi)
    cairo_stroke(cr)
    cairo_new_sub_path(cr)
    cairo_arc(cr, center.x, center.y - d * 0.22, d * 0.07, 0, 2 * .pi)
    cairo_fill(cr)
    cairo_set_line_width(cr, d * 0.11)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    cairo_move_to(cr, center.x, center.y - d * 0.06)
    cairo_line_to(cr, center.x, center.y + d * 0.24)
    cairo_stroke(cr)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
  }
}
