import CCairo
import Foundation
import MapMath

/// A glyph's outline as path elements in points, its origin on the baseline: kept so that a turned
/// glyph is drawn by moving its points, not by asking Cairo for a font at yet another angle (each new
/// angle makes Cairo load and render the glyph again, which is what a street name cost).
struct GlyphOutline {
  let elements: [PathElement]

  /// Reads the outline of a one-glyph string from Cairo, in the context's unscaled user space. Leaves
  /// the context without a current path.
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
    PathElement.add(elements, to: cr) { p in
      let x = p.x + dx
      let y = p.y + dy
      return PixelPoint(x: origin.x + x * cosine - y * sine, y: origin.y + x * sine + y * cosine)
    }
  }
}
