import FileSystem
import Foundation
import ImageCodecs
import JSON
import MapMath
import SQLite

/// A tile folder that fetched tiles are written into, laid out as `DirectoryTileSource` reads it:
/// `{z}/{x}/{y}.png` (or `.jpg`, `.webp`, from the bytes), a `metadata.json` naming the source, and
/// `freshness.sqlite` with each tile's freshness record.
///
/// - Tiles are written atomically (a temporary dot-file renamed into place), so a reader or a killed
///   process never leaves half a tile. They are visible as soon as `store` returns.
/// - Freshness records are collected in memory and written in one short transaction by `commit()`, or
///   every `recordsPerCommit` writes. A tile is renamed into place before its record is written, so a
///   stop in between leaves a tile without a record (it is revalidated or fetched again), never a record
///   without a tile. Records not committed when the cache goes away are dropped, like an uncommitted
///   transaction; their tiles stay.
/// - Several threads may store tiles at once (the files are written in parallel; the records behind a
///   lock), and so may several processes: renames are atomic, `freshness.sqlite` runs in WAL mode with a
///   busy timeout, and `metadata.json` is only rewritten while holding its write lock.
///
/// `@unchecked Sendable`: `metadata`, `pending` and `writesSinceCommit` are touched only under `lock`.
public final class DirectoryTileCache: TileCacheStore, @unchecked Sendable {
  /// The folder as given.
  public let path: String
  /// Freshness records are committed after this many `store` and `refresh` calls at the latest.
  public static let recordsPerCommit = 200
  /// The freshness records' file in the cache folder.
  public static let freshnessFileName = "freshness.sqlite"

  private let database: SQLiteFile
  private let lock = NSLock()
  private var metadata: TileCacheMetadata
  private var pending: [TileID: TileFreshness] = [:]
  private var writesSinceCommit = 0

  private var metadataPath: String { path + "/metadata.json" }

