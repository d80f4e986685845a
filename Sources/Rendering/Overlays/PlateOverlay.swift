import MapMath

/// What a plate shows: measured when the plate is made, drawn in the rectangle its corner gives.
protocol PlateContent {
  /// The plate's size, in points.
  var size: PixelSize { get }
  /// Draws the plate filling `plate` (points).
  func draw(in plate: PixelRect, on canvas: Canvas)
  /// Records the plate as drawn (points) in the result; nothing by default.
  func report(_ plate: PixelRect, to result: inout RenderResult)
}

extension PlateContent {
  func report(_ plate: PixelRect, to result: inout RenderResult) {}
}

/// A plate in a corner of the image. It reserves its preferred corner before anything is placed, so that
/// callouts keep clear of it; once everything is placed, a plate that covers something drawn there (a pin
/// cannot move) goes to the first of its corners that covers nothing, and stays if there is none.
struct PlateOverlay: MapOverlay {
  let content: any PlateContent
  let placer: CornerPlacer
  /// Where the plate may go, preferred first.
  let corners: [PlateCorner]
  /// Where it is, once placed.
  private(set) var rect: PixelRect?
  /// Room at the image's edges the fit keeps free for the plate from the start.
  var fitRoom = EdgeRoom.none
  /// True when a plate that finds no free corner asks the fit for room beside its preferred corner.
  var asksForRoom = false
  private(set) var missingRoom: [EdgeRoom] = []
  /// 1 when the plate stays over something drawn: no corner was free.
  private(set) var shortfall = 0

  init(content: any PlateContent, imageSize: PixelSize, margin: Double, corners: [PlateCorner]) {
    self.content = content
    placer = CornerPlacer(imageSize: imageSize, margin: margin)
    self.corners = corners
  }

  /// The plate in its preferred corner (nil without corners: such a plate is not drawn).
  var preferredRect: PixelRect? {
    corners.first.map { placer.rect(for: content.size, in: $0) }
  }

  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    rect = preferredRect
    return rect.map { [$0] } ?? []
  }

  mutating func settle(on camera: Camera, around others: [PixelRect]) -> [PixelRect]? {
    guard let current = rect else { return nil }
    guard let free = placer.firstFree(for: content.size, among: corners, avoiding: others)?.rect else {
      if asksForRoom, let corner = corners.first {
        missingRoom = EdgeRoom.options(beside: corner, size: content.size, margin: placer.margin)
        shortfall = 1
      }
      return nil
    }
    guard free != current else { return nil }
    rect = free
    return [free]
  }

  var drawLevels: [DrawLevel] { [.plates] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    guard let rect else { return }
    content.draw(in: rect, on: canvas)
  }

  func report(to result: inout RenderResult) {
    guard let rect else { return }
    content.report(rect, to: &result)
  }
}
