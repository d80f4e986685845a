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
  /// Images or vector tiles (`.raster` unless the source says otherwise).
  var content: TileContent { get }
  /// The area the tiles cover, when the source says (MBTiles `bounds`, a PMTiles header); nil for the
  /// whole world or unknown.
  var bounds: GeoBox? { get }
  /// A vector tile's protobuf bytes, inflated (see the default in `TileContent.swift`).
  func vectorTileBytes(_ id: TileID) throws -> [UInt8]?
}

extension TileSource {
  public var cacheIdentity: String { description }
  public var bounds: GeoBox? { nil }
}

/// Opens the tile source at `path`: a tile folder (`{z}/{x}/{y}.png`), an MBTiles file or a PMTiles archive
/// (`TileStorage` decides which).
///
/// Throws `TileSourceError` with a one-line message when the path is missing or not a tile source (a
/// named pipe, a device, a socket, or a folder named `*.mbtiles`).
public func openTileSource(at path: String) throws -> any TileSource {
  switch try TileStorage.kind(ofSource: path) {
  case .folder: return try DirectoryTileSource(path: path)
  case .mbtiles: return try MBTilesSource(path: path)
  case .pmtiles: return try PMTilesSource(path: path)
  }
}
