import Foundation
import ImageCodecs
import MapMath
import SQLite

/// An MBTiles file that fetched tiles are written into, in the standard schema (`metadata` and `tiles`
/// tables, TMS rows) that `MBTilesSource` and other tools read, plus a `mymap_freshness` table with each
/// tile's freshness record.
///
/// - Tiles and records are collected in memory and written in one transaction by `commit()`, or every
///   `tilesPerCommit` writes (or 64 MB of tiles). Until then another connection sees none of them, and
///   a process killed at any point leaves the file as of the last commit. Writes not committed when the
///   cache goes away are dropped, like an uncommitted transaction: whoever fills the cache calls
///   `commit()` when done (and may do so on the way out of an error).
/// - The file keeps SQLite's rollback journal (`DELETE` mode), not WAL: an MBTiles file is a single file
///   that people copy, share and open read-only, which WAL's `-wal`/`-shm` companions get in the way of
///   (a copy made while they hold commits misses them; a read-only opener needs to create `-shm`). WAL's
///   gain, readers not waiting for a writer, hardly matters when each commit takes milliseconds: the
///   transaction is held only while the batch is written, not while the tiles are fetched, so a second
///   process filling the same file waits that long at most (busy timeout).
///
/// `@unchecked Sendable`: the pending writes are touched only under `lock`.
public final class MBTilesTileCache: TileCacheStore, @unchecked Sendable {
  /// The file as given.
  public let path: String
  /// Pending writes are committed after this many `store` and `refresh` calls at the latest.
  public static let tilesPerCommit = 200
  /// … or when the pending tiles hold this many bytes.
  static let pendingBytesPerCommit = 64 << 20

  private let database: SQLiteFile
  private let lock = NSLock()
  private var pendingTiles: [TileID: Data] = [:]
  private var pendingFreshness: [TileID: TileFreshness] = [:]
  private var pendingFormat: String?
  private var pendingBytes = 0
  private var writesSinceCommit = 0

