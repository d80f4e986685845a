import CCairo
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scale bar for the camera's zoom at the latitude of its centre: a round length, its bar and its label
/// on a small translucent plate like the attribution's.
struct ScaleBarPlate: PlateContent {
  let style: Style
  let length: ScaleBarLength
  let label: TextLayout
  let size: PixelSize

  static let longest = 110.0
  static let padding = 5.0
  static let tick = 5.0
  static let lineWidth = 1.5
  static let gap = 2.0

  init?(camera: Camera, units: ScaleBarUnits, style: Style, measuring: MeasuringContext) {
    let metersPerPoint = ScaleBarLength.metersPerPoint(latitude: camera.center.latitude, zoom: camera.zoom)
    let longest = min(ScaleBarPlate.longest, camera.size.width / 4)
    guard let length = ScaleBarLength(metersPerPoint: metersPerPoint, maximumWidth: longest, units: units)
    else { return nil }
    self.style = style
    self.length = length
    label = TextLayout(
      text: length.text,
      font: FontSpec(family: style.fontFamily, size: style.attribution.size + 0.5, bold: false),
      maxWidth: nil, context: measuring.context)
    let width = max(length.width, label.size.width) + 2 * ScaleBarPlate.padding
    let height = label.size.height + ScaleBarPlate.gap + ScaleBarPlate.tick + 2 * ScaleBarPlate.padding - 1
    size = PixelSize(width: width.rounded(.up), height: height.rounded(.up))
  }

  func draw(in plate: PixelRect, on canvas: Canvas) {
    let cr = canvas.context
    canvas.drawing.addRoundedRect(plate, radius: 3)
    canvas.drawing.setColor(style.attribution.background)
    cairo_fill(cr)
    let left = plate.minX + ScaleBarPlate.padding
    let baseline = plate.maxY - ScaleBarPlate.padding
    canvas.drawing.setColor(style.attribution.textColor)
    label.draw(at: PixelPoint(x: left, y: plate.minY + ScaleBarPlate.padding - 1), in: cr)
    // A bracket: the bar along the bottom, a tick up at each end.
    let half = ScaleBarPlate.lineWidth / 2
    cairo_move_to(cr, left + half, baseline - ScaleBarPlate.tick)
    cairo_line_to(cr, left + half, baseline - half)
    cairo_line_to(cr, left + length.width - half, baseline - half)
    cairo_line_to(cr, left + length.width - half, baseline - ScaleBarPlate.tick)
    cairo_set_line_width(cr, ScaleBarPlate.lineWidth)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
    cairo_stroke(cr)
  }

  func report(_ plate: PixelRect, to result: inout RenderResult) {
    result.layout.plates.append(
      MapLayout.PlateLayout(kind: "scaleBar", rect: plate.scaled(by: result.layout.scale), text: length.text))
  }
}

/// The scale bar as an overlay: its length is known only on the camera, so its plate is made in the first
/// round of placement, then placed as every plate is (`PlateOverlay`), asking the fit for room when no
/// corner is free.
struct ScaleBarOverlay: MapOverlay {
  let units: ScaleBarUnits
  let style: Style
  let measuring: MeasuringContext
  private var plate: PlateOverlay?
  static let corners: [PlateCorner] = [.bottomLeft, .bottomRight, .topLeft, .topRight]
  /// Past this ratio between the scales at the image's top and bottom edges, one bar would mislead (a map
  /// of Europe, 30° to 75° north, is within it; a map of the world is not).
  static let largestScaleRatio = 4.0

  init(units: ScaleBarUnits, style: Style, measuring: MeasuringContext) {
    self.units = units
    self.style = style
    self.measuring = measuring
  }

  /// True when one length holds across the image: the scale at its edge nearest a pole is at most
  /// `largestScaleRatio` times the one at the edge nearest the equator.
  static func scaleHolds(on camera: Camera) -> Bool {
    let bounds = camera.bounds
    let nearest = bounds.south <= 0 && bounds.north >= 0 ? 0 : min(abs(bounds.south), abs(bounds.north))
    let farthest = min(max(abs(bounds.south), abs(bounds.north)), 89.9)
    return cos(nearest * .pi / 180) / cos(farthest * .pi / 180) <= largestScaleRatio
  }

  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    plate = nil
    guard ScaleBarOverlay.scaleHolds(on: camera),
      let content = ScaleBarPlate(camera: camera, units: units, style: style, measuring: measuring)
    else { return [] }
    var overlay = PlateOverlay(
      content: content, imageSize: camera.size, margin: PlateSpacing.margin, corners: ScaleBarOverlay.corners)
    overlay.asksForRoom = true
    let claims = overlay.reserve(on: camera, around: others)
    plate = overlay
    return claims
  }

  mutating func settle(on camera: Camera, around others: [PixelRect]) -> [PixelRect]? {
    plate?.settle(on: camera, around: others)
  }

  var missingRoom: [EdgeRoom] { plate?.missingRoom ?? [] }
  var shortfall: Int { plate?.shortfall ?? 0 }

  var drawLevels: [DrawLevel] { [.plates] }

  func draw(_ level: DrawLevel, on canvas: Canvas) { plate?.draw(level, on: canvas) }

  func report(to result: inout RenderResult) { plate?.report(to: &result) }
}
