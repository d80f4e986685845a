import MapMath

/// Where labels may still go: inside the image (less a small margin), clear of the obstacles (pins,
/// callouts, the user's dot, the attribution) and of the labels placed before, and — for line labels —
/// not near another label of the same text.
struct LabelCollision {
  /// Labels stay this far inside the image's edges, in points.
  static let margin = 2.0

  let bounds: PixelRect
  private var obstacles: RectIndex
  private var labels: RectIndex
  private var centersByText: [String: [PixelPoint]] = [:]

  init(size: PixelSize, obstacles: [PixelRect]) {
    bounds = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
      .insetBy(dx: Self.margin, dy: Self.margin)
    // Queries grow by the style's text-padding, at most 256 points.
    self.obstacles = RectIndex(bounds: bounds, reach: 256 + 2 * Self.margin)
    labels = RectIndex(bounds: bounds, reach: 256 + 2 * Self.margin)
    for obstacle in obstacles where Self.isUsable(obstacle) { self.obstacles.insert(obstacle, owner: -1) }
  }

  /// Finite and of a size a grid can index (a hostile obstacle must not stop the map).
  private static func isUsable(_ rect: PixelRect) -> Bool {
    rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite
      && abs(rect.x) < 1e7 && abs(rect.y) < 1e7 && rect.width >= 0 && rect.height >= 0
      && rect.width < 1e7 && rect.height < 1e7
  }

  /// True when every box lies inside the image and, grown by `padding`, touches no obstacle and (unless
  /// `allowOverlap`) no label placed before.
  func fits(_ boxes: [PixelRect], padding: Double, allowOverlap: Bool) -> Bool {
    for box in boxes {
      guard Self.isUsable(box), bounds.contains(box) else { return false }
      let padded = box.insetBy(dx: -padding, dy: -padding)
      if obstacles.intersects(padded) { return false }
      if !allowOverlap && labels.intersects(padded) { return false }
    }
    return true
  }

  /// True when a label of the same text already has its centre within `distance` of `center`.
  func repeats(_ text: String, near center: PixelPoint, within distance: Double) -> Bool {
    guard let centers = centersByText[text] else { return false }
    return centers.contains { LabelLine.distance($0, center) < distance }
  }

  /// Records a placed label: its boxes block later labels (unless `blocks` is false) and its centre
  /// counts for `repeats`.
  mutating func insert(_ boxes: [PixelRect], text: String, center: PixelPoint, blocks: Bool, owner: Int) {
    if blocks {
      for box in boxes { labels.insert(box, owner: owner) }
    }
    centersByText[text, default: []].append(center)
  }
}
