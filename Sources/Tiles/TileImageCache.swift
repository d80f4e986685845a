import ImageCodecs
import Locking
import MapMath

/// Decoded tiles kept in memory between renders, keyed by source and tile, evicting the least recently
/// used once the pixels exceed `byteLimit`. Safe to use from several threads: the state lives in a `Locked`.
public final class TileImageCache: Sendable {
  /// A cache shared by every render in the process (64 MiB: 256 tiles of 256 px).
  public static let shared = TileImageCache(byteLimit: 64 << 20)

  /// The most pixel bytes kept.
  public var byteLimit: Int { state.withLock { $0.byteLimit } }
  private let state: Locked<LeastRecentlyUsed<Key, RasterImage>>

  private struct Key: Hashable {
    let source: String
    let tile: TileID
  }

  public init(byteLimit: Int) {
    state = Locked(LeastRecentlyUsed(byteLimit: byteLimit))
  }

  /// The cached tile of a source (its `cacheIdentity`), marking it as just used.
  public func image(source: String, tile: TileID) -> RasterImage? {
    state.withLock { $0.value(for: Key(source: source, tile: tile)) }
  }

  /// Keeps a decoded tile, evicting the least recently used ones beyond the byte limit. An image larger
  /// than the whole limit is not kept.
  public func insert(_ image: RasterImage, source: String, tile: TileID) {
    state.withLock { $0.insert(image, bytes: image.rgba.count, for: Key(source: source, tile: tile)) }
  }

  /// How many tiles and pixel bytes are held.
  public var usage: (tiles: Int, bytes: Int) {
    state.withLock { ($0.count, $0.bytes) }
  }

  /// Forgets every tile.
  public func removeAll() {
    state.withLock { $0.removeAll() }
  }
}
