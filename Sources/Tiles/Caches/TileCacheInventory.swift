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
    switch try TileStorage.kind(ofSource: path) {
    case .folder: self = try Self.folder(path)
    case .mbtiles: self = try Self.mbtiles(path)
    case .pmtiles: throw TileSourceError.notACache(path, kind: "a PMTiles archive")
    }
  }

  init(
    path: String, kind: Kind, zooms: [ZoomLevel], oldest: Date?, newest: Date?, hasFetchDates: Bool,
    tilesWithoutFetchDate: Int, oldestIsFileDate: Bool, newestIsFileDate: Bool
  ) {
    self.path = path
    self.kind = kind
    self.zooms = zooms
    self.oldest = oldest
    self.newest = newest
    self.hasFetchDates = hasFetchDates
    self.tilesWithoutFetchDate = tilesWithoutFetchDate
    self.oldestIsFileDate = oldestIsFileDate
    self.newestIsFileDate = newestIsFileDate
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

  /// Runs `body`, which changes the cache at `path` for `prune`, turning `notWritable` (whose text is
  /// about `mymap tiles fetch`) into `cannotPrune`.
  static func pruning<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch TileCacheError.notWritable(_, let reason) {
      throw TileCacheError.cannotPrune(path, reason)
    }
  }

  static func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }
}
