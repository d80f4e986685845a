import CCairo
import MapMath

/// The tile source's attribution, on a translucent plate so that it stays legible over any map; it sits
/// bottom right unless a pin is there (`PlateOverlay`).
struct AttributionPlate: PlateContent {
  let style: AttributionStyle
  let text: TextLayout
  /// The credit as given, for the layout.
  let credit: String

  static let horizontalPadding = 4.0
  static let verticalPadding = 1.5
  /// Where the attribution may go, preferred first.
  static let corners: [PlateCorner] = [.bottomRight, .bottomLeft, .topRight, .topLeft]

  /// Measures the text, wrapped to the width of an image of `imageSize` points.
  init(
    text: String, style: AttributionStyle, fontFamily: String, imageSize: PixelSize,
    measuring: MeasuringContext
  ) {
    self.style = style
    credit = text
    let maxWidth = max(imageSize.width - 2 * style.margin - 2 * AttributionPlate.horizontalPadding, 10)
    self.text = TextLayout(
      text: text, font: FontSpec(family: fontFamily, size: style.size, bold: false), maxWidth: maxWidth,
      context: measuring.context)
  }

  /// The attribution the map carries (the style's, else its tile source's), as a plate overlay; nil when
  /// there is none.
  static func overlay(for request: RenderRequest, measuring: MeasuringContext) -> PlateOverlay? {
    let sourceAttribution = request.tiles.map { $0.attribution } ?? request.basemap?.attribution
    guard let text = request.style.basemap.attribution ?? sourceAttribution, !text.isEmpty else { return nil }
    let content = AttributionPlate(
      text: text, style: request.style.attribution, fontFamily: request.style.fontFamily,
      imageSize: request.size, measuring: measuring)
    return PlateOverlay(
      content: content, imageSize: request.size, margin: request.style.attribution.margin, corners: corners)
  }

  var size: PixelSize {
    PixelSize(
      width: text.size.width + 2 * AttributionPlate.horizontalPadding,
      height: text.size.height + 2 * AttributionPlate.verticalPadding)
  }

  func draw(in plate: PixelRect, on canvas: Canvas) {
    canvas.drawing.addRoundedRect(plate, radius: 3)
    canvas.drawing.setColor(style.background)
    cairo_fill(canvas.context)
    canvas.drawing.setColor(style.textColor)
    text.draw(
      at: PixelPoint(
        x: plate.minX + AttributionPlate.horizontalPadding, y: plate.minY + AttributionPlate.verticalPadding),
      in: canvas.context)
  }

  /// The plate as drawn, in image pixels (`RenderResult.attribution`).
  func report(_ plate: PixelRect, to result: inout RenderResult) {
    result.attribution = plate.scaled(by: result.layout.scale)
    result.layout.plates.append(
      MapLayout.PlateLayout(kind: "attribution", rect: plate.scaled(by: result.layout.scale), text: credit))
  }
}
