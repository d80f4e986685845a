import MapMath

/// A uniform grid over rectangles, so that "does this rectangle hit anything placed?" stays fast with
/// thousands of pins.
struct RectIndex {
  private let cellSize: Double
  private var cells: [Cell: [Int]] = [:]
  private(set) var rects: [(rect: PixelRect, owner: Int)] = []

  private struct Cell: Hashable {
    let column: Int
    let row: Int
  }

  init(cellSize: Double = 64) {
    self.cellSize = cellSize
  }

  /// Adds a rectangle; `owner` lets a query ignore the rectangles of one place.
  mutating func insert(_ rect: PixelRect, owner: Int) {
    let index = rects.count
    rects.append((rect, owner))
    for cell in cells(covering: rect) { cells[cell, default: []].append(index) }
  }

  /// True when `rect` overlaps any rectangle not owned by `ignoring`.
  func intersects(_ rect: PixelRect, ignoring: Int? = nil) -> Bool {
    for cell in cells(covering: rect) {
      for index in cells[cell] ?? [] {
        let entry = rects[index]
        if entry.owner != ignoring && entry.rect.intersects(rect) { return true }
      }
    }
    return false
  }

  private func cells(covering rect: PixelRect) -> [Cell] {
    let firstColumn = Int((rect.minX / cellSize).rounded(.down))
    let lastColumn = Int((rect.maxX / cellSize).rounded(.down))
    let firstRow = Int((rect.minY / cellSize).rounded(.down))
    let lastRow = Int((rect.maxY / cellSize).rounded(.down))
    var result: [Cell] = []
    for row in firstRow...max(firstRow, lastRow) {
      for column in firstColumn...max(firstColumn, lastColumn) {
        result.append(Cell(column: column, row: row))
      }
    }
    return result
  }
}
