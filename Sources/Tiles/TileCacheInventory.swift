import FileSystem
import Foundation
import MapMath
import SQLite

/// What a tile cache holds: tiles and bytes per zoom, and the oldest and newest tile dates.
///
/// A directory cache is read file by file (`{z}/{x}/{y}.png|jpg|jpeg|webp`; other files, such as
/// `metadata.json`, are not counted) and its dates are the tile files' modification dates (a refresh that
/// the server confirms with 304 touches the file, so this is when the tile was last fetched or confirmed).
/// An MBTiles file written by `mymap tiles fetch` keeps a `mymap_freshness` table with each tile's fetch
/// date (`hasFetchDates`); a tile without a record there, and every tile of any other MBTiles file, is
/// dated by the file's own modification date (`tilesWithoutFetchDate`, `oldestIsFileDate`,
/// `newestIsFileDate`): no tile was written after it.
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

  /// One tile of the cache, with its date.
  public struct TileFile: Sendable, Equatable {
    public let id: TileID
    /// `z/x/y.ext`, relative to the cache folder; for a tile of an MBTiles file `z/x/y` (XYZ row).
    public let relativePath: String
    public let bytes: Int
    /// The tile file's modification date; for an MBTiles tile its fetch date, else the file's
    /// modification date.
    public let modified: Date
  }

  /// The cache as given.
  public let path: String
  public let kind: Kind
  /// The zooms that hold tiles, lowest first.
  public let zooms: [ZoomLevel]
  public let oldest: Date?
  public let newest: Date?
  /// True for an MBTiles file with fetch dates (a `mymap_freshness` table, written by `mymap tiles fetch`):
  /// only such a file can be pruned. False for a folder, whose tile files have dates of their own.
  public let hasFetchDates: Bool
  /// The tiles of an MBTiles file dated by the file's modification date: those without a fetch date, which
  /// is every tile of a file without fetch dates. 0 for a folder.
  public let tilesWithoutFetchDate: Int
  /// True when `oldest` is the MBTiles file's modification date, standing in for tiles without a fetch
  /// date.
  public let oldestIsFileDate: Bool
  /// True when `newest` is the MBTiles file's modification date, standing in for tiles without a fetch
  /// date.
  public let newestIsFileDate: Bool

  public var tileCount: Int { zooms.reduce(0) { $0 + $1.tiles } }
  public var totalBytes: Int { zooms.reduce(0) { $0 + $1.bytes } }

  /// Reads the cache at `path`: a tile folder or an MBTiles file. Throws `TileSourceError` when the path
  /// is missing, unreadable or not a tile cache.
  public init(path: String) throws {
    guard let fileKind = FileKind(path: path) else { throw TileSourceError.notFound(path) }
    let lowered = path.lowercased()
    // As `openTileSource`: no folder named like an MBTiles file, nothing that would block or never end.
    guard fileKind == .regular || (fileKind == .folder && !lowered.hasSuffix(".mbtiles")) else {
      throw TileSourceError.notAFile(path, kind: fileKind.description)
    }
    self.path = path
    if fileKind == .folder {
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
      hasFetchDates = false
      tilesWithoutFetchDate = 0
      oldestIsFileDate = false
      newestIsFileDate = false
      return
    }
    guard lowered.hasSuffix(".mbtiles") || SQLiteFile.hasHeader(path: path) else {
      throw TileSourceError.notATileSource(path)
    }
    _ = try MBTilesSource(path: path)  // checks that this is SQLite with a tiles table
    let database = try SQLiteFile(path: path)
    // Rows outside the tile grid's zooms are no tiles (and could be millions of groups).
    let rows = try database.rows(
      "SELECT zoom_level, COUNT(*), COALESCE(SUM(LENGTH(tile_data)), 0) FROM tiles "
        + "WHERE zoom_level BETWEEN 0 AND 30 GROUP BY zoom_level ORDER BY zoom_level")
    kind = .mbtiles
    zooms = rows.compactMap { row in
      guard row.count == 3, let zoom = row[0].flatMap({ Int($0) }), let tiles = row[1].flatMap({ Int($0) })
      else { return nil }
      return ZoomLevel(zoom: zoom, tiles: tiles, bytes: row[2].flatMap { Int($0) } ?? 0)
    }
    let tileCount = zooms.reduce(0) { $0 + $1.tiles }
    hasFetchDates = try Self.hasFreshnessTable(database)
    var fetched: ClosedRange<Date>?
    if hasFetchDates {
      let row = try database.values(
        "SELECT MIN(\(Self.fetchDate)), MAX(\(Self.fetchDate)), COUNT(*) - COUNT(\(Self.fetchDate)) "
          + "FROM tiles AS t "
          + Self.freshnessJoin
      ).first
      if let low = row?[0].real, let high = row?[1].real, low <= high {
        fetched = Date(timeIntervalSince1970: low)...Date(timeIntervalSince1970: high)
      }
      tilesWithoutFetchDate = row?[2].integer ?? tileCount
    } else {
      tilesWithoutFetchDate = tileCount
    }
    let modified = tilesWithoutFetchDate > 0 ? Self.modificationDate(path) : nil
    oldestIsFileDate = modified.map { date in fetched.map { date < $0.lowerBound } ?? true } ?? false
    newestIsFileDate = modified.map { date in fetched.map { date > $0.upperBound } ?? true } ?? false
    oldest = oldestIsFileDate ? modified : fetched?.lowerBound
    newest = newestIsFileDate ? modified : fetched?.upperBound
  }

  /// The tiles dated before `date`, in `z/x/y` order (XYZ rows). Throws `TileCacheError.pruneNotSupported`
  /// for an MBTiles file without fetch dates.
  public func tiles(olderThan date: Date) throws -> [TileFile] {
    switch kind {
    case .directory:
      return try Self.tileFiles(in: path).filter { $0.modified < date }
    case .mbtiles:
      guard hasFetchDates else { throw TileCacheError.pruneNotSupported(path) }
      return try Self.mbtilesTiles(
        in: SQLiteFile(path: path), olderThan: date, fileDate: Self.modificationDate(path))
    }
  }

  /// Removes the tiles dated before `date`, with their freshness records.
  ///
  /// - In a folder: the tile files last modified before `date` (checked again just before each goes: a
  ///   tile refreshed meanwhile stays), their records in `freshness.sqlite` (each one before its file, in
  ///   one transaction, so no record outlives its tile), then the `{z}/{x}` folders this left empty.
  ///   Nothing that is not a tile file is ever removed (no `metadata.json`, no other files, no non-empty
  ///   folder).
  /// - In an MBTiles file with fetch dates: the tiles fetched before `date` (a tile without a fetch date:
  ///   when the file was last modified before it) and their `mymap_freshness` rows, in one transaction.
  ///   The file does not shrink (no VACUUM): SQLite reuses the freed pages for later tiles.
  ///
  /// Returns how many tiles were removed and their bytes. Throws `TileCacheError.pruneNotSupported` for an
  /// MBTiles file without fetch dates, and `TileCacheError` when a tile cannot be removed (in a folder,
  /// what was removed before stays removed; in an MBTiles file, nothing is).
  @discardableResult
  public func prune(olderThan date: Date) throws -> (removed: Int, bytes: Int) {
    switch kind {
    case .directory: return try pruneFolder(olderThan: date)
    case .mbtiles: return try pruneMBTiles(olderThan: date)
    }
  }

  private func pruneFolder(olderThan date: Date) throws -> (removed: Int, bytes: Int) {
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

  private func pruneMBTiles(olderThan date: Date) throws -> (removed: Int, bytes: Int) {
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

  /// Runs `body`, which changes the cache at `path` for `prune`, turning `notWritable` (whose text is
  /// about `mymap tiles fetch`) into `cannotPrune`.
  private static func pruning<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch TileCacheError.notWritable(_, let reason) {
      throw TileCacheError.cannotPrune(path, reason)
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

  private static func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
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
  /// The MBTiles file has no fetch dates (no `mymap_freshness` table: it was not written by
  /// `mymap tiles fetch`), so it cannot be pruned.
  case pruneNotSupported(String)
  /// A tile file could not be removed; the second value says why.
  case cannotRemove(String, String)
  /// The cache cannot be changed to prune it (read-only file or folder); the second value says why.
  case cannotPrune(String, String)
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
      return
        "cannot prune \(path): the MBTiles file has no fetch dates "
        + "(it was not written by 'mymap tiles fetch')"
    case .cannotRemove(let path, let reason):
      return "cannot remove tile \(path): \(reason)"
    case .cannotPrune(let path, let reason):
      return "cannot prune \(path): \(reason)"
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
