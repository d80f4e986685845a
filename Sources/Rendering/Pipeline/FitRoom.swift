import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Room at the image's edges, in points, that the fit keeps free of the places and what is drawn at them:
/// the title's band at the top, a column for a legend that found no free corner.
struct EdgeRoom: Hashable {
  var top = 0.0
  var bottom = 0.0
  var left = 0.0
  var right = 0.0

  static let none = EdgeRoom()

  /// The larger room on each side.
  func union(_ other: EdgeRoom) -> EdgeRoom {
    EdgeRoom(
      top: max(top, other.top), bottom: max(bottom, other.bottom), left: max(left, other.left),
      right: max(right, other.right))
  }

  /// The room beside `corner` for a plate of `size` (and `margin` around it): a column at the corner's
  /// side or a band at its edge, whichever takes the smaller share of the image.
  static func beside(_ corner: PlateCorner, size: PixelSize, margin: Double, imageSize: PixelSize)
    -> EdgeRoom
  {
    let width = size.width + 2 * margin
    let height = size.height + 2 * margin
    let isLeft = corner == .bottomLeft || corner == .topLeft
    let isTop = corner == .topLeft || corner == .topRight || corner == .topCenter
    if corner != .topCenter && width / max(imageSize.width, 1) < height / max(imageSize.height, 1) {
      return isLeft ? EdgeRoom(left: width) : EdgeRoom(right: width)
    }
    return isTop ? EdgeRoom(top: height) : EdgeRoom(bottom: height)
  }

  /// How much of each side the fit must add to `padding` (whole points, so whole zooms stay aligned).
  func beyond(padding: Double) -> EdgeRoom {
    func extra(_ side: Double) -> Double { max(side - padding, 0).rounded(.up) }
    return EdgeRoom(top: extra(top), bottom: extra(bottom), left: extra(left), right: extra(right))
  }
}

extension Camera {
  /// `fitted`, a camera fitted to the image less `extra` on each side, widened back to the whole image of
  /// `size` with the fitted part where the room leaves it: the map moves, its zoom stays.
  static func widened(_ fitted: Camera, to size: PixelSize, extra: EdgeRoom) -> Camera {
    let worldPoints = 256 * pow(2, fitted.zoom)
    let center = fitted.centerWorld
    // The fitted image's top-left corner in world points, moved by the room on the left and top.
    let originX = fitted.size.width / 2 - center.x * worldPoints + extra.left
    let originY = fitted.size.height / 2 - center.y * worldPoints + extra.top
    let world = WorldPoint(
      x: (size.width / 2 - originX) / worldPoints,
      y: min(max((size.height / 2 - originY) / worldPoints, 0), 1))
    return Camera(center: WebMercator.unproject(world), zoom: fitted.zoom, size: size, scale: fitted.scale)
  }
}
