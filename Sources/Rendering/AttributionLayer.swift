import CCairo
import MapMath

/// The tile source's attribution in the bottom-right corner, on a translucent plate so that it stays
/// legible over any map.
struct AttributionLayer {
  let style: AttributionStyle
  let text: TextLayout
  let plate: PixelRect

  static let horizontalPadding = 4.0
  static let verticalPadding = 1.5

  /// Measures the text and places the plate for an image of `size` points.
  init(
    text: String, style: AttributionStyle, fontFamily: String, size: PixelSize, measuring: MeasuringContext
  ) {
    self.style = style
    let maxWidth = max(size.width - 2 * style.margin - 2 * AttributionLayer.horizontalPadding, 10)
    self.text = TextLayout(
      text: text, font: FontSpec(family: fontFamily, size: style.size, bold: false), maxWidth: maxWidth,
      context: measuring.context)
    let width = self.text.size.width + 2 * AttributionLayer.horizontalPadding
    let height = self.text.size.height + 2 * AttributionLayer.verticalPadding
    plate = PixelRect(
      x: size.width - style.margin - width, y: size.height - style.margin - height, width: width,
      height: height)
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