  /// Opens the cache folder at `path` for tiles of `description`, creating it (and its parents) when
  /// missing. Throws `TileCacheError` when the folder holds files but is not a mymap cache, holds tiles of
  /// another source or size, or cannot be written to.
  public init(path: String, description: TileCacheDescription) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue {
      throw TileCacheError.notAFolder(path)
    }
    try TileCacheFiles.makeWritableFolder(path, for: path)
    self.path = path
    metadata = try Self.claim(folder: path, for: description)
    Self.removeStaleTemporaries(in: path)
    database = try SQLiteFile(path: path + "/" + Self.freshnessFileName, mode: .readWrite)
    // WAL: a fetch commits a batch of records while another process reads or writes its own; NORMAL
    // synchronous is safe with WAL (a power cut may lose the last commits, never corrupt the file).
    try database.execute(
      """
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      CREATE TABLE IF NOT EXISTS freshness (
        z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
        etag TEXT, last_modified TEXT, expires REAL NOT NULL, fetched REAL NOT NULL,
        PRIMARY KEY (z, x, y)) WITHOUT ROWID;
      """)
    let updated = metadata.updated(for: description)
    if updated != metadata {
      lock.lock()
      defer { lock.unlock() }
      try rewriteMetadata { _ in updated }
    }
  }

  public func entry(for tile: TileID) throws -> CachedTileEntry? {
    let isPresent = tileFile(tile) != nil
    let freshness = try record(tile)
    if !isPresent && freshness == nil { return nil }
    return CachedTileEntry(freshness: freshness, isPresent: isPresent)
  }

  public func store(_ tile: TileID, data: Data, freshness: TileFreshness) throws {
    guard let fileExtension = tileFileExtension(of: data) else {
      throw TileCacheError.notAnImage(tile.description)
    }
    // The metadata covers the tile before the tile exists: a render never skips a zoom that has tiles.
    try include(zoom: tile.z, format: fileExtension)
    let column = "\(path)/\(tile.z)/\(tile.x)"
    try TileCacheFiles.makeWritableFolder(column, for: path)
    let extensions = DirectoryTileSource.tileExtensions + DirectoryTileSource.vectorTileExtensions
    let siblings = extensions.filter { $0 != fileExtension }.map {
      "\(column)/\(tile.y).\($0)"
    }.filter { FileManager.default.fileExists(atPath: $0) }
    if !siblings.isEmpty {
      // The tile changes format: DirectoryTileSource tries the extensions in turn and could read the old
      // file. It goes first (its record before it, so no record outlives its tile), then the new one
      // comes; a stop in between leaves the tile missing, to be fetched again.
      try forget(tile)
      for sibling in siblings where unlink(sibling) != 0 && errno != ENOENT {
        throw TileCacheError.cannotRemove(sibling, TileCacheFiles.errnoDescription())
      }
    }
    try TileCacheFiles.writeAtomically(data, to: "\(column)/\(tile.y).\(fileExtension)")
    try note(tile, freshness)
  }

  /// Updates the record and sets the tile file's modification date to now, so that `tiles info` and
  /// `tiles prune --older-than` see when the server last confirmed the tile. Does nothing when the tile
  /// is gone (removed by `tiles prune` meanwhile): its next fetch downloads it.
  public func refresh(_ tile: TileID, freshness: TileFreshness) throws {
    guard let file = tileFile(tile) else { return }
    guard utimes(file, nil) == 0 else {
      throw TileCacheError.writeFailed(file, TileCacheFiles.errnoDescription())
    }
    try note(tile, freshness)
  }

  public func commit() throws {
    lock.lock()
    defer { lock.unlock() }
    try writePending()
  }

  public func tileSource() throws -> any TileSource {
    try commit()
    return try DirectoryTileSource(path: path)
  }

  /// The tile's file, when there is one with bytes in it.
  private func tileFile(_ tile: TileID) -> String? {
    for fileExtension in DirectoryTileSource.tileExtensions {
      let file = "\(path)/\(tile.z)/\(tile.x)/\(tile.y).\(fileExtension)"
      var status = stat()
      if stat(file, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size > 0 {
        return file
      }
    }
    return nil
  }

  /// The tile's freshness record: the one waiting for `commit()`, else the one in the database.
  private func record(_ tile: TileID) throws -> TileFreshness? {
    lock.lock()
    defer { lock.unlock() }
    if let waiting = pending[tile] { return waiting }
    let rows = try database.values(
      "SELECT etag, last_modified, expires, fetched FROM freshness WHERE z = ? AND x = ? AND y = ?",
      [.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y))])
    return rows.first.flatMap { TileFreshness(columns: $0[...]) }
  }

  /// Queues the tile's record; commits every `recordsPerCommit` writes.
  private func note(_ tile: TileID, _ freshness: TileFreshness) throws {
    lock.lock()
    defer { lock.unlock() }
    pending[tile] = freshness.asStored
    writesSinceCommit += 1
    if writesSinceCommit >= Self.recordsPerCommit { try writePending() }
  }

  /// Removes the tile's record at once (before its file goes).
  private func forget(_ tile: TileID) throws {
    lock.lock()
    defer { lock.unlock() }
    pending[tile] = nil
    try database.run(
      "DELETE FROM freshness WHERE z = ? AND x = ? AND y = ?",
      [.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y))])
  }

  /// Writes the queued records in one transaction. Call with `lock` held.
  private func writePending() throws {
    guard !pending.isEmpty else {
      writesSinceCommit = 0
      return
    }
    try database.transaction { transaction in
      for (tile, freshness) in pending {
        try transaction.run(
          "INSERT OR REPLACE INTO freshness (z, x, y, etag, last_modified, expires, fetched) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?)",
          [.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.y))] + freshness.columns)
      }
    }
    pending.removeAll(keepingCapacity: true)
    writesSinceCommit = 0
  }

  /// Widens the metadata's zooms to `zoom` and sets its format, when they do not already say so.
  private func include(zoom: Int, format: String) throws {
    lock.lock()
    defer { lock.unlock() }
    guard !metadata.covers(zoom: zoom, format: format) else { return }
    try rewriteMetadata { $0.including(zoom: zoom, format: format) }
  }

  /// Rewrites `metadata.json` as `change` makes it. Another process may be filling the same folder: the
  /// write lock of `freshness.sqlite` keeps two rewrites apart, and the zooms it wrote are kept. Call
  /// with `lock` held.
  private func rewriteMetadata(_ change: (TileCacheMetadata) -> TileCacheMetadata) throws {
    try database.transaction { _ in
      let onDisk = (try? Self.readMetadata(metadataPath)).flatMap { $0 }.flatMap(
        TileCacheMetadata.init(json:))
      let updated = change(metadata.merging(zoomsOf: onDisk?.source == metadata.source ? onDisk : nil))
      if updated != onDisk { try TileCacheFiles.writeAtomically(updated.json(), to: metadataPath) }
      metadata = updated
    }
  }

  /// Makes `folder` a cache of `description`: reads its `metadata.json` and checks it, or, when the folder
  /// is empty, writes one. Returns the metadata.
  private static func claim(folder: String, for description: TileCacheDescription) throws
    -> TileCacheMetadata
  {
    let metadataPath = folder + "/metadata.json"
    // Twice at most: when another process writes metadata.json between the look and the write, the
    // second round reads and checks what it wrote.
    for _ in 0..<2 {
      let data: Data?
      do {
        data = try readMetadata(metadataPath)
      } catch {
        throw TileCacheError.foreignFolder(folder)
      }
      if let data {
        guard let existing = TileCacheMetadata(json: data) else { throw TileCacheError.foreignFolder(folder) }
        try existing.check(description, path: folder)
        return existing
      }
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: folder)
      } catch {
        throw TileCacheError.notWritable(folder, TileCacheFiles.reason(error))
      }
      guard names.allSatisfy(TileCacheFiles.isTemporaryName) else {
        throw TileCacheError.foreignFolder(folder)
      }
      let fresh = TileCacheMetadata(description)
      if try TileCacheFiles.createAtomically(fresh.json(), at: metadataPath) { return fresh }
    }
    throw TileCacheError.foreignFolder(folder)
  }

  /// The bytes of the cache's `metadata.json`; nil when there is none. Throws when it is not a regular file
  /// or larger than `TileLimits.maximumMetadataFileBytes`: it is then not a metadata file mymap wrote.
  private static func readMetadata(_ path: String) throws(RegularFileError) -> Data? {
    try RegularFile.read(path, limit: TileLimits.maximumMetadataFileBytes)
  }

  /// Removes the temporary files older than an hour in the folder, its zoom folders and their column
  /// folders: left by a process killed between writing a tile and renaming it.
  @discardableResult
  static func removeStaleTemporaries(in folder: String, now: Date = Date()) -> Int {
    let files = FileManager.default
    var removed = TileCacheFiles.removeStaleTemporaries(in: folder, now: now)
    for zoom in (try? files.contentsOfDirectory(atPath: folder)) ?? [] where isDecimal(zoom) {
      let zoomFolder = folder + "/" + zoom
      removed += TileCacheFiles.removeStaleTemporaries(in: zoomFolder, now: now)
      for column in (try? files.contentsOfDirectory(atPath: zoomFolder)) ?? [] where isDecimal(column) {
        removed += TileCacheFiles.removeStaleTemporaries(in: zoomFolder + "/" + column, now: now)
      }
    }
    return removed
  }

  private static func isDecimal(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy { (0x30...0x39).contains($0) }
  }
}

