import Foundation
import MapMath

/// What a tile cache holds: tiles and bytes per zoom, and the oldest and newest modification dates.
///
/// A directory cache is read file by file (`{z}/{x}/{y}.png|jpg|jpeg|webp`; other files, such as
/// `metadata.json`, are not counted) and its dates are the tile files' modification dates. An MBTiles file
/// stores no date per tile, so both dates are the file's own modification date (`datesAreFileDate`).
public struct TileCacheInventory: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    case directory
    case mbtiles
  }

  /// Tiles and bytes at one zoom.
  public struct ZoomLevel: Sendable, Equatable {
    public let zoom: Int
    public var tiles: Int
    public var bytes: Int

    public init(zoom: Int, tiles: Int, bytes: Int) {
      self.zoom = zoom
      self.tiles = tiles
      self.bytes = bytes
    }
  }

  /// One tile file of a directory cache.
  public struct TileFile: Sendable, Equatable {
    public let id: TileID
    /// `z/x/y.ext`, relative to the cache folder.
    public let relativePath: String
    public let bytes: Int
    public let modified: Date
  }

  /// The cache as given.
  public let path: String
  public let kind: Kind
  /// The zooms that hold tiles, lowest first.
  public let zooms: [ZoomLevel]
  public let oldest: Date?
  public let newest: Date?

  public var tileCount: Int { zooms.reduce(0) { $0 + $1.tiles } }
  public var totalBytes: Int { zooms.reduce(0) { $0 + $1.bytes } }
  /// True for MBTiles: `oldest` and `newest` are the file's modification date, not the tiles'.
  public var datesAreFileDate: Bool { kind == .mbtiles }

  /// Reads the cache at `path`: a tile folder or an MBTiles file. Throws `TileSourceError` when the path
  /// is missing, unreadable or not a tile cache.
  public init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TileSourceError.notFound(path)
    }
    self.path = path
    if isDirectory.boolValue {
      kind = .directory
      var levels: [Int: ZoomLevel] = [:]
      var oldest: Date?
      var newest: Date?
      for tile in try Self.tileFiles(in: path) {
        levels[tile.id.z, default: ZoomLevel(zoom: tile.id.z, tiles: 0, bytes: 0)].tiles += 1
        levels[tile.id.z]!.bytes += tile.bytes
        oldest = min(oldest ?? tile.modified, tile.modified)
        newest = max(newest ?? tile.modified, tile.modified)
      }
      zooms = levels.values.sorted { $0.zoom < $1.zoom }
      self.oldest = oldest
      self.newest = newest
      return
    }
    let lowered = path.lowercased()
    guard lowered.hasSuffix(".mbtiles") || SQLiteFile.hasHeader(path: path) else {
      throw TileSourceError.notATileSource(path)
    }
    _ = try MBTilesSource(path: path)  // checks that this is SQLite with a tiles table
    let rows = try SQLiteFile(path: path).rows(
      "SELECT zoom_level, COUNT(*), COALESCE(SUM(LENGTH(tile_data)), 0) FROM tiles "
        + "GROUP BY zoom_level ORDER BY zoom_level")
    kind = .mbtiles
    zooms = rows.compactMap { row in
      guard row.count == 3, let zoom = row[0].flatMap({ Int($0) }), let tiles = row[1].flatMap({ Int($0) })
      else { return nil }
      return ZoomLevel(zoom: zoom, tiles: tiles, bytes: row[2].flatMap { Int($0) } ?? 0)
    }
    let modified =
      (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    oldest = zooms.isEmpty ? nil : modified
    newest = zooms.isEmpty ? nil : modified
  }

  /// The tile files last modified before `date`, in `z/x/y` order. Only directory caches have dates per
  /// tile: for an MBTiles file this throws `TileCacheError.pruneNotSupported`.
  public func tiles(olderThan date: Date) throws -> [TileFile] {
    guard kind == .directory else { throw TileCacheError.pruneNotSupported(path) }
    return try Self.tileFiles(in: path).filter { $0.modified < date }
  }

  /// Removes the tile files last modified before `date`, then the `{z}/{x}` folders that this left empty.
  /// Nothing that is not a tile file is ever removed (no `metadata.json`, no other files, no non-empty
  /// folder). Throws `TileCacheError` for MBTiles files (not supported yet) and when a file cannot be
  /// removed (what was removed before stays removed).
  @discardableResult
  public func prune(olderThan date: Date) throws -> (removed: Int, bytes: Int) {
    let old = try tiles(olderThan: date)
    let files = FileManager.default
    var removed = 0
    var bytes = 0
    var columnFolders: [String] = []
    for tile in old {
      let file = path + "/" + tile.relativePath
      do {
        try files.removeItem(atPath: file)
      } catch {
        throw TileCacheError.cannotRemove(file, (error as NSError).localizedDescription)
      }
      removed += 1
      bytes += tile.bytes
      let column = path + "/\(tile.id.z)/\(tile.id.x)"
      if columnFolders.last != column { columnFolders.append(column) }
    }
    var zoomFolders: [String] = []
    for folder in columnFolders where Self.isEmptyFolder(folder) {
      try? files.removeItem(atPath: folder)
      let zoom = (folder as NSString).deletingLastPathComponent
      if zoomFolders.last != zoom { zoomFolders.append(zoom) }
    }
    for folder in zoomFolders where Self.isEmptyFolder(folder) {
      try? files.removeItem(atPath: folder)
    }
    return (removed, bytes)
  }

  private static func isEmptyFolder(_ path: String) -> Bool {
    (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false
  }

  /// Every tile file in a directory cache: regular files (not links) at `z/x/y.ext` with decimal names
  /// inside the tile grid and one of `DirectoryTileSource.tileExtensions`. Throws `notATileSource` when the
  /// folder holds things but neither zoom folders nor a `metadata.json`.
  static func tileFiles(in path: String) throws -> [TileFile] {
    let files = FileManager.default
    let names: [String]
    do {
      names = try files.contentsOfDirectory(atPath: path)
    } catch {
      throw TileSourceError.unreadable(path, (error as NSError).localizedDescription)
    }
    let zooms = names.compactMap { name -> Int? in
      guard let zoom = decimal(name), zoom <= 30 else { return nil }
      return zoom
    }.sorted()
    if zooms.isEmpty && !names.isEmpty && !names.contains("metadata.json") {
      throw TileSourceError.notATileSource(path)
    }
    var result: [TileFile] = []
    for zoom in zooms {
      let zoomFolder = "\(path)/\(zoom)"
      let columns = ((try? files.contentsOfDirectory(atPath: zoomFolder)) ?? []).compactMap(decimal).sorted()
      for x in columns {
        let columnFolder = "\(zoomFolder)/\(x)"
        var tiles: [TileFile] = []
        for name in (try? files.contentsOfDirectory(atPath: columnFolder)) ?? [] {
          guard let dot = name.lastIndex(of: "."),
            DirectoryTileSource.tileExtensions.contains(String(name[name.index(after: dot)...])),
            let y = decimal(String(name[..<dot])), let id = TileID(z: zoom, x: x, y: y),
            let attributes = try? files.attributesOfItem(atPath: "\(columnFolder)/\(name)"),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let modified = attributes[.modificationDate] as? Date
          else { continue }
          let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
          tiles.append(
            TileFile(id: id, relativePath: "\(zoom)/\(x)/\(name)", bytes: bytes, modified: modified))
        }
        result += tiles.sorted { ($0.id.y, $0.relativePath) < ($1.id.y, $1.relativePath) }
      }
    }
    return result
  }

  /// A folder or file stem of decimal digits only (no sign, no spaces), as a number.
  private static func decimal(_ name: String) -> Int? {
    guard !name.isEmpty, name.count <= 9, name.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return Int(name)
  }
}

