import Foundation
import MapMath

/// Tiles from an MBTiles file (an SQLite database with `metadata` and `tiles` tables, rows in TMS order),
/// opened read-only. Safe to read from several threads: reads are serialized on one connection, while
/// decoding (the slow part) happens outside it.
public final class MBTilesSource: TileSource {
  /// The path as given.
  public let path: String
  /// The `metadata` table as written (empty when the table is missing).
  public let metadata: [String: String]
  public let attribution: String?
  public let zoomRange: ClosedRange<Int>
  public let tileSize: Int
  /// The tile image format named by the metadata (`png`, `jpg`, `webp`, …), if any.
  public let format: String?
  /// The area the tiles cover according to the metadata (`bounds` = west,south,east,north), if given.
  public let bounds: GeoBox?
  private let file: SQLiteFile

  public var description: String { path }
  public var cacheIdentity: String { "mbtiles:" + URL(fileURLWithPath: path).standardizedFileURL.path }

  /// Opens an MBTiles file. Throws `TileSourceError` when it is missing, not SQLite, or has no tiles table.
  public init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TileSourceError.notFound(path)
    }
    guard !isDirectory.boolValue else { throw TileSourceError.notATileSource(path) }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw TileSourceError.unreadable(path, "permission denied")
    }
    let file = try SQLiteFile(path: path)
    let tables = try file.rows("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')")
    let names = Set(tables.compactMap { $0[0]?.lowercased() })
    guard names.contains("tiles") else { throw TileSourceError.noTilesTable(path) }

    var metadata: [String: String] = [:]
    if names.contains("metadata") {
      for row in try file.rows("SELECT name, value FROM metadata") {
        if let name = row[0], let value = row[1] { metadata[name] = value }
      }
    }
    self.path = path
    self.file = file
    self.metadata = metadata
    attribution = metadata["attribution"].flatMap(plainAttribution)
    format = metadata["format"]?.lowercased()
    bounds = metadata["bounds"].flatMap(Self.parseBounds)
    zoomRange = try Self.zoomRange(metadata: metadata, file: file)
    tileSize = try Self.tileSize(metadata: metadata, file: file, zoomRange: zoomRange)
  }

  public func tileData(_ id: TileID) throws -> Data? {
    try file.blob(
      "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
      [id.z, id.x, id.tmsRow])
  }

  /// Zooms from `minzoom`/`maxzoom` metadata, else from the tiles present (0...0 when there are none).
  private static func zoomRange(metadata: [String: String], file: SQLiteFile) throws -> ClosedRange<Int> {
    var low = metadata["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    var high = metadata["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    if low == nil || high == nil {
      let row = try file.rows("SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles").first
      low = low ?? row?[0].flatMap { Int($0) }
      high = high ?? row?[1].flatMap { Int($0) }
    }
    let first = min(max(low ?? 0, 0), 30)
    return first...min(max(high ?? first, first), 30)
  }

  /// Tile size from a `tilesize` metadata entry (not in the MBTiles spec, but some tools write it), else
  /// from the PNG header of a tile at the lowest zoom; 256 when neither says.
  private static func tileSize(metadata: [String: String], file: SQLiteFile, zoomRange: ClosedRange<Int>)
    throws -> Int
  {
    let entry = metadata.first { ["tilesize", "tile_size"].contains($0.key.lowercased()) }?.value
    if let size = entry.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), size > 0 { return size }
    let sample =
      try file.blob("SELECT tile_data FROM tiles WHERE zoom_level = ? LIMIT 1", [zoomRange.lowerBound])
      ?? file.blob("SELECT tile_data FROM tiles LIMIT ?", [1])
    if let sample, let size = PNGCodec.size(of: sample), size.width == size.height { return size.width }
    return 256
  }

  private static func parseBounds(_ text: String) -> GeoBox? {
    let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard values.count == 4 else { return nil }
    return GeoBox(north: values[3], south: values[1], west: values[0], east: values[2])
  }
}
