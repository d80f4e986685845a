import Locking
import MapMath
import Tiles
import VectorTiles

/// Decoded vector tiles kept in memory between renders, keyed by source (its `cacheIdentity`), tile and
/// the layers a style reads, evicting the least recently used once their estimated size passes
/// `byteLimit`: the vector counterpart of `TileImageCache`, as a map renderer keeps its parsed tiles.
/// A batch or a watch redraws the same city's tiles without reading and decoding them again. Only tiles
/// that decoded are kept (a missing or broken tile is asked for again). Safe from several threads.
public final class VectorTileCache: Sendable {
  /// A cache shared by every render in the process.
  public static let shared = VectorTileCache(byteLimit: 64 << 20)

  /// The most bytes (as estimated from points and features) kept.
  public var byteLimit: Int { state.withLock { $0.byteLimit } }
  private let state: Locked<LeastRecentlyUsed<Key, [String: VectorTileLayer]>>

  struct Key: Hashable {
    let source: String
    let tile: TileID
    let layers: Set<String>
  }

  public init(byteLimit: Int) {
    state = Locked(LeastRecentlyUsed(byteLimit: byteLimit))
  }

  /// The cached layers of a tile, marking them as just used.
  func layers(_ key: Key) -> [String: VectorTileLayer]? {
    state.withLock { $0.value(for: key) }
  }

  /// Keeps a decoded tile's layers, evicting the least recently used beyond the limit; a tile larger
  /// than the whole limit is not kept.
  func insert(_ layers: [String: VectorTileLayer], for key: Key) {
    let size = layers.values.reduce(1024) { $0 + $1.estimatedBytes }
    state.withLock { $0.insert(layers, bytes: size, for: key) }
  }

  /// How many tiles and estimated bytes are held.
  public var usage: (tiles: Int, bytes: Int) {
    state.withLock { ($0.count, $0.bytes) }
  }
}
