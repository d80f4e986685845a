import Foundation
import MapMath

/// What a writable tile cache knows about one tile.
public struct CachedTileEntry: Sendable, Equatable {
  /// The tile's freshness record; nil when the tile is there but its record is not (a cache filled by
  /// another tool, or a run stopped between writing the tile and its record).
  public var freshness: TileFreshness?
  /// Whether the tile's bytes are in the cache.
  public var isPresent: Bool

  public init(freshness: TileFreshness?, isPresent: Bool) {
    self.freshness = freshness
    self.isPresent = isPresent
  }
}

/// The tile source a cache holds tiles of: written into the cache's metadata, so that a cache is never
/// filled from two sources and a render from the cache alone still credits the source.
public struct TileCacheDescription: Sendable, Equatable {
  /// The redacted URL template (never an API key).
  public var source: String
  /// Plain-text attribution to draw on maps made from these tiles.
  public var attribution: String?
  /// Pixel width and height of the tiles (256, or 512 for `@2x` tiles).
  public var tileSize: Int

  public init(source: String, attribution: String?, tileSize: Int) {
    self.source = source
    self.attribution = attribution
    self.tileSize = tileSize
  }
}

/// A tile cache that fetched tiles are written into: a tile folder or an MBTiles file.
///
/// Every write is atomic: a tile is either there whole or not at all, whatever stops the process.
/// Implementations are safe to call from several threads.
public protocol TileCacheStore: AnyObject, Sendable {
  /// The folder or file as given.
  var path: String { get }
  /// What the cache holds for `tile`, or nil when it holds nothing.
  func entry(for tile: TileID) throws -> CachedTileEntry?
  /// Stores a tile's bytes (already checked to be an image of the right size) and its freshness record,
  /// replacing what was there.
  func store(_ tile: TileID, data: Data, freshness: TileFreshness) throws
  /// Records that the server confirmed the cached tile unchanged (HTTP 304).
  func refresh(_ tile: TileID, freshness: TileFreshness) throws
  /// Makes everything written so far durable (ends the open transaction, flushes the freshness records).
  func commit() throws
  /// The cache as a tile source to render from.
  func tileSource() throws -> any TileSource
}
