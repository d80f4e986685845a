import CSQLite
import Foundation
import MapMath
import Tiles
import XCTest

/// The committed fixture: OpenStreetMap tiles, world at zoom 0–3, Pacific and Western Europe at 4–5.
let worldFixturePath = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Fixtures/tiles/world-z0-3.mbtiles").path

/// OSM's sea and land colours, looked up in the fixture with an independent decoder.
let oceanColour: [UInt8] = [170, 211, 223, 255]
let landColour: [UInt8] = [242, 239, 233, 255]

func tile(_ z: Int, _ x: Int, _ y: Int) -> TileID {
  TileID(z: z, x: x, y: y)!
}

func rgba(_ image: RasterImage, _ x: Int, _ y: Int) -> [UInt8] {
  let pixel = image.pixel(x: x, y: y)
  return [pixel.red, pixel.green, pixel.blue, pixel.alpha]
}

/// A PNG tile of one colour.
func pngTile(side: Int = 256, red: UInt8 = 200, green: UInt8 = 100, blue: UInt8 = 50) throws -> Data {
  try PNGCodec.encode(RasterImage(width: side, height: side, red: red, green: green, blue: blue))
}

/// Writes an MBTiles file. Tiles are given in XYZ numbering and stored with TMS rows.
func writeMBTiles(
  at path: String, metadata: [String: String], tiles: [(TileID, Data)], withTilesTable: Bool = true
) throws {
  var handle: OpaquePointer?
  guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw CocoaError(.fileWriteUnknown) }
  defer { sqlite3_close(handle) }
  func run(_ sql: String, _ bind: (OpaquePointer) -> Void = { _ in }) throws {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw CocoaError(
        .fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: String(cString: sqlite3_errmsg(handle))])
    }
    defer { sqlite3_finalize(statement) }
    bind(statement)
    guard sqlite3_step(statement) == SQLITE_DONE else { throw CocoaError(.fileWriteUnknown) }
  }
  // SQLITE_TRANSIENT does not import into Swift: −1 tells SQLite to copy the bound bytes.
  let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
  try run("CREATE TABLE metadata (name TEXT, value TEXT)")
  if withTilesTable {
    try run("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
  }
  for (name, value) in metadata {
    try run("INSERT INTO metadata VALUES (?, ?)") { statement in
      sqlite3_bind_text(statement, 1, name, -1, transient)
      sqlite3_bind_text(statement, 2, value, -1, transient)
    }
  }
  for (id, data) in tiles {
    try run("INSERT INTO tiles VALUES (?, ?, ?, ?)") { statement in
      sqlite3_bind_int64(statement, 1, Int64(id.z))
      sqlite3_bind_int64(statement, 2, Int64(id.x))
      sqlite3_bind_int64(statement, 3, Int64(id.tmsRow))
      _ = data.withUnsafeBytes {
        sqlite3_bind_blob(statement, 4, $0.baseAddress, Int32(data.count), transient)
      }
    }
  }
}
