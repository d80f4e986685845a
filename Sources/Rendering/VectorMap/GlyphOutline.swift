import CCairo
import Foundation
import MapMath

/// A glyph's outline as path elements in points, its origin on the baseline: kept so that a turned
/// glyph is drawn by moving its points, not by asking Cairo for a font at yet another angle (each new
/// angle makes Cairo load and render the glyph again, which is what a street name cost).
struct GlyphOutline {
  let elements: [PathElement]

  /// Reads the outline of a one-glyph string from Cairo, in the context's unscaled user space.
  init(
    font: UnsafeMutablePointer<PangoFont>, string: UnsafeMutablePointer<PangoGlyphString>, cr: OpaquePointer
  ) {
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_new_path(cr)
    cairo_move_to(cr, 0, 0)
    pango_cairo_glyph_string_path(cr, font, string)
    var elements: [PathElement] = []
    PathElement.forEach(inCurrentPathOf: cr) { elements.append($0) }
    cairo_new_path(cr)
    cairo_restore(cr)
    self.elements = elements
  }

  /// Appends the outline to the current path, moved by `dx`, `dy` along the glyph's own axes and then
  /// turned by `angle` about `origin` (all in points).
  func add(to cr: OpaquePointer, origin: PixelPoint, angle: Double, dx: Double, dy: Double) {
    let cosine = cos(angle)
    let sine = sin(angle)
    func map(_ p: PixelPoint) -> (Double, Double) {
      let x = p.x + dx
      let y = p.y + dy
      return (origin.x + x * cosine - y * sine, origin.y + x * sine + y * cosine)
    }
    for element in elements {
      switch element {
      case .move(let p):
        let (x, y) = map(p)
        cairo_move_to(cr, x, y)
      case .line(let p):
        let (x, y) = map(p)
        cairo_line_to(cr, x, y)
      case .curve(let a, let b, let c):
        let (x1, y1) = map(a)
        let (x2, y2) = map(b)
        let (x3, y3) = map(c)
        cairo_curve_to(cr, x1, y1, x2, y2, x3, y3)
      case .close:
        cairo_close_path(cr)
      }
    }
  }
}
