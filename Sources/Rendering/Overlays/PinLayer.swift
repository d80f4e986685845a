import CCairo
import MapMath

/// Draws MapKit-like pins: a glossy round head on a thin needle whose tip is exactly on the place, with a
/// soft ground shadow and the head's shadow cast down to the right.
///
/// Vector output draws every pin as paths. Raster output draws each pin once per quarter-pixel offset
/// into a small sprite and copies sprites: thousands of pins cost copies, not thousands of antialiased
/// fills, and every tip still lands within an eighth of a pixel of its place.
struct PinLayer {
  let style: PinStyle
  let geometry: PinGeometry

  init(style: PinStyle) {
    self.style = style
    self.geometry = PinGeometry(style: style)
  }

  /// Draws the pins in the given order (callers sort north to south so southern pins overlap northern ones),
  /// each in its colour from `colors` (else the style's) and with its number mark from `marks`, if any,
  /// drawn right after its pin so that a pin in front covers the marks behind it as it covers their heads.
  func draw(
    at points: [PixelPoint], colors: [Color]? = nil, marks: [PinNumberMark?]? = nil, on canvas: Canvas
  ) {
    func markPin(_ index: Int) {
      guard let mark = marks?[index] else { return }
      let head = PixelPoint(
        x: points[index].x + geometry.headCenter.x, y: points[index].y + geometry.headCenter.y)
      mark.draw(centeredOn: head, pinColor: colors?[index] ?? style.color, in: canvas.drawing)
    }
    guard canvas.format == .png else {
      var symbols = PinSymbols(layer: self)
      for (index, point) in points.enumerated() {
        symbols.draw(color: colors?[index] ?? style.color, at: point, on: canvas)
        markPin(index)
      }
      symbols.destroy()
      return
    }
    var sprites: [Color: PinSprites] = [:]
    var current = (color: style.color, sprites: PinSprites(layer: self, scale: canvas.scale))
    let cr = canvas.context
    // Sprites are copied in device pixels; the marks are drawn in points.
    var userMatrix = cairo_matrix_t()
    cairo_get_matrix(cr, &userMatrix)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    for (index, point) in points.enumerated() {
      let color = colors?[index] ?? style.color
      let x = point.x * canvas.scale
      let y = point.y * canvas.scale
      var column = x.rounded(.down)
      var row = y.rounded(.down)
      var quarterX = Int(((x - column) * 4).rounded())
      var quarterY = Int(((y - row) * 4).rounded())
      if quarterX == 4 { (column, quarterX) = (column + 1, 0) }
      if quarterY == 4 { (row, quarterY) = (row + 1, 0) }
      // Runs of one colour (all pins, without category colours) skip the lookup.
      if color != current.color {
        sprites[current.color] = current.sprites
        current = (color, sprites[color] ?? PinSprites(layer: recolored(color), scale: canvas.scale))
      }
      if let sprite = current.sprites.sprite(quarterX: quarterX, quarterY: quarterY) {
        let tip = current.sprites.tipOffset
        cairo_set_source_surface(cr, sprite, column - tip.x, row - tip.y)
        cairo_paint(cr)
        cairo_set_matrix(cr, &userMatrix)
      } else {
        // No memory for a sprite: the pin drawn in place.
        cairo_set_matrix(cr, &userMatrix)
        current.sprites.layer.drawPin(at: point, in: canvas.drawing)
      }
      markPin(index)
      cairo_identity_matrix(cr)
    }
    cairo_restore(cr)
    sprites[current.color] = current.sprites
    for colorSprites in sprites.values { colorSprites.destroy() }
  }

  /// This layer with the head in `color` (itself when nil or the same).
  fileprivate func recolored(_ color: Color?) -> PinLayer {
    guard let color, color != style.color else { return self }
    var recolored = style
    recolored.color = color
    return PinLayer(style: recolored)
  }

