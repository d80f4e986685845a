import FileSystem
import Foundation
import MapMath

// MARK: - A tile folder's inventory and pruning

extension TileCacheInventory {
  /// The inventory of a tile folder: its tile files, dated by their modification dates.
  static func folder(_ path: String) throws -> TileCacheInventory {
    var levels: [Int: ZoomLevel] = [:]
    var oldest: Date?
    var newest: Date?
    for tile in try tileFiles(in: path) {
      levels[tile.id.z, default: ZoomLevel(zoom: tile.id.z, tiles: 0, bytes: 0)].tiles += 1
      levels[tile.id.z]!.bytes += tile.bytes
      oldest = min(oldest ?? tile.modified, tile.modified)
      newest = max(newest ?? tile.modified, tile.modified)
    }
    return TileCacheInventory(
      path: path, kind: .directory, zooms: levels.values.sorted { $0.zoom < $1.zoom }, oldest: oldest,
      newest: newest, hasFetchDates: false, tilesWithoutFetchDate: 0, oldestIsFileDate: false,
      newestIsFileDate: false)
  }

  func pruneFolder(olderThan date: Date) throws -> (removed: Int, bytes: Int) {
    let old = try tiles(olderThan: date)
    guard !old.isEmpty else { return (0, 0) }
    let files = FileManager.default
    let records = try Self.freshnessRecords(ofFolder: path)
    var removed: [TileFile] = []
    var failure: Error?
    // In batches, the records first and committed, then the files: a stop in between leaves tiles without
    // records (fetched again when asked for), never a record without a tile, and no transaction holds the
    // freshness file's write lock for long (a fetch may be writing records meanwhile). A failure ends the
    // loop but keeps what was done.
    let batchSize = 500
    var start = 0
    batches: while start < old.count {
      let batch = old[start..<min(start + batchSize, old.count)].filter { tile in
        // Checked again: a tile refreshed (touched) since the listing stays.
        guard let attributes = try? files.attributesOfItem(atPath: path + "/" + tile.relativePath),
          attributes[.type] as? FileAttributeType == .typeRegular,
          let modified = attributes[.modificationDate] as? Date
        else { return false }
        return modified < date
      }
      start += batchSize
      if let records {
        do {
          try records.transaction { transaction in
            for tile in batch {
              try transaction.run(
                "DELETE FROM freshness WHERE z = ? AND x = ? AND y = ?",
                [.integer(Int64(tile.id.z)), .integer(Int64(tile.id.x)), .integer(Int64(tile.id.y))])
            }
          }
        } catch {
          failure = error
          break batches
        }
      }
      for tile in batch {
        let file = path + "/" + tile.relativePath
        guard unlink(file) == 0 || errno == ENOENT else {
          failure = TileCacheError.cannotRemove(file, TileCacheFiles.errnoDescription())
          break batches
        }
        removed.append(tile)
      }
    }
    var columnFolders: [String] = []
    var zoomFolders: [String] = []
    for tile in removed {
      let column = path + "/\(tile.id.z)/\(tile.id.x)"
      if columnFolders.last != column { columnFolders.append(column) }
    }
    for folder in columnFolders where Self.isEmptyFolder(folder) {
      try? files.removeItem(atPath: folder)
      let zoom = (folder as NSString).deletingLastPathComponent
      if zoomFolders.last != zoom { zoomFolders.append(zoom) }
    }
    for folder in zoomFolders where Self.isEmptyFolder(folder) {
      try? files.removeItem(atPath: folder)
    }
    if let failure { try Self.pruning(path) { throw failure } }
    return (removed.count, removed.reduce(0) { $0 + $1.bytes })
  }

  /// The connection to a folder's `freshness.sqlite` when it has a `freshness` table; nil when it has
  /// none (a folder not filled by `mymap tiles fetch`).
  private static func freshnessRecords(ofFolder path: String) throws -> SQLiteFile? {
    let file = path + "/" + DirectoryTileCache.freshnessFileName
    guard FileManager.default.fileExists(atPath: file) else { return nil }
    return try pruning(path) {
      let database = try SQLiteFile(path: file, mode: .readWrite)
      let tables = try database.values(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = 'freshness'")
      return tables.isEmpty ? nil : database
    }
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
            (DirectoryTileSource.tileExtensions + DirectoryTileSource.vectorTileExtensions).contains(
              String(name[name.index(after: dot)...])),
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
