import MapMath

/// World space to points for one world copy, with the clipping that keeps what Cairo gets small and near
/// the view (Cairo's fixed-point coordinates end at about ±8 million), and without the points that are too
/// close to the previous one to matter: a band's geometry serves several zooms, and at the lowest of them
/// most of its points fall within a pixel (stroking them all is the slowest part of drawing the world).
struct BasemapProjection {
  let factor: Double
  let originX: Double
  let originY: Double
  /// Points nearer than this (in points, on both axes) to the last one kept are left out of polygons; lines,
  /// thin and round-joined, use four times as much (a pixel), which does not show either.
  let step: Double

  func point(_ world: WorldPoint) -> PixelPoint {
    PixelPoint(x: originX + world.x * factor, y: originY + world.y * factor)
  }

  /// Projects a ring or a line (its last point always kept), and its bounding box.
  private func project(_ part: [WorldPoint], step: Double) -> ([PixelPoint], PixelRect) {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var points: [PixelPoint] = []
    points.reserveCapacity(part.count)
    let last = part.count - 1
    for (index, world) in part.enumerated() {
      let p = point(world)
      if index != last, let previous = points.last, abs(p.x - previous.x) < step, abs(p.y - previous.y) < step
      {
        continue
      }
      minX = min(minX, p.x)
      maxX = max(maxX, p.x)
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
      points.append(p)
    }
    return (points, PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
  }

  /// Adds the rings of a polygon, each cut to `clip`, to `output` (rings of less than a triangle left out).
  func addPolygon(_ rings: [[WorldPoint]], clip: PixelRect, to output: inout [[PixelPoint]]) {
    for ring in rings where ring.count >= 3 {
      let (points, box) = project(ring, step: step)
      guard points.count >= 3 else { continue }
      guard box.intersects(clip) else { continue }
      if clip.contains(box) {
        output.append(points)
      } else {
        let clipped = Clipping.polygon(points, to: ClipWindow(clip))
        if clipped.count >= 3 { output.append(clipped) }
      }
    }
  }

  /// Adds the parts of a line, cut to `clip`, to `output`. `coarse` lines (the light state borders, dense in
  /// some countries) keep even fewer points.
  func addLine(
    _ parts: [[WorldPoint]], clip: PixelRect, coarse: Bool = false, to output: inout [[PixelPoint]]
  ) {
    for part in parts where part.count >= 2 {
      let (points, box) = project(part, step: (coarse ? 6 : 4) * step)
      guard box.intersects(clip) else { continue }
      if clip.contains(box) {
        output.append(points)
      } else {
        output.append(contentsOf: Clipping.polyline(points, to: ClipWindow(clip)))
      }
    }
  }
}
