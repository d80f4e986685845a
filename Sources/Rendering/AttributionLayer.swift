import CCairo
import MapMath

/// The tile source's attribution in a corner (bottom right unless a pin is there), on a translucent plate
/// so that it stays legible over any map.
struct AttributionLayer {
  let style: AttributionStyle
  let text: TextLayout
  let plate: PixelRect

  /// Where the plate may go, preferred first.
  enum Corner: CaseIterable {
    case bottomRight, bottomLeft, topRight, topLeft
  }

  static let horizontalPadding = 4.0
  static let verticalPadding = 1.5

  /// Measures the text and places the plate in a corner of an image of `size` points.
  init(
    text: String, style: AttributionStyle, fontFamily: String, size: PixelSize, measuring: MeasuringContext
  ) {
    self.style = style
    let maxWidth = max(size.width - 2 * style.margin - 2 * AttributionLayer.horizontalPadding, 10)
    self.text = TextLayout(
      text: text, font: FontSpec(family: fontFamily, size: style.size, bold: false), maxWidth: maxWidth,
      context: measuring.context)
    plate = AttributionLayer.plate(for: self.text, style: style, size: size, corner: .bottomRight)
  }

  private init(style: AttributionStyle, text: TextLayout, plate: PixelRect) {
    self.style = style
    self.text = text
    self.plate = plate
  }

  /// The same attribution in another corner.
  func moved(to corner: Corner, size: PixelSize) -> AttributionLayer {
    AttributionLayer(
      style: style, text: text,
      plate: AttributionLayer.plate(for: text, style: style, size: size, corner: corner))
  }

  private static func plate(for text: TextLayout, style: AttributionStyle, size: PixelSize, corner: Corner)
    -> PixelRect
  {
    let width = text.size.width + 2 * horizontalPadding
    let height = text.size.height + 2 * verticalPadding
    let left = corner == .bottomLeft || corner == .topLeft
    let top = corner == .topRight || corner == .topLeft
    return PixelRect(
      x: left ? style.margin : size.width - style.margin - width,
      y: top ? style.margin : size.height - style.margin - height, width: width, height: height)
  }

  func draw(on canvas: Canvas) {
    canvas.drawing.addRoundedRect(plate, radius: 3)
    canvas.drawing.setColor(style.background)
    cairo_fill(canvas.context)
    canvas.drawing.setColor(style.textColor)
    text.draw(
      at: PixelPoint(
        x: plate.minX + AttributionLayer.horizontalPadding, y: plate.minY + AttributionLayer.verticalPadding),
      in: canvas.context)
  }
}
