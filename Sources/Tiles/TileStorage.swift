import FileSystem
import Foundation

/// What kind of tile storage a path is: the one place that decides it, for the sources a render reads, the
/// caches a fetch writes, and the caches `tiles info` lists.
public enum TileStorage: Sendable, Equatable {
  /// A folder of `{z}/{x}/{y}.ext` files (with an optional `metadata.json`).
  case folder
  /// An MBTiles file: SQLite with a `tiles` table (TMS rows).
  case mbtiles
  /// A PMTiles v3 archive.
  case pmtiles

  /// The kind of an existing tile source: a folder (unless it is named like a file kind: a folder called
  /// `x.mbtiles` is a mistake), an MBTiles file by its name or its SQLite header, a PMTiles archive by its
  /// name or its magic bytes. Named pipes, devices and sockets are refused before anything opens them.
  public static func kind(ofSource path: String) throws(TileSourceError) -> TileStorage {
    let lowered = path.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      throw .urlTemplateNotSupported(path)
    }
    guard let kind = FileKind(path: path) else { throw .notFound(path) }
    let namedLikeAFile = lowered.hasSuffix(".mbtiles") || lowered.hasSuffix(".pmtiles")
    if kind == .folder && !namedLikeAFile { return .folder }
    guard kind == .regular else { throw .notAFile(path, kind: kind.description) }
    let prefix = RegularFile.prefix(path, count: 16) ?? Data()
    if prefix.starts(with: Data("PMTiles".utf8)) { return .pmtiles }
    if prefix == Data("SQLite format 3\0".utf8) { return .mbtiles }
    if lowered.hasSuffix(".pmtiles") { return .pmtiles }
    if lowered.hasSuffix(".mbtiles") { return .mbtiles }
    throw .notATileSource(path)
  }

  /// The kind of a cache that tiles are written into, which may not exist yet: a path ending in
  /// `.mbtiles` or an existing SQLite file is an MBTiles file; any other existing file is refused; anything
  /// else is a folder (created with its parents).
  public static func kind(ofCache path: String) throws(TileCacheError) -> TileStorage {
    if path.lowercased().hasSuffix(".mbtiles") { return .mbtiles }
    guard let kind = FileKind(path: path), kind != .folder else { return .folder }
    guard kind == .regular, RegularFile.prefix(path, count: 16) == Data("SQLite format 3\0".utf8) else {
      throw .notAFolder(path)
    }
    return .mbtiles
  }
}
