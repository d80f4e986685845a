/// Douglas–Peucker simplification, for any points of a plane: the basemap builder's coastlines (world
/// space) and a render's tracks (pixels) share it.
public enum LineSimplification {
  /// The fewest points such that every dropped one lies within `tolerance` of the line kept: the first and
  /// the last point always stay. An explicit stack, so a long line never recurses deeply. A closed line
  /// (a ring) stays closed: its first segment has zero length, and distances to it are distances to that
  /// point.
  @inlinable public static func douglasPeucker<P: PlanePoint>(_ points: [P], tolerance: Double) -> [P] {
    guard points.count > 2 else { return points }
    let limit = tolerance * tolerance
    var keep = [Bool](repeating: false, count: points.count)
    keep[0] = true
    keep[points.count - 1] = true
    var stack = [(0, points.count - 1)]
    while let (first, last) = stack.popLast() {
      guard last > first + 1 else { continue }
      var farthest = first
      var distance = -1.0
      for index in (first + 1)..<last {
        let candidate = squaredDistance(points[index], toSegment: points[first], points[last])
        if candidate > distance {
          distance = candidate
          farthest = index
        }
      }
      if distance > limit {
        keep[farthest] = true
        stack.append((farthest, last))
        stack.append((first, farthest))
      }
    }
    var result: [P] = []
    for index in points.indices where keep[index] { result.append(points[index]) }
    return result
  }

  /// The squared distance from `point` to the segment from `start` to `end` (to `start` when they meet).
  @inlinable public static func squaredDistance<P: PlanePoint>(_ point: P, toSegment start: P, _ end: P)
    -> Double
  {
    let dx = end.x - start.x
    let dy = end.y - start.y
    let length = dx * dx + dy * dy
    var t = 0.0
    if length > 0 {
      t = max(0, min(1, ((point.x - start.x) * dx + (point.y - start.y) * dy) / length))
    }
    let x = start.x + t * dx - point.x
    let y = start.y + t * dy - point.y
    return x * x + y * y
  }
}
