import CCairo
import MapMath
import VectorTiles

/// Puts one tile's feature geometry on Cairo's current path, in points, cut at a rectangle: the tile's
/// own square (tiles carry a buffer of their neighbours' data, which must not be drawn twice) within a
/// margin around the image (which keeps Cairo's fixed-point coordinates in range however far the map
/// is zoomed).
///
/// Vertices closer than `step` to the last one kept are left out: they do not show, and tiles drawn
/// below their zoom carry many of them.
///
/// Parts are left out when they miss the `visible` rectangle (a band of the image, drawn apart) but cut
/// at the clip rectangle alone, so that a band draws the very edges the whole image would.
struct TilePath {
  /// Where tile coordinate (0, 0) lands, in points.
  let originX: Double
  let originY: Double
  /// Points per tile unit.
  let unit: Double
  let clip: PixelRect
  /// Parts that miss it are left out.
  let visible: PixelRect
  let step: Double

  init(tileRect: PixelRect, extent: Int, view: PixelRect, visible: PixelRect? = nil, step: Double) {
    originX = tileRect.minX
    originY = tileRect.minY
    unit = tileRect.width / Double(max(extent, 1))
    let clip = Self.intersection(tileRect, view)
    self.clip = clip
    self.visible = visible.map { Self.intersection(clip, $0) } ?? clip
    self.step = step
  }

  private static func intersection(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
    let minX = max(a.minX, b.minX)
    let minY = max(a.minY, b.minY)
    return PixelRect(
      x: minX, y: minY, width: max(min(a.maxX, b.maxX) - minX, 0), height: max(min(a.maxY, b.maxY) - minY, 0))
  }

  @inline(__always)
  func point(_ p: VectorTilePoint) -> PixelPoint {
    PixelPoint(x: originX + Double(p.x) * unit, y: originY + Double(p.y) * unit)
  }

  /// The part's bounding box in points.
  private func bounds(_ part: ArraySlice<VectorTilePoint>) -> PixelRect {
    var minX = Int32.max
    var minY = Int32.max
    var maxX = Int32.min
    var maxY = Int32.min
    for p in part {
      minX = min(minX, p.x)
      maxX = max(maxX, p.x)
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
    }
    let topLeft = point(VectorTilePoint(x: minX, y: minY))
    return PixelRect(
      x: topLeft.x, y: topLeft.y, width: Double(Int64(maxX) - Int64(minX)) * unit,
      height: Double(Int64(maxY) - Int64(minY)) * unit)
  }

  private static func overlaps(_ a: PixelRect, _ b: PixelRect) -> Bool {
    a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
  }

  /// Adds every ring of a polygon feature as a closed subpath, winding as given (exteriors and holes
  /// fill by the nonzero rule).
  func addPolygon(_ geometry: VectorTileGeometry, to cr: OpaquePointer) {
    for ring in geometry.parts where ring.count >= 3 {
      let box = bounds(ring)
      guard Self.overlaps(box, visible) else { continue }
      if clip.contains(box) {
        addThinned(ring, closed: true, cr)
      } else {
        let clipped = Clipping.polygon(ring.map(point), to: ClipWindow(clip))
        if clipped.count >= 3 { add(clipped, closed: true, cr) }
      }
    }
  }

  /// Adds every line of a line feature (or the rings of a polygon, closed into lines) as open subpaths.
  func addLines(_ geometry: VectorTileGeometry, to cr: OpaquePointer) {
    let closeRings = geometry.type == .polygon
    for part in geometry.parts where part.count >= 2 {
      let box = bounds(part)
      guard Self.overlaps(box, visible) else { continue }
      if clip.contains(box) {
        addThinned(part, closed: closeRings, cr)
        continue
      }
      var points = part.map(point)
      if closeRings, let first = points.first { points.append(first) }
      for piece in Clipping.polyline(points, to: ClipWindow(clip)) { add(piece, closed: false, cr) }
    }
  }

