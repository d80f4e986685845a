import MapMath

/// The map's title, bold, and its subtitle below it, centred on a white rounded plate at the top of the
/// image; a text too long for the image's width ends in an ellipsis. The fit keeps the band under it free
/// of places.
struct TitlePlate: PlateContent {
  let style: Style
  let title: TextLayout
  let subtitle: TextLayout?
  let size: PixelSize
  let text: MapTitle

  static let lineGap = 2.0
  /// Sizes above the callouts' own, so the title reads first.
  static let titleGrowth = 3.0
  static let subtitleGrowth = 0.5

  init(_ text: MapTitle, style: Style, imageSize: PixelSize, measuring: MeasuringContext) {
    self.style = style
    self.text = text
    let padding = TitlePlate.horizontalPadding(style)
    let maxWidth = max(imageSize.width - 2 * PlateSpacing.margin - 2 * padding, 10)
    let callout = style.callout
    title = TextLayout(
      text: text.title,
      font: FontSpec(family: style.fontFamily, size: callout.titleSize + TitlePlate.titleGrowth, bold: true),
      maxWidth: maxWidth, context: measuring.context)
    subtitle = text.subtitle.flatMap { line -> TextLayout? in
      line.isEmpty
        ? nil
        : TextLayout(
          text: line,
          font: FontSpec(
            family: style.fontFamily, size: callout.subtitleSize + TitlePlate.subtitleGrowth, bold: false),
          maxWidth: maxWidth, context: measuring.context)
    }
    let width = max(title.size.width, subtitle?.size.width ?? 0) + 2 * padding
    let height =
      title.size.height + (subtitle.map { TitlePlate.lineGap + $0.size.height } ?? 0) + 2
      * callout.verticalPadding
    size = PixelSize(width: width.rounded(.up), height: height.rounded(.up))
  }

  static func horizontalPadding(_ style: Style) -> Double { style.callout.horizontalPadding + 3 }

  /// The title as a plate overlay at the top centre, with its band kept free by the fit; nil when the
  /// title is empty.
  static func overlay(for request: RenderRequest, measuring: MeasuringContext) -> PlateOverlay? {
    guard var text = request.title, !text.title.isEmpty || !(text.subtitle ?? "").isEmpty else { return nil }
    // A subtitle alone is the plate's one line.
    if text.title.isEmpty { text = MapTitle(title: text.subtitle ?? "") }
    let content = TitlePlate(text, style: request.style, imageSize: request.size, measuring: measuring)
    var overlay = PlateOverlay(
      content: content, imageSize: request.size, margin: PlateSpacing.margin, corners: [.topCenter])
    overlay.fitRoom = EdgeRoom(top: content.size.height + 2 * PlateSpacing.margin)
    return overlay
  }

  func draw(in plate: PixelRect, on canvas: Canvas) {
    PlateBackground.draw(plate, style: style.callout, on: canvas)
    var top = plate.minY + style.callout.verticalPadding
    canvas.drawing.setColor(style.callout.titleColor)
    title.draw(at: PixelPoint(x: plate.midX - title.size.width / 2, y: top), in: canvas.context)
    top += title.size.height + TitlePlate.lineGap
    if let subtitle {
      canvas.drawing.setColor(style.callout.subtitleColor)
      subtitle.draw(at: PixelPoint(x: plate.midX - subtitle.size.width / 2, y: top), in: canvas.context)
    }
  }

  func report(_ plate: PixelRect, to result: inout RenderResult) {
    result.layout.plates.append(
      MapLayout.PlateLayout(
        kind: "title", rect: plate.scaled(by: result.layout.scale),
        text: ([text.title] + (text.subtitle.map { [$0] } ?? [])).joined(separator: "\n")))
  }
}
