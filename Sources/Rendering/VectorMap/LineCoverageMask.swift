import CCairo
import Foundation
import MapMath

/// Solid vector lines drawn into an image as a coverage mask and laid on it in one Cairo mask operation:
/// lines under two pixels wide (footpaths, tram tracks, boundaries, the outline of every building) and
/// lines with round joins and round or butt caps (a street style's roads and their casings).
///
/// Cairo strokes a line by turning it into a polygon and scan-converting that: for hairlines this cost
/// many times the pixels they touch (footpaths and building outlines were a third of a street map's
/// drawing). Here each pixel near a segment gets the share of it that a band of the line's width across
/// the pixel's centre covers (a box filter across the line, as MapLibre shades a line's edge), a line
/// being the union of its segments' capsules (round joins and caps; under two pixels, a line's joins
/// and caps do not show; a butt cap cuts its end segment's capsule square at the line's end, a hard
/// edge as MapLibre's): a pixel takes the largest coverage any segment of the group gives it, so
/// joints and crossings are not painted twice. Rows are filled whole between a capsule's edges; only
/// the fringe a pixel wide along them needs a distance.
///
/// One mask serves a band canvas for all its layers: it is cleared where it was drawn after each use.
final class LineCoverageMask {
  /// Lines at least this many pixels wide are drawn through the mask only when their joins are round
  /// and their caps round or butt.
  static let hairlineWidth = 2.0

  /// Whether a line with `paint`, on an image at `scale`, is drawn through the mask (else by Cairo).
  static func draws(_ paint: LinePaint, scale: Double) -> Bool {
    guard paint.dashes == nil, paint.gap == 0 else { return false }
    return paint.width * scale < hairlineWidth || (paint.cap != .square && paint.join == .round)
  }

  /// Whether a line with `paint`, drawn through the mask at `scale`, ends square (`addLine`'s
  /// `buttEnds`): hairlines keep round ends, which do not show.
  static func endsButt(_ paint: LinePaint, scale: Double) -> Bool {
    paint.cap == .butt && paint.width * scale >= hairlineWidth
  }

  let pixelWidth: Int
  let pixelHeight: Int
  /// The image row the mask's first row lies on.
  let top: Int
  private let stride: Int
  private let coverage: UnsafeMutablePointer<UInt8>
  /// Whether `coverage` is `SurfaceMemory`'s, to give back.
  private let kept: Bool
  /// The rows drawn since the last clear (empty when minY > maxY).
  private var minY = Int.max
  private var maxY = Int.min
  /// The columns drawn since the last clear in each strip of `stripRows` rows (empty when its first is
  /// above its last): a layer's lines leave most of a band untouched, and only their strips' boxes are
  /// laid on the canvas and cleared.
  private let stripFirst: UnsafeMutablePointer<Int>
  private let stripLast: UnsafeMutablePointer<Int>
  private static let stripRows = 8

