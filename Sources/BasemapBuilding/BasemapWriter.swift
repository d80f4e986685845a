import Foundation
import SQLite
import Tiles

/// A new SQLite file being written by the builder: one transaction, prepared inserts, `VACUUM` at the end.
///
/// Not `Sendable`: used by one build on one thread.
final class BasemapWriter {
  private let path: String
  private var connection: SQLiteConnection?
  private static let insertFeatureSQL =
    "INSERT INTO feature(id, kind, band, name, rank, geometry) VALUES (?, ?, ?, ?, ?, ?)"
  private static let insertBoxSQL = "INSERT INTO feature_box VALUES (?, ?, ?, ?, ?, ?, ?)"
  private static let insertMetaSQL = "INSERT INTO meta(key, value) VALUES (?, ?)"

  init(path: String, pageSize: Int) throws {
    self.path = path
    var options = SQLiteOptions(access: .create)
    options.probe = false
    do throws(SQLiteError) {
      let connection = try SQLiteConnection(path: path, options: options)
      self.connection = connection
      // The page size must be set before the first table exists; it is part of the bytes written.
      try connection.execute("PRAGMA page_size = \(pageSize)")
      try connection.execute("PRAGMA journal_mode = OFF")
      try connection.execute("PRAGMA synchronous = OFF")
      for statement in BasemapFileFormat.schema { try connection.execute(statement) }
      try connection.execute("BEGIN")
    } catch {
      throw BasemapBuildError(path, error.message)
    }
  }

  func insert(
    id: Int64, kind: BasemapKind, band: Int, name: String?, rank: Double, geometry: [UInt8], box: WorldBox,
    layers: ClosedRange<Int>
  ) throws {
    try run(
      Self.insertFeatureSQL,
      [.integer(id), .text(kind.rawValue), .integer(band), .text(name), .real(rank), .blob(Data(geometry))])
    boxes.append(PendingBox(id: id, box: box, layers: layers))
  }

  /// An R-tree entry, inserted at the end in an order of its own.
  private struct PendingBox {
    var id: Int64
    var box: WorldBox
    var layers: ClosedRange<Int>

    /// Layers, then the box centre's place on a Hilbert curve, then the id.
    var order: (Int, Int, UInt64, Int64) {
      let side = Double(0xFFFF)
      let x = UInt32(min(max((box.minX + box.maxX) / 2, 0), 1) * side)
      let y = UInt32(min(max((box.minY + box.maxY) / 2, 0), 1) * side)
      return (layers.lowerBound, layers.upperBound, hilbertIndex(x, y), id)
    }
  }

  private var boxes: [PendingBox] = []

  /// Fills the R-tree with entries of one layer and place together: SQLite's R*-tree builds its nodes in
  /// insertion order, and entries in feature order (cities by population) would make every node span the
  /// world, so that a small window visits most of them (ten times slower at zoom 10–16).
  private func insertBoxes() throws {
    for entry in boxes.sorted(by: { $0.order < $1.order }) {
      try run(
        Self.insertBoxSQL,
        [
          .integer(entry.id), .real(entry.box.minX), .real(entry.box.maxX), .real(entry.box.minY),
          .real(entry.box.maxY), .integer(entry.layers.lowerBound), .integer(entry.layers.upperBound),
        ])
    }
    boxes = []
  }

  func insertMeta(_ key: String, _ value: String) throws {
    try run(Self.insertMetaSQL, [.text(key), .text(value)])
  }

  /// Commits, vacuums (a compact file whose bytes depend only on what was inserted) and closes.
  func finish() throws {
    try insertBoxes()
    do throws(SQLiteError) {
      try connection?.execute("COMMIT")
      try connection?.execute("VACUUM")
    } catch {
      throw BasemapBuildError(path, error.message)
    }
    connection = nil
  }

  private func run(_ sql: String, _ values: [SQLiteValue]) throws {
    guard let connection else { return }
    do throws(SQLiteError) {
      try connection.run(sql, values)
    } catch {
      throw BasemapBuildError(path, error.message)
    }
  }
}

/// The distance along a Hilbert curve over a 2^16 × 2^16 grid of the cell (x, y): cells near each other on
/// the curve are near each other on the map.
private func hilbertIndex(_ x: UInt32, _ y: UInt32) -> UInt64 {
  var x = x
  var y = y
  var index: UInt64 = 0
  var size: UInt32 = 1 << 15
  while size > 0 {
    let rx: UInt32 = x & size != 0 ? 1 : 0
    let ry: UInt32 = y & size != 0 ? 1 : 0
    index += UInt64(size) * UInt64(size) * UInt64((3 * rx) ^ ry)
    if ry == 0 {
      if rx == 1 {
        x = 0xFFFF - x
        y = 0xFFFF - y
      }
      swap(&x, &y)
    }
    size >>= 1
  }
  return index
}
