import CCairo
import MapMath

/// A place's number drawn in its pin head: white bold digits with a dark edge, shrunk to stay inside the
/// head however many digits there are.
struct PinNumberMark {
  let text: TextLayout
  /// The digits' colour and the edge that keeps them legible on a light pin.
  static let color = Color.white

  /// The widest the digits may be, as a share of the head's diameter.
  static let widthShare = 0.82

  init(number: Int, headRadius: Double, fontFamily: String, context: OpaquePointer) {
    let digits = String(number)
    let base = headRadius * 1.3
    var layout = TextLayout(
      text: digits, font: FontSpec(family: fontFamily, size: base, bold: true), maxWidth: nil,
      context: context)
    let widest = 2 * headRadius * PinNumberMark.widthShare
    if layout.size.width > widest {
      let size = max(base * widest / layout.size.width, 4)
      layout = TextLayout(
        text: digits, font: FontSpec(family: fontFamily, size: size, bold: true), maxWidth: nil,
        context: context)
    }
    text = layout
  }

  /// Draws the digits centred on `head` (points), edged with `pinColor` darkened.
  func draw(centeredOn head: PixelPoint, pinColor: Color, in drawing: DrawingContext) {
    let origin = PixelPoint(x: head.x - text.size.width / 2, y: head.y - text.size.height / 2)
    text.addPath(at: origin, in: drawing.cr)
    drawing.setColor(pinColor.lightened(-0.55), alpha: 0.55)
    cairo_set_line_width(drawing.cr, max(text.size.height * 0.14, 1))
    cairo_set_line_join(drawing.cr, CAIRO_LINE_JOIN_ROUND)
    cairo_stroke(drawing.cr)
    drawing.setColor(PinNumberMark.color)
    text.draw(at: origin, in: drawing.cr)
  }
}
