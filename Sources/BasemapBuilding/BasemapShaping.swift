import MapMath
import Tiles

/// An axis-aligned box in world space.
public struct WorldBox: Sendable, Equatable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The box around every point of `parts`; nil when there are none.
  public init?(_ parts: [[WorldPoint]]) {
    var box: WorldBox?
    for part in parts {
      for point in part {
        if box == nil {
          box = WorldBox(minX: point.x, minY: point.y, maxX: point.x, maxY: point.y)
        } else {
          box!.minX = min(box!.minX, point.x)
          box!.maxX = max(box!.maxX, point.x)
          box!.minY = min(box!.minY, point.y)
          box!.maxY = max(box!.maxY, point.y)
        }
      }
    }
    guard let box else { return nil }
    self = box
  }

  public var width: Double { maxX - minX }
  public var height: Double { maxY - minY }
  /// The longer side: what decides whether a feature is too small to draw.
  public var extent: Double { max(width, height) }

  public func contains(_ other: WorldBox) -> Bool {
    minX <= other.minX && minY <= other.minY && maxX >= other.maxX && maxY >= other.maxY
  }
}

/// One piece of a feature cut into grid cells: the cell (column, row) and the parts inside it.
public struct GridPiece: Sendable, Equatable {
  public var column: Int
  public var row: Int
  public var parts: [[WorldPoint]]

  public init(column: Int, row: Int, parts: [[WorldPoint]]) {
    self.column = column
    self.row = row
    self.parts = parts
  }
}

/// The geometry work of the basemap builder, in world space: Douglas–Peucker simplification, ring areas,
/// and cutting rings and lines into the cells of a grid (Sutherland–Hodgman for rings, so every piece is a
/// closed ring; pieces of one polygon filled together with the non-zero rule show no cut edges).
///
/// Rings are closed: the last point repeats the first.
public enum BasemapShaping {
  // MARK: Simplification

  /// Douglas–Peucker: keeps the first and the last point and every point that lies farther than
  /// `tolerance` from the line simplified so far. A closed line (a ring) stays closed: its first segment
  /// has zero length, and distances to it are distances to that point.
  public static func simplify(_ points: [WorldPoint], tolerance: Double) -> [WorldPoint] {
    let points = withoutRepeats(points)
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
    var result: [WorldPoint] = []
    for index in points.indices where keep[index] { result.append(points[index]) }
    return result
  }

  /// The points without consecutive repeats.
  public static func withoutRepeats(_ points: [WorldPoint]) -> [WorldPoint] {
    var result: [WorldPoint] = []
    result.reserveCapacity(points.count)
    for point in points where point != result.last { result.append(point) }
    return result
  }

