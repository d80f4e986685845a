/// A point in image space (pixels or points, y grows downwards).
public struct PixelPoint: Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A size in image space.
public struct PixelSize: Hashable, Sendable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// An axis-aligned rectangle in image space; `x`, `y` is the top-left corner.
public struct PixelRect: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var minX: Double { x }
  public var minY: Double { y }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }

  /// True when the interiors overlap (touching edges do not count).
  public func intersects(_ other: PixelRect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  /// True when `other` lies entirely inside this rectangle (edges included).
  public func contains(_ other: PixelRect) -> Bool {
    other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }

  public func contains(_ point: PixelPoint) -> Bool {
    point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
  }

  /// The smallest rectangle holding both.
  public func union(_ other: PixelRect) -> PixelRect {
    let left = min(minX, other.minX)
    let top = min(minY, other.minY)
    return PixelRect(
      x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
  }

  /// The smallest rectangle holding every point; nil for none.
  public static func enclosing(_ points: [PixelPoint]) -> PixelRect? {
    guard let first = points.first else { return nil }
    var (left, top, right, bottom) = (first.x, first.y, first.x, first.y)
    for point in points.dropFirst() {
      left = min(left, point.x)
      right = max(right, point.x)
      top = min(top, point.y)
      bottom = max(bottom, point.y)
    }
    return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
  }

  public func offsetBy(dx: Double, dy: Double) -> PixelRect {
    PixelRect(x: x + dx, y: y + dy, width: width, height: height)
  }

  public func insetBy(dx: Double, dy: Double) -> PixelRect {
    PixelRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  /// Every coordinate multiplied by `factor` (points to pixels at a scale).
  public func scaled(by factor: Double) -> PixelRect {
    PixelRect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
  }
}
