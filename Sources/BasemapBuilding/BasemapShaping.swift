import MapMath
import Tiles

/// An axis-aligned box in world space: the clipper's window.
public typealias WorldBox = ClipWindow

extension ClipWindow {
  /// The box around every point of `parts`; nil when there are none.
  public init?(_ parts: [[WorldPoint]]) {
    let points = parts.joined()
    guard let first = points.first else { return nil }
    var box = ClipWindow(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
    for point in points {
      box.minX = min(box.minX, point.x)
      box.maxX = max(box.maxX, point.x)
      box.minY = min(box.minY, point.y)
      box.maxY = max(box.maxY, point.y)
    }
    self = box
  }

  public var width: Double { maxX - minX }
  public var height: Double { maxY - minY }
  /// The longer side: what decides whether a feature is too small to draw.
  public var extent: Double { max(width, height) }

  public func contains(_ other: ClipWindow) -> Bool {
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

  /// Douglas–Peucker (`LineSimplification`) after dropping repeated points: keeps the first and the last
  /// point and every point that lies farther than `tolerance` from the line simplified so far. A closed
  /// line (a ring) stays closed.
  public static func simplify(_ points: [WorldPoint], tolerance: Double) -> [WorldPoint] {
    LineSimplification.douglasPeucker(Clipping.withoutRepeats(points), tolerance: tolerance)
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
    let axis: HalfPlane.Axis = columns.count >= rows.count ? .x : .y
    let range = axis == .x ? columns : rows
    let middle = range.lowerBound + range.count / 2
    let bound = Double(middle) / Double(cellsPerSide)
    for (below, half) in [(true, range.lowerBound..<middle), (false, middle..<range.upperBound)] {
      let side = HalfPlane(axis: axis, bound: bound, keepsBelow: below)
      let clipped: [[WorldPoint]] =
        rings
        ? parts.compactMap { Clipping.closedRing($0, to: side) }
        : parts.flatMap { Clipping.line($0, to: side) }
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
