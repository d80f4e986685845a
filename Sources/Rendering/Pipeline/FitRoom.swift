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

  /// The ways to make room beside `corner` for a plate of `size` (and `margin` around it): a band along
  /// its edge (under `topBand` at the top: the title's), then, for a corner, a column at its side.
  static func options(
    beside corner: PlateCorner, size: PixelSize, margin: Double, topBand: Double = 0
  ) -> [EdgeRoom] {
    let width = size.width + 2 * margin
    let height = size.height + 2 * margin
    let isTop = corner == .topLeft || corner == .topRight || corner == .topCenter
    var options = [isTop ? EdgeRoom(top: topBand + height) : EdgeRoom(bottom: height)]
    switch corner {
    case .topLeft, .bottomLeft: options.append(EdgeRoom(left: width))
    case .topRight, .bottomRight: options.append(EdgeRoom(right: width))
    case .topCenter: break
    }
    return options
  }

  /// The strips of an image of `size` that the room takes, one per side it has.
  func strips(in size: PixelSize) -> [PixelRect] {
    var strips: [PixelRect] = []
    if top > 0 { strips.append(PixelRect(x: 0, y: 0, width: size.width, height: top)) }
    if bottom > 0 {
      strips.append(PixelRect(x: 0, y: size.height - bottom, width: size.width, height: bottom))
    }
    if left > 0 { strips.append(PixelRect(x: 0, y: 0, width: left, height: size.height)) }
    if right > 0 { strips.append(PixelRect(x: size.width - right, y: 0, width: right, height: size.height)) }
    return strips
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
    var y = (size.height / 2 - originY) / worldPoints
    // As the fit does: no empty space beyond the poles when the world is taller than the image.
    let halfHeight = size.height / 2 / worldPoints
    y = halfHeight >= 0.5 ? 0.5 : min(max(y, halfHeight), 1 - halfHeight)
    let world = WorldPoint(x: (size.width / 2 - originX) / worldPoints, y: y)
    return Camera(center: WebMercator.unproject(world), zoom: fitted.zoom, size: size, scale: fitted.scale)
  }
}