  /// A clear mask over `canvas`'s pixel rows.
  init(over canvas: Canvas) {
    pixelWidth = canvas.pixelWidth
    pixelHeight = canvas.rows.count
    top = canvas.rows.lowerBound
    stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(canvas.pixelWidth)))
    // Kept between maps (`SurfaceMemory`): fresh pages would cost a fault each, every band of every map.
    let bytes = max(stride * pixelHeight, 1)
    if let lent = SurfaceMemory.zeroedBytes(bytes) {
      coverage = lent.bindMemory(to: UInt8.self, capacity: bytes)
      kept = true
    } else {
      coverage = .allocate(capacity: bytes)
      coverage.initialize(repeating: 0, count: bytes)
      kept = false
    }
    let strips = (pixelHeight + Self.stripRows - 1) / Self.stripRows
    stripFirst = .allocate(capacity: max(strips, 1))
    stripFirst.initialize(repeating: .max, count: max(strips, 1))
    stripLast = .allocate(capacity: max(strips, 1))
    stripLast.initialize(repeating: .min, count: max(strips, 1))
  }

  deinit {
    if kept { SurfaceMemory.takeBack(UnsafeMutableRawPointer(coverage)) } else { coverage.deallocate() }
    stripFirst.deallocate()
    stripLast.deallocate()
  }

  /// The coverage of pixel (`x`, `y`) of the mask, 0…255 (tests).
  func value(x: Int, y: Int) -> UInt8 { coverage[y * stride + x] }

  /// Adds a line through `points` (image pixels), `width` pixels wide; with `buttEnds` its two ends
  /// are cut square there (a line that comes back to its start, a ring, has no ends, as in MapLibre).
  func addLine(_ points: [PixelPoint], width: Double, buttEnds: Bool = false) {
    // A lone point is no line (Cairo draws nothing for it either).
    guard let start = points.first, let final = points.last, points.count >= 2 else { return }
    if buttEnds {
      if final != start { return addButtLine(points, width: width) }
      // All in one point: no line, no direction to cut its ends square (MapLibre leaves it out).
      if points.allSatisfy({ $0 == start }) { return }
    }
    var last: PixelPoint?
    Self.forEachKept(points) { point in
      if let last { addSegment(last, point, width: width) }
      last = point
    }
  }

  /// The points a line is drawn through: the first and the last always, the others only half a pixel
  /// or more (in x or y) from the last kept. Closer ones bend a line by less than it shows, and each
  /// segment costs its capsule's pixels.
  private static func forEachKept(_ points: [PixelPoint], _ body: (PixelPoint) -> Void) {
    guard var last = points.first else { return }
    body(last)
    let end = points.count - 1
    for index in points.indices.dropFirst() {
      let point = points[index]
      if index != end, abs(point.x - last.x) < 0.5, abs(point.y - last.y) < 0.5 { continue }
      body(point)
      last = point
    }
  }

  /// `addLine` with square ends, each cut square to its end segment. Where a joint lies within half a
  /// width of an end, its whole disc could reach past that end, so there the two segments meet square
  /// and the joint is the disc's outer wedge between them (as Cairo and MapLibre draw a round join);
  /// other joints stay whole discs. The ends differ (`addLine`).
  private func addButtLine(_ points: [PixelPoint], width: Double) {
    var kept: [PixelPoint] = []
    Self.forEachKept(points) { kept.append($0) }
    let (first, final) = (kept[0], kept[kept.count - 1])
    let halfWidthSquared = width * width / 4
    func square(_ point: PixelPoint) -> Bool {
      func near(_ end: PixelPoint) -> Bool {
        let (dx, dy) = (point.x - end.x, point.y - end.y)
        return dx * dx + dy * dy < halfWidthSquared
      }
      return near(first) || near(final)
    }
    for index in 1..<kept.count where kept[index - 1] != kept[index] {
      let (a, b) = (kept[index - 1], kept[index])
      let cuts = (square(a) ? LineCut(at: a, toward: b) : nil, square(b) ? LineCut(at: b, toward: a) : nil)
      addSegment(a, b, width: width, cuts: cuts)
    }
    for index in kept.indices.dropFirst().dropLast() where square(kept[index]) {
      let (before, joint, after) = (kept[index - 1], kept[index], kept[index + 1])
      // Past the joint along the segment that comes in, and before it along the one that leaves.
      guard let incoming = LineCut(at: joint, awayFrom: before),
        let outgoing = LineCut(at: joint, awayFrom: after)
      else { continue }
      addSegment(joint, joint, width: width, cuts: (incoming, outgoing))
    }
  }

  /// Adds Cairo's current path (flattened at the context's tolerance) as lines `width` pixels wide;
  /// `scale` turns its points into image pixels. Subpaths that close come back to their start.
  func addCurrentPath(of cr: OpaquePointer, width: Double, scale: Double) {
    var line: [PixelPoint] = []
    func flush() {
      addLine(line, width: width)
      line.removeAll(keepingCapacity: true)
    }
    PathElement.forEach(inCurrentPathOf: cr, flat: true) { element in
      switch element {
      case .move(let point):
        flush()
        line.append(PixelPoint(x: point.x * scale, y: point.y * scale))
      case .line(let point):
        line.append(PixelPoint(x: point.x * scale, y: point.y * scale))
      case .close:
        if let first = line.first { line.append(first) }
        flush()
      case .curve: break  // flattened away
      }
    }
    flush()
  }

  /// Adds the capsule around `a`–`b` (image pixels) of `width` pixels.
  func addSegment(_ a: PixelPoint, _ b: PixelPoint, width: Double) {
    addSegment(a, b, width: width, cuts: (nil, nil))
  }

  /// `addSegment`, the capsule kept on the inner side of up to two cuts.
  private func addSegment(
    _ a: PixelPoint, _ b: PixelPoint, width: Double, cuts: (LineCut?, LineCut?)
  ) {
    guard width > 0, width.isFinite, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
    // Far-off ends are first cut to the mask widened by the line's reach (what lies beyond never shows),
    // so that lengths, directions and pixel indices stay in range; a segment so long that the cut's
    // rounding loses it (ends beyond 1e15 pixels) is left out. Map lines arrive cut to the view.
    let far = 1e6
    if max(abs(a.x), abs(a.y), abs(b.x), abs(b.y), width) > far {
      guard (b.x - a.x).isFinite, (b.y - a.y).isFinite else { return }
      let margin = min(width / 2, far) + 2
      let window = ClipWindow(
        minX: -margin, minY: Double(top) - margin, maxX: Double(pixelWidth) + margin,
        maxY: Double(top + pixelHeight) + margin)
      for piece in Clipping.polyline([a, b], to: window) where piece.count == 2 {
        addNearSegment(piece[0], piece[1], width: width, cuts: cuts)
      }
      return
    }
    addNearSegment(a, b, width: width, cuts: cuts)
  }

  /// `addSegment` for ends within reach of the mask.
  private func addNearSegment(_ a: PixelPoint, _ b: PixelPoint, width: Double, cuts: (LineCut?, LineCut?)) {
    let half = width / 2
    // Beyond this distance from the segment a pixel's centre gets nothing; within `inside` it is
    // covered whole, and only the fringe between the two needs a distance. Under three pixels the
    // whole part of a row is a pixel or two: cheaper to measure than to find.
    let reach = half + 0.5
    let inside = half >= 1.5 ? half - 0.5 : -1
    let (aY, bY) = (a.y - Double(top), b.y - Double(top))
    // Clamped as Doubles first: a far-off segment or an absurd width must not trap converting to Int.
    let upper = min(aY, bY) - reach
    let lower = max(aY, bY) + reach
    // A band meets many segments of lines that cross into it: those that miss its rows cost no capsule.
    guard upper < Double(pixelHeight), lower >= 0 else { return }
    let capsule = Capsule(
      a: PixelPoint(x: a.x, y: aY), b: PixelPoint(x: b.x, y: bY),
      cuts: (cuts.0?.moved(up: Double(top)), cuts.1?.moved(up: Double(top))))
    let firstRow = max(upper, 0).floorIndex
    let lastRow = min(lower, Double(pixelHeight - 1)).ceilIndex
    guard firstRow <= lastRow else { return }
    let lastPixel = pixelWidth - 1
    // An uncut segment is measured over a run that holds its exact one (`SegmentRowBounds`): the few
    // pixels past an end's disc get nothing, which costs less than finding the exact run. Under three
    // pixels (a building's outline, a footpath, a glyph's outline under its halo) its rows are all fringe.
    var bounds: SegmentRowBounds?
    if cuts.0 == nil, cuts.1 == nil {
      guard let found = SegmentRowBounds(capsule, reach: reach, lastColumn: lastPixel) else { return }
      if inside < 0 { return addThin(capsule, within: found, rows: firstRow...lastRow, half: half) }
      bounds = found
    }
    for row in firstRow...lastRow {
      let centerY = Double(row) + 0.5
      let run =
        if let bounds { bounds.columns(crossing: centerY) } else {
          capsule.columns(crossing: centerY, within: reach, lastColumn: lastPixel)
        }
      guard let span = run else { continue }
      let line = coverage + row * stride
      var core = 1..<1
      if inside >= 0, let whole = capsule.columns(crossing: centerY, within: inside, lastColumn: lastPixel) {
        // Within the span by a pixel; kept there, so that the fringe's runs either side stay ranges.
        let (first, last) = (max(whole.lowerBound, span.lowerBound), min(whole.upperBound, span.upperBound))
        if first <= last {
          core = first..<(last + 1)
          (line + first).update(repeating: 255, count: core.count)
        }
      }
      if core.isEmpty {
        Self.coverFringe(
          span.lowerBound..<(span.upperBound + 1), of: line, y: centerY, capsule: capsule, half: half)
      } else {
        Self.coverFringe(
          span.lowerBound..<core.lowerBound, of: line, y: centerY, capsule: capsule, half: half)
        Self.coverFringe(
          core.upperBound..<(span.upperBound + 1), of: line, y: centerY, capsule: capsule, half: half)
      }
      noteDrawn(row: row, columns: span)
    }
  }

  /// `addNearSegment` for an uncut segment under three pixels wide, whose rows are all fringe.
  private func addThin(
    _ capsule: Capsule, within bounds: SegmentRowBounds, rows: ClosedRange<Int>, half: Double
  ) {
    for row in rows {
      let centerY = Double(row) + 0.5
      guard let span = bounds.columns(crossing: centerY) else { continue }
      Self.coverFringe(
        span.lowerBound..<(span.upperBound + 1), of: coverage + row * stride, y: centerY, capsule: capsule,
        half: half)
      noteDrawn(row: row, columns: span)
    }
  }

  /// Keeps the bounds of what was drawn up to date, for `paint`.
  @inline(__always)
  private func noteDrawn(row: Int, columns: ClosedRange<Int>) {
    let strip = row / Self.stripRows
    stripFirst[strip] = min(stripFirst[strip], columns.lowerBound)
    stripLast[strip] = max(stripLast[strip], columns.upperBound)
    minY = min(minY, row)
    maxY = max(maxY, row)
  }

  /// Covers the pixels `columns` of a row, its centres on the line `y`, as far as the line `half` a width
  /// either side of `capsule`'s segment reaches across each (a pixel keeps a larger coverage it has). A
  /// pixel beside the segment takes its distance across it, without a root; one past an end, from that
  /// end.
  @inline(__always)
  private static func coverFringe(
    _ columns: Range<Int>, of line: UnsafeMutablePointer<UInt8>, y: Double, capsule: Capsule, half: Double
  ) {
    let py = y - capsule.a.y
    let (pyUY, pyUX) = (py * capsule.uy, py * capsule.ux)
    let far = half + 0.5 - 1.0 / 64
    let farSquared = far * far
    for column in columns where line[column] != 255 {
      let x = Double(column) + 0.5
      let px = x - capsule.a.x
      let along = px * capsule.ux + pyUY
      let distance: Double
      if along > 0, along < capsule.length {
        distance = abs(px * capsule.uy - pyUX)
      } else {
        let (ex, ey) = along <= 0 ? (px, py) : (x - capsule.b.x, y - capsule.b.y)
        let squared = ex * ex + ey * ey
        // Past the end's disc, less than a 64th of the pixel would be covered: nothing, without a root.
        guard squared < farSquared else { continue }
        distance = squared.squareRoot()
      }
      // The part of the pixel's width across the line that the line covers, in sixteenths.
      let covered = min(half - distance, 0.5) - max(-half - distance, -0.5)
      guard covered > 0 else { continue }
      // At most 1: 0.5 − (−0.5).
      let sixteenths = Int(covered * 16 + 0.5)
      let value = UInt8(truncatingIfNeeded: (sixteenths &* 255 &+ 8) >> 4)
      if value > line[column] { line[column] = value }
    }
  }

  /// Paints `color` through the mask onto `canvas` (the canvas the mask was made over) and clears it:
  /// straight into its pixels (`SolidMaskLaying`) unless a clip, a group or another operator is set, else
  /// by Cairo. Returns whether it went straight into the pixels (tests).
  @discardableResult
  func paint(_ color: Color, on canvas: Canvas) -> Bool {
    guard minY <= maxY else { return false }
    let strips = (minY / Self.stripRows)...(maxY / Self.stripRows)
    let straight = layStraight(color, on: canvas, strips: strips)
    if !straight { maskThroughCairo(color, on: canvas, strips: strips) }
    for strip in strips { (stripFirst[strip], stripLast[strip]) = (.max, .min) }
    (minY, maxY) = (Int.max, Int.min)
    return straight
  }

  /// Lays `color` through the covered strips straight into the canvas's pixels, clearing them; false,
  /// doing nothing, when Cairo's state asks for more than OVER onto the image itself.
  private func layStraight(_ color: Color, on canvas: Canvas, strips: ClosedRange<Int>) -> Bool {
    guard !canvas.isClipped, cairo_get_operator(canvas.context) == CAIRO_OPERATOR_OVER,
      cairo_get_group_target(canvas.context) == canvas.surface,
      cairo_image_surface_get_format(canvas.surface) == CAIRO_FORMAT_ARGB32,
      let pixels = cairo_image_surface_get_data(canvas.surface)
    else { return false }
    cairo_surface_flush(canvas.surface)
    let pixel = SolidMaskLaying.pixel(color)
    for strip in strips where stripFirst[strip] <= stripLast[strip] {
      let rows = stripRowRange(strip)
      SolidMaskLaying.lay(
        pixel, mask: coverage, maskStride: stride, pixels: UnsafeMutableRawPointer(pixels),
        pixelStride: canvas.stride, columns: stripFirst[strip]...stripLast[strip], rows: rows)
      cairo_surface_mark_dirty_rectangle(
        canvas.surface, Int32(stripFirst[strip]), Int32(rows.lowerBound),
        Int32(stripLast[strip] - stripFirst[strip] + 1), Int32(rows.count))
    }
    return true
  }

  /// Paints `color` through the covered strips with Cairo (which honours its clip, group and operator),
  /// then clears them.
  private func maskThroughCairo(_ color: Color, on canvas: Canvas, strips: ClosedRange<Int>) {
    let cr = canvas.context
    if let surface = cairo_image_surface_create_for_data(
      coverage, CAIRO_FORMAT_A8, Int32(pixelWidth), Int32(pixelHeight), Int32(stride))
    {
      cairo_save(cr)
      // Device pixels: the band's offset puts the mask's rows on the band's.
      cairo_identity_matrix(cr)
      cairo_new_path(cr)
      for strip in strips where stripFirst[strip] <= stripLast[strip] {
        let rows = stripRowRange(strip)
        cairo_rectangle(
          cr, Double(stripFirst[strip]), Double(top + rows.lowerBound),
          Double(stripLast[strip] - stripFirst[strip] + 1), Double(rows.count))
      }
      cairo_clip(cr)
      canvas.drawing.setColor(color)
      cairo_mask_surface(cr, surface, 0, Double(top))
      cairo_restore(cr)
      cairo_surface_finish(surface)
      cairo_surface_destroy(surface)
    }
    for strip in strips where stripFirst[strip] <= stripLast[strip] {
      for row in stripRowRange(strip) {
        (coverage + row * stride + stripFirst[strip]).update(
          repeating: 0, count: stripLast[strip] - stripFirst[strip] + 1)
      }
    }
  }

  /// The mask's rows in strip `strip`.
  private func stripRowRange(_ strip: Int) -> Range<Int> {
    (strip * Self.stripRows)..<min((strip + 1) * Self.stripRows, pixelHeight)
  }
}