  /// Draws one pin with its tip at `tip` (points) on any context.
  func drawPin(at tip: PixelPoint, in drawing: DrawingContext) {
    let cr = drawing.cr
    let r = geometry.headRadius
    let head = PixelPoint(x: tip.x + geometry.headCenter.x, y: tip.y + geometry.headCenter.y)
    let offset = PinGeometry.shadowOffset

    // Ground shadow where the needle meets the map.
    drawing.softShadow(steps: 4, spread: 1.5, opacity: style.shadowOpacity) { spread in
      ellipse(cr, center: PixelPoint(x: tip.x + 1, y: tip.y), rx: 3 + spread, ry: 1.2 + spread / 2)
    }
    // The head's cast shadow.
    drawing.softShadow(steps: 4, spread: 1.5, opacity: style.shadowOpacity * 0.7) { spread in
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
    drawing.setColor(style.color.lightened(-0.45), alpha: 0.8)
    cairo_set_line_width(cr, 0.8)
    cairo_stroke(cr)

    // The gloss highlight.
    ellipse(cr, center: PixelPoint(x: head.x - 0.3 * r, y: head.y - 0.38 * r), rx: 0.42 * r, ry: 0.28 * r)
    cairo_set_source_rgba(cr, 1, 1, 1, 0.75)
    cairo_fill(cr)
  }
}

/// Pins for vector output: each colour's pin drawn once into a recording surface that every pin of that
/// colour paints, so SVG and PDF define it once and place it by reference (a pin is then a `<use>` of
/// some 100 bytes, not 3.5 KB of paths and gradients: a million pins stay a file one can open).
private struct PinSymbols {
  let layer: PinLayer
  private var surfaces: [Color: OpaquePointer] = [:]

  init(layer: PinLayer) { self.layer = layer }

  mutating func draw(color: Color, at tip: PixelPoint, on canvas: Canvas) {
    let surface = surfaces[color] ?? make(color)
    surfaces[color] = surface
    let cr = canvas.context
    cairo_set_source_surface(cr, surface, tip.x - tipOffset.x, tip.y - tipOffset.y)
    cairo_paint(cr)
  }

  /// Where the tip lies in a symbol, whose origin is its top left corner.
  private var tipOffset: PixelPoint {
    let extent = layer.geometry.extent
    return PixelPoint(x: -extent.minX + 2, y: -extent.minY + 2)
  }

  /// The pin, bounded by what it paints.
  private func make(_ color: Color) -> OpaquePointer {
    let extent = layer.geometry.extent
    var bounds = cairo_rectangle_t(x: 0, y: 0, width: extent.width + 4, height: extent.height + 4)
    let surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &bounds)!
    let cr = cairo_create(surface)!
    layer.recolored(color).drawPin(at: tipOffset, in: DrawingContext(cr: cr))
    cairo_destroy(cr)
    return surface
  }

  func destroy() {
    for surface in surfaces.values { cairo_surface_destroy(surface) }
  }
}

/// Pin images for raster output, one per quarter-pixel offset of the tip, made when first needed (or
/// kept from an earlier render: `PinSpriteCache`).
private struct PinSprites {
  let layer: PinLayer
  let scale: Double
  /// Where the tip sits in a sprite (before its quarter-pixel offset), in pixels.
  let tipOffset: PixelPoint
  let width: Int32
  let height: Int32
  private var surfaces: [Int: (surface: OpaquePointer, pixels: PinSpritePixels)] = [:]

  init(layer: PinLayer, scale: Double) {
    self.layer = layer
    self.scale = scale
    let extent = layer.geometry.extent
    let margin = 2.0
    tipOffset = PixelPoint(
      x: ((-extent.minX + margin) * scale).rounded(.up), y: ((-extent.minY + margin) * scale).rounded(.up))
    width = Int32(tipOffset.x + ((extent.maxX + margin) * scale).rounded(.up) + 1)
    height = Int32(tipOffset.y + ((extent.maxY + margin) * scale).rounded(.up) + 1)
  }

  /// The sprite for the offset, a surface to paint from; nil when it cannot be made.
  mutating func sprite(quarterX: Int, quarterY: Int) -> OpaquePointer? {
    let key = quarterX * 4 + quarterY
    if let sprite = surfaces[key] { return sprite.surface }
    let (layer, scale, tipOffset) = (layer, scale, tipOffset)
    let cacheKey = PinSpriteCache.Key(
      style: layer.style, scale: scale, quarterX: quarterX, quarterY: quarterY)
    let pixels = PinSpriteCache.sprite(for: cacheKey) {
      PinSpritePixels(width: width, height: height) { cr in
        cairo_scale(cr, scale, scale)
        let tip = PixelPoint(
          x: (tipOffset.x + Double(quarterX) / 4) / scale, y: (tipOffset.y + Double(quarterY) / 4) / scale)
        layer.drawPin(at: tip, in: DrawingContext(cr: cr))
      }
    }
    guard let pixels, let surface = pixels.surface() else { return nil }
    surfaces[key] = (surface, pixels)
    return surface
  }

  func destroy() {
    for sprite in surfaces.values { cairo_surface_destroy(sprite.surface) }
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
