import MapMath

/// The user's position: the blue dot (`UserDotLayer`), fixed at its place, so it is reserved before
/// anything is placed, and its accuracy circle, which nothing keeps clear of: it is translucent and drawn
/// under every other overlay.
struct UserPositionOverlay: MapOverlay {
  let user: UserPosition
  private let dot: UserDotLayer
  private var point: PixelPoint?
  private var accuracyRadius: Double?

  init(user: UserPosition, style: UserDotStyle) {
    self.user = user
    dot = UserDotLayer(style: style)
  }

  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent] {
    [OverlayExtent(anchor: user.coordinate, rect: dot.extent)]
  }

  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    let point = camera.point(for: user.coordinate)
    self.point = point
    accuracyRadius = user.accuracy.map {
      $0 / WebMercator.metersPerPixel(latitude: user.coordinate.latitude, zoom: camera.zoom)
    }
    return [dot.extent.offsetBy(dx: point.x, dy: point.y)]
  }

  var drawLevels: [DrawLevel] { [.accuracyCircle, .userPosition] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    guard let point else { return }
    if level == .accuracyCircle {
      dot.drawAccuracyCircle(at: point, radius: accuracyRadius, on: canvas)
    } else {
      dot.drawDot(at: point, on: canvas)
    }
  }

  func report(to result: inout RenderResult) {
    result.layout.user = MapLayout.UserLayout(
      coordinate: user.coordinate, point: result.layout.camera.pixel(for: user.coordinate))
  }
}