  static func squaredDistance(_ point: WorldPoint, toSegment start: WorldPoint, _ end: WorldPoint) -> Double {
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

  // MARK: Rings

  /// The shoelace area: positive for rings that run clockwise on screen (world y grows down), the
  /// basemap's outer rings; negative for holes. Works for closed and open point lists alike.
  public static func signedArea(_ ring: [WorldPoint]) -> Double {
    guard ring.count > 2 else { return 0 }
    var sum = 0.0
    var previous = ring[ring.count - 1]
    for point in ring {
      sum += previous.x * point.y - point.x * previous.y
      previous = point
    }
    return sum / 2
  }

  /// True when `point` lies inside the ring (even-odd rule; points on the edge may go either way).
  public static func contains(_ ring: [WorldPoint], _ point: WorldPoint) -> Bool {
    var inside = false
    var previous = ring[ring.count - 1]
    for current in ring {
      if (current.y > point.y) != (previous.y > point.y) {
        let x = current.x + (point.y - current.y) * (previous.x - current.x) / (previous.y - current.y)
        if point.x < x { inside.toggle() }
      }
      previous = current
    }
    return inside
  }

  /// A ring that is closed (last point equals the first) and has no repeated points; nil when fewer than
  /// three distinct points remain.
  public static func closedRing(_ points: [WorldPoint]) -> [WorldPoint]? {
    var ring = withoutRepeats(points)
    if ring.count > 1, ring.first == ring.last { ring.removeLast() }
    guard ring.count >= 3 else { return nil }
    ring.append(ring[0])
    return ring
  }

  // MARK: Clipping

  enum Axis {
    case x
    case y
  }

  /// Sutherland–Hodgman against one half-plane (`axis` ≤ `bound` when `below`, else ≥): a closed ring, or
  /// nil when less than a triangle is left.
  static func clipRing(_ ring: [WorldPoint], axis: Axis, bound: Double, below: Bool) -> [WorldPoint]? {
    guard ring.count >= 4 else { return nil }
    func inside(_ point: WorldPoint) -> Bool {
      let value = axis == .x ? point.x : point.y
      return below ? value <= bound : value >= bound
    }
    var output: [WorldPoint] = []
    output.reserveCapacity(ring.count + 4)
    var allInside = true
    for index in 0..<(ring.count - 1) {
      let start = ring[index]
      let end = ring[index + 1]
      let startInside = inside(start)
      let endInside = inside(end)
      allInside = allInside && startInside
      if endInside {
        if !startInside { output.append(crossing(start, end, axis: axis, bound: bound)) }
        output.append(end)
      } else if startInside {
        output.append(crossing(start, end, axis: axis, bound: bound))
      }
    }
    if allInside { return ring }
    return closedRing(output)
  }

  /// The point where segment start–end crosses the line `axis` = `bound`, exactly on that line.
  static func crossing(_ start: WorldPoint, _ end: WorldPoint, axis: Axis, bound: Double) -> WorldPoint {
    switch axis {
    case .x:
      let t = (bound - start.x) / (end.x - start.x)
      return WorldPoint(x: bound, y: start.y + t * (end.y - start.y))
    case .y:
      let t = (bound - start.y) / (end.y - start.y)
      return WorldPoint(x: start.x + t * (end.x - start.x), y: bound)
    }
  }

  /// Clips a closed ring to a box: a closed ring (possibly with zero-width bridges along the box's edges,
  /// which the non-zero fill ignores), or nil when nothing of it is inside.
  public static func clipRing(_ ring: [WorldPoint], to box: WorldBox) -> [WorldPoint]? {
    guard var result = closedRing(ring) else { return nil }
    for (axis, bound, below) in [
      (Axis.x, box.minX, false), (.x, box.maxX, true), (.y, box.minY, false), (.y, box.maxY, true),
    ] {
      guard let clipped = clipRing(result, axis: axis, bound: bound, below: below) else { return nil }
      result = clipped
    }
    return result
  }

  /// Clips an open line to one half-plane: the runs of it inside, each of at least two points.
  static func clipLine(_ line: [WorldPoint], axis: Axis, bound: Double, below: Bool) -> [[WorldPoint]] {
    func inside(_ point: WorldPoint) -> Bool {
      let value = axis == .x ? point.x : point.y
      return below ? value <= bound : value >= bound
    }
    var pieces: [[WorldPoint]] = []
    var current: [WorldPoint] = []
    func finish() {
      let piece = withoutRepeats(current)
      if piece.count >= 2 { pieces.append(piece) }
      current = []
    }
    for (index, point) in line.enumerated() {
      let pointInside = inside(point)
      if index == 0 {
        if pointInside { current.append(point) }
        continue
      }
      let previous = line[index - 1]
      switch (inside(previous), pointInside) {
      case (true, true):
        current.append(point)
      case (true, false):
        current.append(crossing(previous, point, axis: axis, bound: bound))
        finish()
      case (false, true):
        current = [crossing(previous, point, axis: axis, bound: bound), point]
      case (false, false):
        break
      }
    }
    finish()
    return pieces
  }

  /// Clips an open line to a box: the runs of it inside.
  public static func clipLine(_ line: [WorldPoint], to box: WorldBox) -> [[WorldPoint]] {
    var pieces = [line]
    for (axis, bound, below) in [
      (Axis.x, box.minX, false), (.x, box.maxX, true), (.y, box.minY, false), (.y, box.maxY, true),
    ] {
      pieces = pieces.flatMap { clipLine($0, axis: axis, bound: bound, below: below) }
    }
    return pieces
  }

  // MARK: Grid cells

  /// The cells (0..<cellsPerSide) that the span minimum…maximum covers on one axis.
  static func cells(_ minimum: Double, _ maximum: Double, _ cellsPerSide: Int) -> Range<Int> {
    let side = Double(cellsPerSide)
    let first = min(max(Int((minimum * side).rounded(.down)), 0), cellsPerSide - 1)
    let last = min(max(Int((maximum * side).rounded(.up)) - 1, first), cellsPerSide - 1)
    return first..<(last + 1)
  }

  /// Cuts one polygon (its rings, outer and holes, closed) along the grid of `cellsPerSide` cells a side.
  /// A polygon inside one cell comes back whole. Pieces are in row-major cell order; a cell whose rings
  /// enclose no area (say, inside a hole) gives no piece.
  public static func cutPolygon(_ rings: [[WorldPoint]], cellsPerSide: Int) -> [GridPiece] {
    cut(rings, cellsPerSide: cellsPerSide, rings: true)
  }

  /// Cuts lines (open or closed parts) along the grid of `cellsPerSide` cells a side. Lines inside one cell
  /// come back whole. Pieces are in row-major cell order.
  public static func cutLines(_ parts: [[WorldPoint]], cellsPerSide: Int) -> [GridPiece] {
    cut(parts, cellsPerSide: cellsPerSide, rings: false)
  }

  private static func cut(_ parts: [[WorldPoint]], cellsPerSide: Int, rings: Bool) -> [GridPiece] {
    guard cellsPerSide > 0, let box = WorldBox(parts) else { return [] }
    let columns = cells(box.minX, box.maxX, cellsPerSide)
    let rows = cells(box.minY, box.maxY, cellsPerSide)
    if columns.count == 1 && rows.count == 1 {
      return [GridPiece(column: columns.lowerBound, row: rows.lowerBound, parts: parts)]
    }
    var pieces: [GridPiece] = []
    split(parts, columns: columns, rows: rows, cellsPerSide: cellsPerSide, rings: rings, into: &pieces)
    pieces.sort { ($0.row, $0.column) < ($1.row, $1.column) }
    return pieces
  }

  /// Halves the cell range along its longer side, clips the parts to each half and recurses: every point is
  /// clipped about log2(cells) times instead of once per cell.
  private static func split(
    _ parts: [[WorldPoint]], columns: Range<Int>, rows: Range<Int>, cellsPerSide: Int, rings: Bool,
    into pieces: inout [GridPiece]
  ) {
    if columns.count == 1 && rows.count == 1 {
      if rings {
        let kept = parts.filter { abs(signedArea($0)) > minimumArea }
        guard kept.reduce(0, { $0 + signedArea($1) }) > minimumArea else { return }
        pieces.append(GridPiece(column: columns.lowerBound, row: rows.lowerBound, parts: kept))
      } else {
        pieces.append(GridPiece(column: columns.lowerBound, row: rows.lowerBound, parts: parts))
      }
      return
    }
    let axis: Axis = columns.count >= rows.count ? .x : .y
    let range = axis == .x ? columns : rows
    let middle = range.lowerBound + range.count / 2
    let bound = Double(middle) / Double(cellsPerSide)
    for (below, half) in [(true, range.lowerBound..<middle), (false, middle..<range.upperBound)] {
      let clipped: [[WorldPoint]] =
        rings
        ? parts.compactMap { clipRing($0, axis: axis, bound: bound, below: below) }
        : parts.flatMap { clipLine($0, axis: axis, bound: bound, below: below) }
      guard let box = WorldBox(clipped) else { continue }
      // Shrink to the cells the clipped parts still cover.
      let halfColumns = axis == .x ? half : columns
      let halfRows = axis == .y ? half : rows
      let newColumns = cells(box.minX, box.maxX, cellsPerSide).clamped(to: halfColumns)
      let newRows = cells(box.minY, box.maxY, cellsPerSide).clamped(to: halfRows)
      guard !newColumns.isEmpty, !newRows.isEmpty else { continue }
      split(
        clipped, columns: newColumns, rows: newRows, cellsPerSide: cellsPerSide, rings: rings, into: &pieces)
    }
  }

  /// Rings enclosing less than this (in world units squared: about a thousandth of a square pixel at zoom
  /// 12) are dropped from cut pieces: they are slivers along cell edges.
  static let minimumArea = 1e-15
}
