import MapMath

/// A uniform grid over an image, so that "does this rectangle hit anything placed?" stays fast with a
/// million pins: a flat array of cells, no hashing, no allocation per query.
///
/// Rectangles are filed under the cells they cover, clamped to the grid: one partly outside `bounds` goes
/// to the edge cells, and since clamping keeps the order of coordinates, two rectangles that overlap still
/// share a cell; any rectangle, however large, costs at most the grid's cells. One farther than `reach`
/// from `bounds` is not kept (a million pins off a zoomed-in image would crowd the edge cells): a query
/// must not reach farther out than that.
struct RectIndex {
  private let bounds: PixelRect
  private let kept: PixelRect
  private let columns: Int
  private let rows: Int
  private let cellWidth: Double
  private let cellHeight: Double
  private var cells: [[Int]]
  private var rects: [(rect: PixelRect, owner: Int)] = []

  /// A grid of cells about `cellSize` points wide over `bounds` (at most 256 a side), keeping the
  /// rectangles that come within `reach` points of it.
  init(bounds: PixelRect, cellSize: Double = 64, reach: Double = 64) {
    let width = bounds.width.isFinite ? max(bounds.width, 1) : 1
    let height = bounds.height.isFinite ? max(bounds.height, 1) : 1
    self.bounds = PixelRect(
      x: bounds.x.isFinite ? bounds.x : 0, y: bounds.y.isFinite ? bounds.y : 0, width: width, height: height)
    columns = Int(min(max((width / cellSize).rounded(.up), 1), 256))
    rows = Int(min(max((height / cellSize).rounded(.up), 1), 256))
    kept = self.bounds.insetBy(dx: -reach, dy: -reach)
    cellWidth = width / Double(columns)
    cellHeight = height / Double(rows)
    cells = Array(repeating: [], count: columns * rows)
  }

  /// Adds a rectangle; `owner` lets a query ignore the rectangles of one place.
  mutating func insert(_ rect: PixelRect, owner: Int) {
    guard rect.intersects(kept) else { return }
    let index = rects.count
    rects.append((rect, owner))
    let (columnRange, rowRange) = cellRanges(covering: rect)
    for row in rowRange {
      for column in columnRange { cells[row * columns + column].append(index) }
    }
  }

  /// True when `rect` overlaps any rectangle not owned by `ignoring`.
  func intersects(_ rect: PixelRect, ignoring: Int? = nil) -> Bool {
    let (columnRange, rowRange) = cellRanges(covering: rect)
    for row in rowRange {
      for column in columnRange {
        for index in cells[row * columns + column] {
          let entry = rects[index]
          if entry.owner != ignoring && entry.rect.intersects(rect) { return true }
        }
      }
    }
    return false
  }

  private func cellRanges(covering rect: PixelRect) -> (ClosedRange<Int>, ClosedRange<Int>) {
    let first = (
      cell(at: rect.minX - bounds.minX, size: cellWidth, count: columns),
      cell(at: rect.minY - bounds.minY, size: cellHeight, count: rows)
    )
    let last = (
      cell(at: rect.maxX - bounds.minX, size: cellWidth, count: columns),
      cell(at: rect.maxY - bounds.minY, size: cellHeight, count: rows)
    )
    return (min(first.0, last.0)...max(first.0, last.0), min(first.1, last.1)...max(first.1, last.1))
  }

  /// The cell along one axis holding `offset`, clamped to the grid (a NaN to the first).
  private func cell(at offset: Double, size: Double, count: Int) -> Int {
    let cell = (offset / size).rounded(.down)
    guard !cell.isNaN else { return 0 }
    return Int(max(0, min(cell, Double(count - 1))))
  }
}
