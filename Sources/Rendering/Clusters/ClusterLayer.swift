import CCairo
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws cluster markers as MapKit does: a filled circle in the pin colour with a white border, a soft
/// shadow, and the number of places in white bold at its centre.
struct ClusterLayer {
  let style: ClusterStyle
  let fill: Color
  let fontFamily: String

  init(style: Style) {
    self.style = style.cluster
    fill = style.cluster.color ?? style.pin.color
    fontFamily = style.fontFamily
  }

  /// The circle's radius for `count` places, in points: growing gently with the count's magnitude.
  func radius(count: Int) -> Double {
    style.radius + style.radiusGrowth * log10(Double(max(count, 1)))
  }

  /// How far a marker of up to `count` places reaches around its centre, shadow and border included.
  func reach(count: Int) -> Double {
    radius(count: count) + style.borderWidth / 2 + ClusterLayer.shadowOffset + ClusterLayer.shadowSpread
  }

  static let shadowOffset = 1.0
  static let shadowSpread = 1.5

  /// The count as shown: in full up to 9,999, then `12k`, then `1.2M` (rounded down, so never overstated).
  static func label(count: Int) -> String {
    switch count {
    case ..<10_000: return String(count)
    case ..<1_000_000: return "\(count / 1000)k"
    default:
      let tenths = count / 100_000
      return tenths % 10 == 0 || tenths >= 100 ? "\(tenths / 10)M" : "\(tenths / 10).\(tenths % 10)M"
    }
  }

  /// Draws one marker centred at `center` (points).
  func draw(count: Int, at center: PixelPoint, on canvas: Canvas) {
    let cr = canvas.context
    let r = radius(count: count)
    canvas.drawing.softShadow(steps: 3, spread: ClusterLayer.shadowSpread, opacity: style.shadowOpacity) {
      spread in
      cairo_new_sub_path(cr)
      cairo_arc(
        cr, center.x, center.y + ClusterLayer.shadowOffset, r + style.borderWidth / 2 + spread, 0, 2 * .pi)
    }
    cairo_new_sub_path(cr)
    cairo_arc(cr, center.x, center.y, r, 0, 2 * .pi)
    canvas.drawing.setColor(fill)
    cairo_fill_preserve(cr)
    if style.borderWidth > 0 {
      canvas.drawing.setColor(style.borderColor)
      cairo_set_line_width(cr, style.borderWidth)
      cairo_stroke(cr)
    } else {
      cairo_new_path(cr)
    }
    let text = TextLayout(
      text: ClusterLayer.label(count: count),
      font: FontSpec(family: fontFamily, size: style.textSize, bold: true), maxWidth: nil,
      context: cr)
    canvas.drawing.setColor(style.textColor)
    text.draw(
      at: PixelPoint(x: center.x - text.size.width / 2, y: center.y - text.size.height / 2), in: cr)
  }
}
