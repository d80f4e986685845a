import Foundation
import MapMath
import SQLite

// MARK: - An MBTiles file's inventory and pruning

extension TileCacheInventory {
  /// The inventory of an MBTiles file: tiles per zoom, dated by `mymap_freshness` where `mymap tiles fetch`
  /// wrote it, else by the file's modification date.
  static func mbtiles(_ path: String) throws -> TileCacheInventory {
    _ = try MBTilesSource(path: path)  // checks that this is SQLite with a tiles table
    let database = try SQLiteFile(path: path)
    // Rows outside the tile grid's zooms are no tiles (and could be millions of groups).
    let rows = try database.rows(
      "SELECT zoom_level, COUNT(*), COALESCE(SUM(LENGTH(tile_data)), 0) FROM tiles "
        + "WHERE zoom_level BETWEEN 0 AND 30 GROUP BY zoom_level ORDER BY zoom_level")
    let zooms = rows.compactMap { row -> ZoomLevel? in
      guard row.count == 3, let zoom = row[0].flatMap({ Int($0) }), let tiles = row[1].flatMap({ Int($0) })
      else { return nil }
      return ZoomLevel(zoom: zoom, tiles: tiles, bytes: row[2].flatMap { Int($0) } ?? 0)
    }
    let tileCount = zooms.reduce(0) { $0 + $1.tiles }
    let hasFetchDates = try hasFreshnessTable(database)
    var fetched: ClosedRange<Date>?
    var tilesWithoutFetchDate = tileCount
    if hasFetchDates {
      let row = try database.values(
        "SELECT MIN(\(fetchDate)), MAX(\(fetchDate)), COUNT(*) - COUNT(\(fetchDate)) FROM tiles AS t "
          + freshnessJoin
      ).first
      if let low = row?[0].real, let high = row?[1].real, low <= high {
        fetched = Date(timeIntervalSince1970: low)...Date(timeIntervalSince1970: high)
      }
      tilesWithoutFetchDate = row?[2].integer ?? tileCount
    }
    let modified = tilesWithoutFetchDate > 0 ? modificationDate(path) : nil
    let oldestIsFileDate = modified.map { date in fetched.map { date < $0.lowerBound } ?? true } ?? false
    let newestIsFileDate = modified.map { date in fetched.map { date > $0.upperBound } ?? true } ?? false
    return TileCacheInventory(
      path: path, kind: .mbtiles, zooms: zooms,
      oldest: oldestIsFileDate ? modified : fetched?.lowerBound,
      newest: newestIsFileDate ? modified : fetched?.upperBound, hasFetchDates: hasFetchDates,
      tilesWithoutFetchDate: tilesWithoutFetchDate, oldestIsFileDate: oldestIsFileDate,
      newestIsFileDate: newestIsFileDate)
  }

  func pruneMBTiles(olderThan date: Date) throws -> (removed: Int, bytes: Int) {
    // Read-only first: a file with nothing to remove is not opened for writing (it may be read-only).
    guard try !tiles(olderThan: date).isEmpty else { return (0, 0) }
    let fileDate = Self.modificationDate(path)
    return try Self.pruning(path) {
      let database = try SQLiteFile(path: path, mode: .readWrite)
      // Listed again inside the transaction: another process may have refreshed or removed tiles since.
      return try database.transaction { transaction in
        let old = try Self.mbtilesTiles(in: transaction, olderThan: date, fileDate: fileDate)
        for tile in old {
          let key: [SQLiteValue] = [
            .integer(Int64(tile.id.z)), .integer(Int64(tile.id.x)), .integer(Int64(tile.id.tmsRow)),
          ]
          try transaction.run(
            "DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", key)
          try transaction.run(
            "DELETE FROM mymap_freshness WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", key)
        }
        return (old.count, old.reduce(0) { $0 + $1.bytes })
      }
    }
  }

  /// Joins each row of `tiles AS t` to its row of `mymap_freshness AS f`, if any.
  /// The fetch date of the row of `mymap_freshness AS f`, NULL unless it is a date from 1970 to 9999: a
  /// date written by another program (±∞, 1e308) is no date, and the file's own stands in for it.
  private static let fetchDate = "CASE WHEN f.fetched BETWEEN 0 AND 253402300799 THEN f.fetched END"

  private static let freshnessJoin =
    "LEFT JOIN mymap_freshness AS f ON f.zoom_level = t.zoom_level AND f.tile_column = t.tile_column "
    + "AND f.tile_row = t.tile_row"

  private static func hasFreshnessTable(_ database: SQLiteFile) throws -> Bool {
    try !database.values(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = 'mymap_freshness'"
    ).isEmpty
  }

  /// The tiles of an MBTiles file dated before `date`, in `z/x/y` order (XYZ rows): by their fetch date,
  /// or `fileDate` for a tile without one (never, when `fileDate` is nil). Rows outside the tile grid are
  /// left out.
  static func mbtilesTiles(in database: some SQLiteQueries, olderThan date: Date, fileDate: Date?) throws
    -> [TileFile]
  {
    let rows = try database.values(
      "SELECT t.zoom_level, t.tile_column, t.tile_row, LENGTH(t.tile_data), \(fetchDate) FROM tiles AS t "
        + freshnessJoin + " WHERE COALESCE(\(fetchDate), ?1) < ?2 "
        + "ORDER BY t.zoom_level, t.tile_column, t.tile_row DESC",
      [fileDate.map { .real($0.timeIntervalSince1970) } ?? .null, .real(date.timeIntervalSince1970)])
    return rows.compactMap { row in
      // The row is checked before it is turned around: a row of -2^63 would overflow.
      guard let z = row[0].integer, let x = row[1].integer, let tmsRow = row[2].integer, (0...30).contains(z),
        (0..<(1 << z)).contains(tmsRow), let id = TileID(z: z, x: x, y: (1 << z) - 1 - tmsRow),
        let modified = row[4].real.map(Date.init(timeIntervalSince1970:)) ?? fileDate
      else { return nil }
      return TileFile(
        id: id, relativePath: "\(z)/\(x)/\(id.y)", bytes: row[3].integer ?? 0, modified: modified)
    }
  }
}
