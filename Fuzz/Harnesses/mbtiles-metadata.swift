import CSQLiteFuzz
import Foundation
import FuzzSupport
import MapMath
import Tiles

// MBTiles metadata as `MBTilesSource` reads it (attribution, format, bounds, zooms, tile size). The input
// is not an SQLite file (that would fuzz SQLite): it is the rows of a well-formed one. Text up to the
// first NUL byte holds `name=value` metadata lines and `tile Z X Y` lines; the bytes after the NUL are the
// data of every tile. The file is written to a RAM-backed folder and opened as a tile source.
let path = MBTilesFile.folder + "/fuzz.mbtiles"
atexit { try? FileManager.default.removeItem(atPath: MBTilesFile.folder) }

Fuzz.run { input in
  let bytes = input.bytes
  let split = bytes.firstIndex(of: 0) ?? bytes.count
  let text = String(decoding: bytes[..<split], as: UTF8.self)
  let tileData = Array(bytes[min(split + 1, bytes.count)...])
  var metadata: [(String, String)] = []
  var tiles: [(Int64, Int64, Int64)] = []
  for line in text.split(separator: "\n") {
    let words = line.split(separator: " ")
    if words.count == 4, words[0] == "tile", let z = Int64(words[1]), let x = Int64(words[2]),
      let y = Int64(words[3])
    {
      tiles.append((z, x, y))
    } else if let equals = line.firstIndex(of: "=") {
      metadata.append((String(line[..<equals]), String(line[line.index(after: equals)...])))
    }
  }
  MBTilesFile.write(path, metadata: metadata, tiles: tiles, data: tileData)
  guard let source = try? MBTilesSource(path: path) else { return }
  require(source.zoomRange.lowerBound >= 0 && source.zoomRange.upperBound <= 30, "zooms \(source.zoomRange)")
  require(TileLimits.isUsableTileSize(source.tileSize), "tile size \(source.tileSize)")
  if let bounds = source.bounds {
    let sides = [bounds.north, bounds.south, bounds.west, bounds.east]
    require(sides.allSatisfy(\.isFinite), "bounds \(bounds)")
  }
  if let attribution = source.attribution {
    require(!attribution.isEmpty && !attribution.contains("\n"), "attribution \(attribution.prefix(200))")
  }
  for (z, x, y) in tiles.prefix(4) {
    if let id = TileID(z: Int(z), x: Int(x), y: Int(y)) { _ = try? source.tileData(id) }
  }
}

/// Writes small MBTiles files with SQLite itself, so every file is well formed.
enum MBTilesFile {
  /// A fresh folder in RAM (`/dev/shm`) when there is one, for speed.
  static let folder: String = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let folder = base + "/mymap-fuzz-mbtiles-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }()

  static func write(
    _ path: String, metadata: [(String, String)], tiles: [(Int64, Int64, Int64)], data: [UInt8]
  ) {
    unlink(path)
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { return }
    defer { sqlite3_close(handle) }
    sqlite3_exec(
      handle,
      "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN; "
        + "CREATE TABLE metadata (name TEXT, value TEXT); "
        + "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);",
      nil, nil, nil)
    // SQLITE_TRANSIENT: SQLite copies the bound bytes (the macro does not import into Swift).
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(handle, "INSERT INTO metadata VALUES (?, ?)", -1, &statement, nil)
    for (name, value) in metadata {
      sqlite3_bind_text(statement, 1, name, -1, transient)
      sqlite3_bind_text(statement, 2, value, -1, transient)
      sqlite3_step(statement)
      sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    sqlite3_prepare_v2(handle, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &statement, nil)
    for (z, x, y) in tiles {
      sqlite3_bind_int64(statement, 1, z)
      sqlite3_bind_int64(statement, 2, x)
      sqlite3_bind_int64(statement, 3, y)
      sqlite3_bind_blob(statement, 4, data, Int32(data.count), transient)
      sqlite3_step(statement)
      sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    sqlite3_exec(handle, "COMMIT", nil, nil, nil)
  }
}