extension TileCacheMetadata {
  /// Reads a `metadata.json` written by mymap; nil for anything else (not JSON, another tool's, no
  /// source or tile size).
  init?(json data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data),
      let values = object as? [String: Any],
      values["generator"] as? String == "mymap",
      let source = values["source"] as? String,
      let tileSize = values["tileSize"] as? Int
    else { return nil }
    var zooms: ClosedRange<Int>?
    if let low = values["minzoom"] as? Int, let high = values["maxzoom"] as? Int, low <= high {
      zooms = low...high
    }
    self.init(
      source: source, attribution: values["attribution"] as? String, tileSize: tileSize, zooms: zooms,
      format: values["format"] as? String)
  }

  /// `metadata.json`: members in a fixed order, one per line, so that the same cache gives the same
  /// bytes. The keys are those `DirectoryTileSource` reads (and TileJSON's where it has one).
  func json() -> Data {
    var members: [(String, JSONValue)] = [("generator", .string("mymap")), ("source", .string(source))]
    if let attribution { members.append(("attribution", .string(attribution))) }
    members.append(("tileSize", .number(Double(tileSize))))
    if let zooms {
      members.append(("minzoom", .number(Double(zooms.lowerBound))))
      members.append(("maxzoom", .number(Double(zooms.upperBound))))
    }
    members.append(("scheme", .string("xyz")))
    if let format { members.append(("format", .string(format))) }
    return Data(JSONWriter.text(.object(members.map { JSONValue.Member($0.0, $0.1) })).utf8)
  }
}
