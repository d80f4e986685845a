import CSQLite
import Foundation

/// Runs SQL on an SQLite file with a connection of its own, so that a test sees what another process would;
/// every column as text ("NULL" for NULL). Throws when the file cannot be opened or the SQL fails.
@discardableResult
public func sqliteRows(_ path: String, _ sql: String) throws -> [[String]] {
  var handle: OpaquePointer?
  guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
    throw CocoaError(.fileReadUnknown)
  }
  defer { sqlite3_close(handle) }
  var statement: OpaquePointer?
  guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
    throw CocoaError(
      .fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: String(cString: sqlite3_errmsg(handle))])
  }
  defer { sqlite3_finalize(statement) }
  var rows: [[String]] = []
  var status = sqlite3_step(statement)
  while status == SQLITE_ROW {
    rows.append(
      (0..<sqlite3_column_count(statement)).map {
        sqlite3_column_text(statement, $0).map { String(cString: $0) } ?? "NULL"
      })
    status = sqlite3_step(statement)
  }
  guard status == SQLITE_DONE else {
    throw CocoaError(
      .fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: String(cString: sqlite3_errmsg(handle))])
  }
  return rows
}

/// The `z/x/tms_row` keys of an MBTiles file's `tiles` and `mymap_freshness` tables, sorted.
public func mbtilesKeys(_ path: String) throws -> (tiles: [String], records: [String]) {
  let key = "zoom_level || '/' || tile_column || '/' || tile_row"
  return (
    try sqliteRows(path, "SELECT \(key) FROM tiles ORDER BY 1").map { $0[0] },
    try sqliteRows(path, "SELECT \(key) FROM mymap_freshness ORDER BY 1").map { $0[0] }
  )
}
