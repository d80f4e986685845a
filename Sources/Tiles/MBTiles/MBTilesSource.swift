import FileSystem
import Foundation
import ImageCodecs
import MapMath
import SQLite

/// Tiles from an MBTiles file (an SQLite database with `metadata` and `tiles` tables, rows in TMS order),
/// opened read-only. Safe to read from several threads: reads are serialized on one connection, while
/// decoding (the slow part) happens outside it.
public final class MBTilesSource: TileSource {
  /// The path as given.
  public let path: String
  /// The entries of the `metadata` table that mymap reads (attribution, format, bounds, zooms, tile size),
  /// as written; empty when the table is missing.
  public let metadata: [String: String]
  public let attribution: String?
  public let zoomRange: ClosedRange<Int>
  public let tileSize: Int
  /// Images, or vector tiles when the metadata's `format` says `pbf`.
  public let content: TileContent
  /// The tile image format named by the metadata (`png`, `jpg`, `webp`, …), if any.
  public let format: String?
  /// The area the tiles cover according to the metadata (`bounds` = west,south,east,north), if given.
  public let bounds: GeoBox?
  private let file: SQLiteFile

  /// The metadata names read, in lower case (SQLite compares them without case).
  static let metadataNames = [
    "attribution", "format", "bounds", "minzoom", "maxzoom", "tilesize", "tile_size",
  ]

  public var description: String { path }
  public var cacheIdentity: String { "mbtiles:" + URL(fileURLWithPath: path).standardizedFileURL.path }

  /// Opens an MBTiles file. Throws `TileSourceError` when it is missing, not a regular file, not SQLite,
  /// has no tiles table, or its metadata is unusable (a tile size that cannot be drawn, values beyond
  /// `TileLimits`).
  public init(path: String) throws {
    guard let kind = FileKind(path: path) else { throw TileSourceError.notFound(path) }
    guard kind == .regular else { throw TileSourceError.notAFile(path, kind: kind.description) }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw TileSourceError.unreadable(path, "permission denied")
    }
    let file = try SQLiteFile(path: path)
    let tables = try file.rows(
      "SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'view') "
        + "AND lower(name) IN ('tiles', 'metadata')")
    let names = Set(tables.compactMap { $0.first ?? nil })
    guard names.contains("tiles") else { throw TileSourceError.noTilesTable(path) }

