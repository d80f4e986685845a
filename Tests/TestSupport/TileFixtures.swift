import Foundation
import ImageCodecs
import MapMath
import SQLite
import Tiles
import XCTest

/// The committed fixture: OpenStreetMap tiles, world at zoom 0–3, Pacific and Western Europe at 4–5.
public let worldFixturePath = RepositoryPaths.fixture("tiles/world-z0-3.mbtiles").path

/// OSM's sea and land colours, looked up in the fixture with an independent decoder.
public let oceanColour: [UInt8] = [170, 211, 223, 255]
public let landColour: [UInt8] = [242, 239, 233, 255]

public func tile(_ z: Int, _ x: Int, _ y: Int) -> TileID {
  TileID(z: z, x: x, y: y)!
}

public func rgba(_ image: RasterImage, _ x: Int, _ y: Int) -> [UInt8] {
  let pixel = image.pixel(x: x, y: y)
  return [pixel.red, pixel.green, pixel.blue, pixel.alpha]
}

/// A PNG tile of one colour.
public func pngTile(side: Int = 256, red: UInt8 = 200, green: UInt8 = 100, blue: UInt8 = 50) throws -> Data {
  try PNGCodec.encode(RasterImage(width: side, height: side, red: red, green: green, blue: blue))
}

/// Writes an MBTiles file. Tiles are given in XYZ numbering and stored with TMS rows.
public func writeMBTiles(
  at path: String, metadata: [String: String], tiles: [(TileID, Data)], withTilesTable: Bool = true
) throws {
  var options = SQLiteOptions(access: .create)
  options.probe = false
  let connection = try SQLiteConnection(path: path, options: options)
  try connection.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
  if withTilesTable {
    try connection.execute(
      "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
  }
  for (name, value) in metadata {
    try connection.run("INSERT INTO metadata VALUES (?, ?)", [.text(name), .text(value)])
  }
  for (id, data) in tiles {
    try connection.run(
      "INSERT INTO tiles VALUES (?, ?, ?, ?)",
      [.integer(id.z), .integer(id.x), .integer(id.tmsRow), .blob(data)])
  }
}