/// A square end: the half-plane on the line's side of a line through `point`, its normal (`nx`, `ny`,
/// a unit vector) pointing into the line.
private struct LineCut {
  let point: PixelPoint
  let nx: Double
  let ny: Double

  /// The cut at `end` square to the direction toward `inner`; nil when the two coincide.
  init?(at end: PixelPoint, toward inner: PixelPoint) {
    self.init(point: end, direction: (inner.x - end.x, inner.y - end.y))
  }

  /// The cut at `point` keeping what lies on the side away from `other`.
  init?(at point: PixelPoint, awayFrom other: PixelPoint) {
    self.init(point: point, direction: (point.x - other.x, point.y - other.y))
  }

  private init?(point: PixelPoint, direction: (Double, Double)) {
    // Scaled to the larger component first: a far-off point must not overflow the length.
    let (dx, dy) = direction
    let scale = max(abs(dx), abs(dy))
    guard scale > 0, scale.isFinite else { return nil }
    let (sx, sy) = (dx / scale, dy / scale)
    let length = (sx * sx + sy * sy).squareRoot()
    self.init(point: point, nx: sx / length, ny: sy / length)
  }

  private init(point: PixelPoint, nx: Double, ny: Double) {
    self.point = point
    self.nx = nx
    self.ny = ny
  }

