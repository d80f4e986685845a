import Foundation
import SQLite

/// Runs SQL on an SQLite file with a connection of its own, so that a test sees what another process would;
/// every column as text ("NULL" for NULL). Throws when the file cannot be opened or the SQL fails.
@discardableResult
public func sqliteRows(_ path: String, _ sql: String) throws -> [[String]] {
  var options = SQLiteOptions(access: .readWrite)
  options.probe = false
  let connection = try SQLiteConnection(path: path, options: options)
  let statement = try connection.fresh(sql)
  defer { statement.finalize() }
  var rows: [[String]] = []
  while try statement.step() {
    rows.append((0..<statement.columnCount).map { statement.optionalString($0) ?? "NULL" })
  }
  return rows
}

/// Runs an SQL script on an SQLite file, creating the file when missing: for building files (hostile
/// MBTiles with views and odd values, stores from another version) that no writer of mymap would make.
public func sqliteExecute(_ path: String, _ script: String) throws {
  var options = SQLiteOptions(access: .create)
  options.probe = false
  try SQLiteConnection(path: path, options: options).execute(script)
}

/// The `z/x/tms_row` keys of an MBTiles file's `tiles` and `mymap_freshness` tables, sorted.
public func mbtilesKeys(_ path: String) throws -> (tiles: [String], records: [String]) {
  let key = "zoom_level || '/' || tile_column || '/' || tile_row"
  return (
    try sqliteRows(path, "SELECT \(key) FROM tiles ORDER BY 1").map { $0[0] },
    try sqliteRows(path, "SELECT \(key) FROM mymap_freshness ORDER BY 1").map { $0[0] }
  )
}