    let metadata = names.contains("metadata") ? try Self.readMetadata(file, path: path) : [:]
    self.path = path
    self.file = file
    self.metadata = metadata
    attribution = metadata["attribution"].flatMap(plainAttribution)
    format = metadata["format"]?.lowercased()
    content = try TileContent.named(format, source: path) ?? .raster
    bounds = metadata["bounds"].flatMap(Self.parseBounds)
    zoomRange = try Self.zoomRange(metadata: metadata, file: file)
    tileSize = try Self.tileSize(
      metadata: metadata, file: file, zoomRange: zoomRange, path: path, vector: content == .vector)
  }

  /// The tile's bytes. A tile larger than `TileLimits.maximumTileBytes` is not read: it throws
  /// `TileSourceError.badTile`, which a `TileLoader` counts as a failed tile.
  public func tileData(_ id: TileID) throws -> Data? {
    let limit = TileLimits.maximumTileBytes
    // length() of a BLOB comes from the record header: a tile claiming gigabytes is never loaded.
    let rows = try file.values(
      "SELECT length(tile_data), CASE WHEN length(tile_data) <= ?4 THEN tile_data END FROM tiles "
        + "WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3 LIMIT 1",
      [.integer(Int64(id.z)), .integer(Int64(id.x)), .integer(Int64(id.tmsRow)), .integer(Int64(limit))])
    guard let row = rows.first, row.count == 2 else { return nil }
    if let length = row[0].integer, length > limit {
      throw TileSourceError.badTile(
        path, id, reason: "its data has \(length) bytes, more than the limit of \(ByteCount.text(limit))")
    }
    switch row[1] {
    case .blob(let data): return data
    case .text(let text): return Data(text.utf8)
    default: return Data()
    }
  }

  /// The metadata entries mymap reads. Throws `badMetadata` for more than
  /// `TileLimits.maximumMetadataEntries` of them or a value over `maximumMetadataValueBytes`.
  private static func readMetadata(_ file: SQLiteFile, path: String) throws -> [String: String] {
    let names = metadataNames.map { "'\($0)'" }.joined(separator: ", ")
    let limit = TileLimits.maximumMetadataValueBytes
    // Values of any type are read as text (a number, or a blob's bytes as UTF-8); a long one is not loaded.
    let rows = try file.values(
      "SELECT name, length(CAST(value AS BLOB)), "
        + "CASE WHEN length(CAST(value AS BLOB)) <= ?1 THEN CAST(value AS TEXT) END "
        + "FROM metadata WHERE lower(name) IN (\(names)) LIMIT ?2",
      [.integer(Int64(limit)), .integer(Int64(TileLimits.maximumMetadataEntries + 1))])
    guard rows.count <= TileLimits.maximumMetadataEntries else {
      throw TileSourceError.badMetadata(
        path,
        "more than \(TileLimits.maximumMetadataEntries) entries named \(metadataNames.joined(separator: ", "))"
      )
    }
    var metadata: [String: String] = [:]
    for row in rows where row.count == 3 {
      guard case .text(let name) = row[0] else { continue }
      if let length = row[1].integer, length > limit {
        throw TileSourceError.badMetadata(
          path, "the value of '\(name)' has \(length) bytes, more than the limit of \(ByteCount.text(limit))")
      }
      if case .text(let value) = row[2] { metadata[name] = value }
    }
    return metadata
  }

  /// Zooms from `minzoom`/`maxzoom` metadata, else from the tiles present (0...0 when there are none).
  private static func zoomRange(metadata: [String: String], file: SQLiteFile) throws -> ClosedRange<Int> {
    var low = metadata["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    var high = metadata["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    if low == nil || high == nil {
      let row = try file.values(
        "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles WHERE zoom_level BETWEEN 0 AND 30"
      ).first
      low = low ?? row?[0].integer
      high = high ?? row?[1].integer
    }
    let first = min(max(low ?? 0, 0), 30)
    return first...min(max(high ?? first, first), 30)
  }

  /// Tile size from a `tilesize` metadata entry (not in the MBTiles spec, but some tools write it), which
  /// must be a whole number in `TileLimits.tileSizes`; else from the PNG header of one of the first tiles
  /// at the lowest zoom (a size outside the limits is passed over); 256 when neither says (512 for vector tiles).
  private static func tileSize(
    metadata: [String: String], file: SQLiteFile, zoomRange: ClosedRange<Int>, path: String, vector: Bool
  ) throws -> Int {
    if let (name, value) = metadata.first(where: { ["tilesize", "tile_size"].contains($0.key.lowercased()) })
    {
      let text = value.trimmingCharacters(in: .whitespaces)
      guard let size = Int(text) ?? Double(text).flatMap(Int.init(exactly:)),
        TileLimits.isUsableTileSize(size)
      else {
        throw TileSourceError.badTileSize(path, declaredIn: "'\(name)' in its metadata", value: value)
      }
      return size
    }
    // Vector tiles are made to be drawn 512 points wide (the size MapLibre styles count zooms in).
    if vector { return 512 }
    // Only the headers are read, and only of tiles small enough to be read at all: a few at the lowest
    // zoom, else a few anywhere.
    let small = "length(tile_data) <= \(TileLimits.maximumTileBytes)"
    let atLowest = try file.values(
      "SELECT substr(tile_data, 1, 24) FROM tiles WHERE zoom_level = ? AND \(small) LIMIT 8",
      [.integer(Int64(zoomRange.lowerBound))])
    let anywhere = { try file.values("SELECT substr(tile_data, 1, 24) FROM tiles WHERE \(small) LIMIT 8") }
    return try sampledSize(atLowest) ?? sampledSize(anywhere()) ?? 256
  }

  /// The first usable square size in the PNG headers of `rows`.
  private static func sampledSize(_ rows: [[SQLiteValue]]) -> Int? {
    for row in rows {
      guard case .blob(let header) = row.first, let size = PNGCodec.size(of: header),
        size.width == size.height, TileLimits.isUsableTileSize(size.width)
      else { continue }
      return size.width
    }
    return nil
  }

  private static func parseBounds(_ text: String) -> GeoBox? {
    let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard values.count == 4, values.allSatisfy(\.isFinite) else { return nil }
    return GeoBox(north: values[3], south: values[1], west: values[0], east: values[2])
  }
}