  /// Opens the MBTiles file at `path` for tiles of `description`, creating it (and its folder) when
  /// missing. Throws `TileCacheError` when the file is not SQLite or not an MBTiles file made by mymap,
  /// holds tiles of another source or size, or cannot be written to. A file that is refused is not
  /// changed.
  public init(path: String, description: TileCacheDescription) throws {
    let files = FileManager.default
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    if files.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue { throw TileCacheError.notAnMBTilesFile(path, "it is a folder") }
      let size = ((try? files.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
      // An empty file (from `touch`) is a new database to SQLite.
      if size > 0 && !SQLiteFile.hasHeader(path: path) {
        throw TileCacheError.notAnMBTilesFile(path, "it is not an SQLite database")
      }
      guard access(path, R_OK | W_OK) == 0 else {
        throw TileCacheError.notWritable(path, TileCacheFiles.errnoDescription())
      }
      // The rollback journal is created beside the file at each commit.
      guard access(folder, W_OK | X_OK) == 0 else {
        throw TileCacheError.notWritable(path, "folder \(folder): " + TileCacheFiles.errnoDescription())
      }
    } else {
      try TileCacheFiles.makeWritableFolder(folder, for: path)
    }
    self.path = path
    database = try SQLiteFile(path: path, mode: .readWrite)
    try database.transaction { try Self.claim($0, path: path, for: description) }
  }

  public func entry(for tile: TileID) throws -> CachedTileEntry? {
    lock.lock()
    defer { lock.unlock() }
    let isPresent = try hasTile(tile)
    var freshness = pendingFreshness[tile]
    if freshness == nil {
      let rows = try database.values(
        "SELECT etag, last_modified, expires, fetched FROM mymap_freshness "
          + "WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", Self.key(tile))
      freshness = rows.first.flatMap { TileFreshness(columns: $0[...]) }
    }
    if !isPresent && freshness == nil { return nil }
    return CachedTileEntry(freshness: freshness, isPresent: isPresent)
  }

  public func store(_ tile: TileID, data: Data, freshness: TileFreshness) throws {
    guard let fileExtension = tileFileExtension(of: data) else {
      throw TileCacheError.notAnImage(tile.description)
    }
    lock.lock()
    defer { lock.unlock() }
    pendingBytes += data.count - (pendingTiles.updateValue(data, forKey: tile)?.count ?? 0)
    pendingFreshness[tile] = freshness.asStored
    pendingFormat = fileExtension
    try counted()
  }

  /// Updates the tile's freshness record. Does nothing when the file holds no such tile.
  public func refresh(_ tile: TileID, freshness: TileFreshness) throws {
    lock.lock()
    defer { lock.unlock() }
    guard try hasTile(tile) else { return }
    pendingFreshness[tile] = freshness.asStored
    try counted()
  }

  public func commit() throws {
    lock.lock()
    defer { lock.unlock() }
    try writePending()
  }

  public func tileSource() throws -> any TileSource {
    try commit()
    return try MBTilesSource(path: path)
  }

  /// The `zoom_level`, `tile_column`, `tile_row` (TMS) of a tile.
  private static func key(_ tile: TileID) -> [SQLiteValue] {
    [.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.tmsRow))]
  }

  /// Whether the tile is waiting to be written or in the file, with bytes. Call with `lock` held.
  private func hasTile(_ tile: TileID) throws -> Bool {
    if let waiting = pendingTiles[tile] { return !waiting.isEmpty }
    let rows = try database.values(
      "SELECT length(tile_data) FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
      Self.key(tile))
    return (rows.first?.first?.integer ?? 0) > 0
  }

  /// Counts a write; commits every `tilesPerCommit` writes. Call with `lock` held.
  private func counted() throws {
    writesSinceCommit += 1
    if writesSinceCommit >= Self.tilesPerCommit || pendingBytes >= Self.pendingBytesPerCommit {
      try writePending()
    }
  }

  /// Writes the pending tiles, records and metadata in one transaction. Call with `lock` held. When it
  /// fails nothing is written and the writes stay pending.
  private func writePending() throws {
    guard !pendingTiles.isEmpty || !pendingFreshness.isEmpty else {
      writesSinceCommit = 0
      return
    }
    try database.transaction { transaction in
      for (tile, data) in pendingTiles {
        try transaction.run(
          "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)",
          Self.key(tile) + [.blob(data)])
      }
      // A record is written only beside its tile: another process may have removed the tile of a
      // refreshed record meanwhile.
      for (tile, freshness) in pendingFreshness {
        try transaction.run(
          "INSERT OR REPLACE INTO mymap_freshness "
            + "(zoom_level, tile_column, tile_row, etag, last_modified, expires, fetched) "
            + "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM tiles "
            + "WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3)",
          Self.key(tile) + freshness.columns)
      }
      if let format = pendingFormat, let low = pendingTiles.keys.map(\.z).min(),
        let high = pendingTiles.keys.map(\.z).max()
      {
        // Read inside the transaction: another process may have widened the zooms since this one looked.
        let metadata = try Self.readMetadata(transaction)
        var zooms = low...high
        if let stored = Self.zooms(metadata) {
          zooms = min(low, stored.lowerBound)...max(high, stored.upperBound)
        }
        let values = [
          "minzoom": String(zooms.lowerBound), "maxzoom": String(zooms.upperBound), "format": format,
        ]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where metadata[name] != value {
          try Self.setMetadata(transaction, name, value)
        }
      }
    }
    pendingTiles.removeAll()
    pendingFreshness.removeAll()
    pendingFormat = nil
    pendingBytes = 0
    writesSinceCommit = 0
  }

  /// Makes the database a cache of `description`: creates the schema in an empty database, or checks
  /// that an existing one is a mymap cache of the same source and size. Call in a transaction.
  private static func claim(
    _ database: some SQLiteQueries, path: String, for description: TileCacheDescription
  )
    throws
  {
    let tables = Set(
      try database.values("SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'view')", [])
        .compactMap { $0.first?.text })
    guard !tables.isEmpty else {
      try database.execute(
        """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE UNIQUE INDEX metadata_name ON metadata (name);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """)
      try createFreshnessTable(database)
      let values: [(String, String?)] = [
        ("name", description.source),
        ("type", "baselayer"),
        ("version", "1"),
        ("description", "Tiles from \(description.source), cached by mymap"),
        ("attribution", description.attribution),
        ("mymap_source", description.source),
        ("mymap_tile_size", String(description.tileSize)),
        // Not in the MBTiles spec, but read by MBTilesSource (and other tools): without it the size of
        // JPEG or WebP tiles would be taken for 256.
        ("tilesize", String(description.tileSize)),
      ]
      for case (let name, let value?) in values { try setMetadata(database, name, value) }
      return
    }
    guard tables.contains("tiles") else {
      throw TileCacheError.notAnMBTilesFile(path, "it has no tiles table")
    }
    let metadata = tables.contains("metadata") ? try readMetadata(database) : [:]
    guard let source = metadata["mymap_source"],
      let tileSize = metadata["mymap_tile_size"].flatMap({ Int($0) })
    else { throw TileCacheError.foreignMBTiles(path) }
    try TileCacheMetadata(source: source, attribution: nil, tileSize: tileSize).check(description, path: path)
    try createFreshnessTable(database)
    if let attribution = description.attribution, metadata["attribution"] != attribution {
      try setMetadata(database, "attribution", attribution)
    }
  }

  private static func createFreshnessTable(_ database: some SQLiteQueries) throws {
    try database.execute(
      """
      CREATE TABLE IF NOT EXISTS mymap_freshness (
        zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
        etag TEXT, last_modified TEXT, expires REAL NOT NULL, fetched REAL NOT NULL,
        PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
      """)
  }

  private static func readMetadata(_ database: some SQLiteQueries) throws -> [String: String] {
    var result: [String: String] = [:]
    for row in try database.values("SELECT name, value FROM metadata", []) {
      if let name = row[0].text, let value = row[1].text { result[name] = value }
    }
    return result
  }

  private static func setMetadata(_ database: some SQLiteQueries, _ name: String, _ value: String) throws {
    try database.run(
      "INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", [.text(name), .text(value)])
  }

  private static func zooms(_ metadata: [String: String]) -> ClosedRange<Int>? {
    guard let low = metadata["minzoom"].flatMap({ Int($0) }),
      let high = metadata["maxzoom"].flatMap({ Int($0) }),
      low <= high
    else { return nil }
    return low...high
  }
}
