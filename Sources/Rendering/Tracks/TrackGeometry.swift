import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line on one camera: projected to points, continuous across 180° (each point in the world copy
/// nearest the point before it, the first nearest the camera's centre), cut to the image and a margin,
/// and simplified in point space, so what reaches Cairo grows with what the image can show, not with the
/// points a file holds: a million-point track becomes a few thousand segments.
enum TrackGeometry {
  /// How far a dropped point may lie from the line drawn instead, in points (a quarter of a pixel at scale
  /// 2: invisible).
  static let tolerance = 0.25

  /// The visible pieces of `segments` in points, simplified; `margin` points around the image are kept so
  /// that line caps and casings at the edge are drawn whole.
  static func pieces(of segments: [[Coordinate]], on camera: Camera, margin: Double) -> [[PixelPoint]] {
    let worldPoints = 256 * pow(2, camera.zoom)
    let centre = WebMercator.project(camera.center)
    let window = ClipWindow(
      minX: -margin, minY: -margin, maxX: camera.size.width + margin, maxY: camera.size.height + margin)
    var result: [[PixelPoint]] = []
    var previousX: Double?
    for segment in segments {
      var line: [PixelPoint] = []
      line.reserveCapacity(segment.count)
      for coordinate in segment where coordinate.isFiniteCoordinate {
        var world = WebMercator.project(coordinate)
        world = world.nearestCopy(to: previousX ?? centre.x)
        previousX = world.x
        line.append(
          PixelPoint(
            x: camera.size.width / 2 + (world.x - centre.x) * worldPoints,
            y: camera.size.height / 2 + (world.y - centre.y) * worldPoints))
      }
      // Radial decimation first (cheap, linear), so the clipper and Douglas–Peucker see few points.
      let thinned = radiallyThinned(line, minimumDistance: tolerance)
      for piece in Clipping.polyline(thinned, to: window) where piece.count >= 2 {
        result.append(simplified(piece, tolerance: tolerance))
      }
      if line.count == 1, window.containsPoint(line[0]) { result.append(line) }
    }
    return result
  }

  /// The points without those closer than `minimumDistance` to the last one kept (the last point stays).
  static func radiallyThinned(_ line: [PixelPoint], minimumDistance: Double) -> [PixelPoint] {
    guard line.count > 2 else { return line }
    var kept: [PixelPoint] = [line[0]]
    let limit = minimumDistance * minimumDistance
    for point in line.dropFirst().dropLast() {
      let last = kept[kept.count - 1]
      let dx = point.x - last.x
      let dy = point.y - last.y
      if dx * dx + dy * dy >= limit { kept.append(point) }
    }
    kept.append(line[line.count - 1])
    return kept
  }

  /// Douglas–Peucker with an explicit stack (a long line never recurses deeply): the fewest points such
  /// that every dropped one is within `tolerance` of the line kept.
  static func simplified(_ line: [PixelPoint], tolerance: Double) -> [PixelPoint] {
    guard line.count > 2 else { return line }
    var keep = [Bool](repeating: false, count: line.count)
    keep[0] = true
    keep[line.count - 1] = true
    var stack = [(0, line.count - 1)]
    let limit = tolerance * tolerance
    while let (first, last) = stack.popLast() {
      guard last - first > 1 else { continue }
      let a = line[first]
      let b = line[last]
      var farthest = first
      var distance = -1.0
      for index in (first + 1)..<last {
        let d = squaredDistance(line[index], toSegment: a, b)
        if d > distance {
          distance = d
          farthest = index
        }
      }
      if distance > limit {
        keep[farthest] = true
        stack.append((first, farthest))
        stack.append((farthest, last))
      }
    }
    return line.indices.compactMap { keep[$0] ? line[$0] : nil }
  }

  private static func squaredDistance(_ p: PixelPoint, toSegment a: PixelPoint, _ b: PixelPoint) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = dx * dx + dy * dy
    var t = length > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length : 0
    t = min(1, max(0, t))
    let x = a.x + t * dx - p.x
    let y = a.y + t * dy - p.y
    return x * x + y * y
  }
}

extension ClipWindow {
  fileprivate func containsPoint(_ point: PixelPoint) -> Bool {
    point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
  }
}