  /// The same cut with `offset` taken from its y (into a band mask's rows).
  func moved(up offset: Double) -> LineCut {
    LineCut(point: PixelPoint(x: point.x, y: point.y - offset), nx: nx, ny: ny)
  }

  /// Narrows `low`…`high` (x on the row line `y`) to the x on the cut's kept side.
  func limit(row y: Double, low: inout Double, high: inout Double) {
    // (x − point.x)·nx + (y − point.y)·ny ≥ 0
    let offset = (y - point.y) * ny
    if abs(nx) < 1e-12 {
      if offset < 0 { (low, high) = (.infinity, -.infinity) }
      return
    }
    let edge = point.x - offset / nx
    if nx > 0 { low = max(low, edge) } else { high = min(high, edge) }
  }
}

/// A segment and the points near it, in the mask's pixels: within a radius of it, cut square where a
/// `LineCut` says.
private struct Capsule {
  let a: PixelPoint
  let b: PixelPoint
  private let cuts: (LineCut?, LineCut?)
  fileprivate let length: Double
  /// The segment's direction, a unit vector (zero for a point), and its components' inverses.
  fileprivate let ux: Double
  fileprivate let uy: Double
  private let inverseUX: Double
  private let inverseUY: Double

  init(a: PixelPoint, b: PixelPoint, cuts: (LineCut?, LineCut?) = (nil, nil)) {
    self.a = a
    self.b = b
    self.cuts = cuts
    let dx = b.x - a.x
    let dy = b.y - a.y
    length = (dx * dx + dy * dy).squareRoot()
    ux = length > 0 ? dx / length : 0
    uy = length > 0 ? dy / length : 0
    // Components this small are taken as zero: their inverse would overflow.
    inverseUX = abs(ux) >= 1e-12 ? 1 / ux : 0
    inverseUY = abs(uy) >= 1e-12 ? 1 / uy : 0
  }

