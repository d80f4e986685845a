import MapMath
import Tiles

/// Where a vector map's tiles come from: a PMTiles archive, an MBTiles file, a folder or a tile cache.
///
/// Tiles are asked for from several threads at once (decoding runs in parallel), so a supply must be
/// safe to use concurrently.
public protocol VectorTileSupply: Sendable {
  /// The zooms the source has tiles for; the map uses the nearest of them (data past the top zoom is
  /// drawn over-zoomed, crisp, and views below the bottom zoom use the bottom zoom's tiles).
  var zoomRange: ClosedRange<Int> { get }

  /// The Mapbox Vector Tile bytes of one tile, inflated or still gzip-compressed; nil when the source
  /// has no such tile (the map is empty there). A thrown error makes the tile a placeholder and a
  /// warning.
  func vectorTileBytes(_ tile: TileID) throws -> [UInt8]?

  /// Names the source's tiles in a `VectorTileCache` (equal only for the same tiles); nil keeps them out
  /// of it.
  var cacheIdentity: String? { get }
}

extension VectorTileSupply {
  public var cacheIdentity: String? { nil }
}

extension PMTilesArchive: VectorTileSupply {
  /// The header's zooms, kept inside 0…30 and in order whatever the archive claims.
  public var zoomRange: ClosedRange<Int> {
    let low = min(max(header.minZoom, 0), 30)
    let high = min(max(header.maxZoom, 0), 30)
    return min(low, high)...max(low, high)
  }

  /// The tile's inflated bytes.
  public func vectorTileBytes(_ tile: TileID) throws -> [UInt8]? {
    try self.tile(tile)
  }
}

/// Any tile source of vector tiles (an MBTiles file, a PMTiles archive, a folder, a tile server's cache)
/// as a supply.
struct TileSourceVectorTiles: VectorTileSupply {
  let source: any TileSource

  var zoomRange: ClosedRange<Int> { source.zoomRange }

  func vectorTileBytes(_ tile: TileID) throws -> [UInt8]? {
    try source.vectorTileBytes(tile)
  }

  var cacheIdentity: String? { source.cacheIdentity }
}
