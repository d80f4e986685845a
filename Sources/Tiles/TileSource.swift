import FileSystem
import Foundation
import MapMath

/// A read-only supply of basemap tiles in XYZ numbering.
///
/// `description` is what the layout JSON reports as `tiles.source` (the path as given).
public protocol TileSource: Sendable, CustomStringConvertible {
  /// Plain-text attribution to draw on the map (HTML tags and entities already removed), if the source
  /// names one.
  var attribution: String? { get }
  /// The zooms the source holds tiles for; above the top zoom the renderer draws top-zoom tiles enlarged.
  var zoomRange: ClosedRange<Int> { get }
  /// Pixel width and height of one tile (256 or 512).
  var tileSize: Int { get }
  /// Identifies the source in the decoded-tile cache: equal only for the same tiles.
  var cacheIdentity: String { get }
  /// The encoded bytes of one tile, or nil when the source does not have it. Throws only when the
  /// source itself is broken (unreadable file, corrupt database).
  func tileData(_ id: TileID) throws -> Data?
}

extension TileSource {
  public var cacheIdentity: String { description }
}

/// Opens the tile source at `path`: a tile directory (`{z}/{x}/{y}.png`) or an MBTiles file.
///
/// Throws `TileSourceError` with a one-line message when the path is missing or not a tile source (a
/// named pipe, a device, a socket, or a folder named `*.mbtiles`).
public func openTileSource(at path: String) throws -> any TileSource {
  let lowered = path.lowercased()
  if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
    throw TileSourceError.urlTemplateNotSupported(path)
  }
  guard let kind = FileKind(path: path) else { throw TileSourceError.notFound(path) }
  // A folder named like an MBTiles file is a mistake, not a tile folder; a named pipe or a device would
  // block or never end.
  if kind == .folder && !lowered.hasSuffix(".mbtiles") {
    return try DirectoryTileSource(path: path)
  }
  guard kind == .regular else { throw TileSourceError.notAFile(path, kind: kind.description) }
  if lowered.hasSuffix(".mbtiles") || SQLiteFile.hasHeader(path: path) {
    return try MBTilesSource(path: path)
  }
  throw TileSourceError.notATileSource(path)
}