  /// The columns (0…`lastColumn`) whose pixel centres on the row line `y` lie within `radius` of the
  /// segment and on the inner side of its cuts: the capsule is convex, so they are one run, the hull of
  /// what its end discs and its body cut from the line, narrowed by the cuts.
  func columns(crossing y: Double, within radius: Double, lastColumn: Int) -> ClosedRange<Int>? {
    var low = Double.infinity
    var high = -Double.infinity
    func disc(_ end: PixelPoint) {
      guard abs(y - end.y) <= radius else { return }
      let w = (radius * radius - (y - end.y) * (y - end.y)).squareRoot()
      low = min(low, end.x - w)
      high = max(high, end.x + w)
    }
    disc(a)
    disc(b)
    if length > 0 {
      // The body: 0 ≤ along ≤ length and |across| ≤ radius, each linear in x on this row.
      let rowY = y - a.y
      var bodyLow = -Double.infinity
      var bodyHigh = Double.infinity
      func limit(
        _ coefficient: Double, _ inverse: Double, _ offset: Double, _ from: Double, _ to: Double
      ) -> Bool {
        // from ≤ coefficient * x + offset ≤ to, with x measured from a.x.
        if inverse == 0 { return offset >= from && offset <= to }
        let x1 = (from - offset) * inverse
        let x2 = (to - offset) * inverse
        bodyLow = max(bodyLow, min(x1, x2))
        bodyHigh = min(bodyHigh, max(x1, x2))
        return true
      }
      if limit(ux, inverseUX, rowY * uy, 0, length), limit(-uy, -inverseUY, rowY * ux, -radius, radius),
        bodyLow <= bodyHigh
      {
        low = min(low, a.x + bodyLow)
        high = max(high, a.x + bodyHigh)
      }
    }
    cuts.0?.limit(row: y, low: &low, high: &high)
    cuts.1?.limit(row: y, low: &low, high: &high)
    guard low <= high else { return nil }
    return pixelColumns(from: low, to: high, lastColumn: lastColumn)
  }
}

