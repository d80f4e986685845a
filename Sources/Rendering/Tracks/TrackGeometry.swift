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

  /// Douglas–Peucker (`LineSimplification`): the fewest points such that every dropped one is within
  /// `tolerance` of the line kept.
  static func simplified(_ line: [PixelPoint], tolerance: Double) -> [PixelPoint] {
    LineSimplification.douglasPeucker(line, tolerance: tolerance)
  }
}

extension ClipWindow {
  fileprivate func containsPoint(_ point: PixelPoint) -> Bool {
    point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
  }
}
