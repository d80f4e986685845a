import CCairo
import MapMath

/// Parallel copies of a polyline, for the two lines of a casing (`line-gap-width`): kept as paths so
/// that SVG and PDF stay vector.
enum LineOffset {
  /// Joins sharper than this (offset length over distance) are cut off with two points, as a bevel.
  static let miterLimit = 2.0

  /// The line moved sideways by `distance` points (positive: to the left of its direction on screen).
  static func offset(_ line: [PixelPoint], by distance: Double) -> [PixelPoint] {
    var points: [PixelPoint] = []
    points.reserveCapacity(line.count)
    for point in line where points.last.map({ $0 != point }) ?? true { points.append(point) }
    guard points.count >= 2 else { return [] }
    var normals: [PixelPoint] = []
    normals.reserveCapacity(points.count - 1)
    for index in 1..<points.count {
      let dx = points[index].x - points[index - 1].x
      let dy = points[index].y - points[index - 1].y
      let length = (dx * dx + dy * dy).squareRoot()
      normals.append(PixelPoint(x: dy / length, y: -dx / length))
    }
    var result: [PixelPoint] = []
    result.reserveCapacity(points.count + 4)
    for (index, point) in points.enumerated() {
      let before = normals[max(index - 1, 0)]
      let after = normals[min(index, normals.count - 1)]
      let sumX = before.x + after.x
      let sumY = before.y + after.y
      let sumLength = (sumX * sumX + sumY * sumY).squareRoot()
      let cosine = sumLength / 2  // cos of half the turn
      if sumLength < 1e-9 || 1 / cosine > miterLimit {
        result.append(PixelPoint(x: point.x + before.x * distance, y: point.y + before.y * distance))
        result.append(PixelPoint(x: point.x + after.x * distance, y: point.y + after.y * distance))
      } else {
        let scale = distance / (sumLength * cosine)
        result.append(PixelPoint(x: point.x + sumX * scale, y: point.y + sumY * scale))
      }
    }
    return result
  }

  /// Adds an open polyline to Cairo's current path.
  static func add(_ line: [PixelPoint], to cr: OpaquePointer) {
    guard let first = line.first else { return }
    cairo_move_to(cr, first.x, first.y)
    for point in line.dropFirst() { cairo_line_to(cr, point.x, point.y) }
  }
}