/// Why a tile cache could not be opened or changed. Each `description` is one line for the user; those
/// about opening a cache for `mymap tiles fetch` say what to do (`--to` names the cache there).
public enum TileCacheError: Error, Equatable, CustomStringConvertible {
  /// Pruning works on tile folders only; MBTiles files keep no date per tile.
  case pruneNotSupported(String)
  /// A tile file could not be removed; the second value says why.
  case cannotRemove(String, String)
  /// The folder holds files but is not a mymap tile cache (it has no `metadata.json` written by mymap).
  case foreignFolder(String)
  /// The MBTiles file was not made by mymap (its metadata names no `mymap_source`).
  case foreignMBTiles(String)
  /// The cache holds tiles of another source: path, the cache's source, the source asked for.
  case otherSource(String, cached: String, requested: String)
  /// The cache holds tiles of another pixel size: path, the cache's size, the size asked for.
  case otherTileSize(String, cached: Int, requested: Int)
  /// The file is not an MBTiles file; the second value says why ("it is not an SQLite database").
  case notAnMBTilesFile(String, String)
  /// The path is a file that is neither a folder nor an MBTiles file.
  case notAFolder(String)
  /// The cache cannot be created or written; the second value says why.
  case notWritable(String, String)
  /// A tile or the cache's metadata could not be written (disk full, …); the second value says why.
  case writeFailed(String, String)
  /// The cache's SQLite database failed (locked too long, damaged); the second value says why.
  case databaseFailed(String, String)
  /// The bytes given for a tile are not a PNG, JPEG or WebP image.
  case notAnImage(String)

  public var description: String {
    switch self {
    case .pruneNotSupported(let path):
      return "pruning an MBTiles file is not supported yet (\(path)); it keeps no date per tile"
    case .cannotRemove(let path, let reason):
      return "cannot remove tile \(path): \(reason)"
    case .foreignFolder(let path):
      return
        "\(path) is not empty and is not a mymap tile cache (it has no metadata.json written by mymap); "
        + "choose an empty or new folder for --to"
    case .foreignMBTiles(let path):
      return "\(path) is an MBTiles file not made by mymap; choose a new .mbtiles file for --to"
    case .otherSource(let path, let cached, let requested):
      return "\(path) holds tiles from \(cached), not \(requested); choose another --to"
    case .otherTileSize(let path, let cached, let requested):
      return "\(path) holds \(cached)-pixel tiles, not \(requested)-pixel ones; choose another --to"
    case .notAnMBTilesFile(let path, let reason):
      return "\(path) is not an MBTiles file (\(reason)); choose another --to"
    case .notAFolder(let path):
      return "\(path) is a file, neither a folder nor an .mbtiles file; choose another --to"
    case .notWritable(let path, let reason):
      return "cannot write to tile cache \(path) (\(reason)); check its permissions or choose another --to"
    case .writeFailed(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .databaseFailed(let path, let reason):
      return "tile cache database \(path) failed: \(reason)"
    case .notAnImage(let tile):
      return "cannot cache tile \(tile): its bytes are not a PNG, JPEG or WebP image"
    }
  }
}