  /// Calls `body` with every line of a line feature (or ring of a polygon, closed) as `addLines` would
  /// add it (thinned, cut at the clip rectangle), in image pixels (points times `scale`), gathered in
  /// `buffer`: one array reused for every line of a layer, where a city's buildings were thousands of
  /// allocations a band.
  func forEachLine(
    _ geometry: VectorTileGeometry, scale: Double, buffer: inout [PixelPoint], _ body: ([PixelPoint]) -> Void
  ) {
    let closeRings = geometry.type == .polygon
    for part in geometry.parts where part.count >= 2 {
      let box = bounds(part)
      guard Self.overlaps(box, visible) else { continue }
      buffer.removeAll(keepingCapacity: true)
      if clip.contains(box) {
        forEachThinned(part) { buffer.append(PixelPoint(x: $0.x * scale, y: $0.y * scale)) }
        if closeRings { buffer.append(buffer[0]) }
        body(buffer)
        continue
      }
      var points = part.map(point)
      if closeRings, let first = points.first { points.append(first) }
      for piece in Clipping.polyline(points, to: ClipWindow(clip)) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: piece.lazy.map { PixelPoint(x: $0.x * scale, y: $0.y * scale) })
        body(buffer)
      }
    }
  }

  /// The feature's lines (a polygon's rings closed into lines) in points, cut at the clip rectangle,
  /// each piece with its distance from its line's start (for dashes).
  func measuredLines(_ geometry: VectorTileGeometry) -> [LinePieces.Piece] {
    var result: [LinePieces.Piece] = []
    for part in geometry.parts where part.count >= 2 {
      guard Self.overlaps(bounds(part), visible) else { continue }
      var points = part.map(point)
      if geometry.type == .polygon, let first = points.first { points.append(first) }
      result += LinePieces.clip(points, to: clip)
    }
    return result
  }

  /// The feature's lines in points, cut at the clip rectangle (for line labels).
  func lines(_ geometry: VectorTileGeometry) -> [[PixelPoint]] {
    var result: [[PixelPoint]] = []
    for part in geometry.parts where part.count >= 2 {
      let box = bounds(part)
      guard Self.overlaps(box, visible) else { continue }
      let points = part.map(point)
      if clip.contains(box) {
        result.append(points)
      } else {
        result.append(contentsOf: Clipping.polyline(points, to: ClipWindow(clip)))
      }
    }
    return result
  }

  private func addThinned(_ part: ArraySlice<VectorTilePoint>, closed: Bool, _ cr: OpaquePointer) {
    guard !part.isEmpty else { return }
    var first = true
    forEachThinned(part) { p in
      if first { cairo_move_to(cr, p.x, p.y) } else { cairo_line_to(cr, p.x, p.y) }
      first = false
    }
    if closed { cairo_close_path(cr) }
  }

  /// The part's points in points, first and last always, others only `step` or more from the last kept.
  @inline(__always)
  private func forEachThinned(_ part: ArraySlice<VectorTilePoint>, _ body: (PixelPoint) -> Void) {
    guard let first = part.first else { return }
    var last = point(first)
    body(last)
    let end = part.endIndex - 1
    for index in part.indices.dropFirst() {
      let p = point(part[index])
      if index != end, abs(p.x - last.x) < step, abs(p.y - last.y) < step { continue }
      body(p)
      last = p
    }
  }

  private func add(_ points: [PixelPoint], closed: Bool, _ cr: OpaquePointer) {
    guard let first = points.first else { return }
    var last = first
    cairo_move_to(cr, first.x, first.y)
    let end = points.count - 1
    for index in 1..<max(points.count, 1) {
      let p = points[index]
      if index != end, abs(p.x - last.x) < step, abs(p.y - last.y) < step { continue }
      cairo_line_to(cr, p.x, p.y)
      last = p
    }
    if closed { cairo_close_path(cr) }
  }
}