/// The columns 0…`lastColumn` whose pixel centres (x + 0.5) lie within `low`…`high`; nil when none.
/// Clamped as Doubles first: a far-off run or an absurd width must not trap converting to Int.
@inline(__always)
private func pixelColumns(from low: Double, to high: Double, lastColumn: Int) -> ClosedRange<Int>? {
  let bound = Double(lastColumn + 1)
  let first = max(min(max(low - 0.5, -1), bound).ceilIndex, 0)
  let last = min(min(max(high - 0.5, -1), bound).floorIndex, lastColumn)
  return first <= last ? first...last : nil
}

/// Columns of a row that hold every pixel centre within `reach` of a segment (`Capsule`'s exact run and
/// some pixels more): those in its box widened by the reach and within the reach of its line.
private struct SegmentRowBounds {
  private let box: ClosedRange<Int>
  /// x of the line where it crosses y = 0 and its change per row; nil for a line too near the horizontal
  /// or too wide, whose box is its bound.
  private let line: (x0: Double, perRow: Double)?
  /// Half the run the reach cuts from a row across the line.
  private let halfRun: Double

  /// Nil when the box lies off the columns.
  init?(_ capsule: Capsule, reach: Double, lastColumn: Int) {
    guard
      let box = pixelColumns(
        from: min(capsule.a.x, capsule.b.x) - reach, to: max(capsule.a.x, capsule.b.x) + reach,
        lastColumn: lastColumn)
    else { return nil }
    self.box = box
    // A centre within the reach of the line lies within reach / |uy| of its crossing, along the row.
    // The ends lie within a few million pixels (`addSegment` cuts far ones), so with |uy| ≥ 1/1024 and a
    // run under 1e9 every x a row takes stays far inside Int's range.
    let halfRun = reach / abs(capsule.uy)
    if abs(capsule.uy) >= 1.0 / 1024, halfRun < 1e9 {
      let perRow = capsule.ux / capsule.uy
      line = (capsule.a.x - capsule.a.y * perRow, perRow)
      self.halfRun = halfRun
    } else {
      line = nil
      self.halfRun = 0
    }
  }

  /// The columns on the row line `y`; nil when none.
  func columns(crossing y: Double) -> ClosedRange<Int>? {
    guard let line else { return box }
    let x = line.x0 + y * line.perRow
    let first = max((x - halfRun - 0.5).ceilIndex, box.lowerBound)
    let last = min((x + halfRun - 0.5).floorIndex, box.upperBound)
    return first <= last ? first...last : nil
  }
}

extension Double {
  /// The largest whole number not above this one, for values well within `Int`'s range: a
  /// truncation and a compare, where `rounded(.down)` is a call into libm on baseline x86-64.
  fileprivate var floorIndex: Int {
    let truncated = Int(self)
    return Double(truncated) > self ? truncated - 1 : truncated
  }

  /// The smallest whole number not below this one (see `floorIndex`).
  fileprivate var ceilIndex: Int {
    let truncated = Int(self)
    return Double(truncated) < self ? truncated + 1 : truncated
  }
}
