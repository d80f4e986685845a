import ImageCodecs
import Locking
import MapMath

/// Decoded tiles kept in memory between renders, keyed by source and tile, evicting the least recently
/// used once the pixels exceed `byteLimit`. Safe to use from several threads: the state lives in a `Locked`.
public final class TileImageCache: Sendable {
  /// A cache shared by every render in the process (64 MiB: 256 tiles of 256 px).
  public static let shared = TileImageCache(byteLimit: 64 << 20)

  /// The most pixel bytes kept.
  public let byteLimit: Int
  private let state = Locked(State())

  private struct Key: Hashable {
    let source: String
    let tile: TileID
  }

  private struct Entry {
    let image: RasterImage
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var clock: UInt64 = 0
    var bytes = 0
  }

  public init(byteLimit: Int) {
    self.byteLimit = byteLimit
  }

  /// The cached tile of a source (its `cacheIdentity`), marking it as just used.
  public func image(source: String, tile: TileID) -> RasterImage? {
    state.withLock { state in
      let key = Key(source: source, tile: tile)
      guard let entry = state.entries[key] else { return nil }
      state.clock += 1
      state.entries[key]?.lastUse = state.clock
      return entry.image
    }
  }

  /// Keeps a decoded tile, evicting the least recently used ones beyond the byte limit. An image larger
  /// than the whole limit is not kept.
  public func insert(_ image: RasterImage, source: String, tile: TileID) {
    let size = image.rgba.count
    guard size <= byteLimit else { return }
    state.withLock { state in
      let key = Key(source: source, tile: tile)
      if let old = state.entries[key] { state.bytes -= old.image.rgba.count }
      state.clock += 1
      state.entries[key] = Entry(image: image, lastUse: state.clock)
      state.bytes += size
      while state.bytes > byteLimit,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.bytes -= oldest.value.image.rgba.count
        state.entries[oldest.key] = nil
      }
    }
  }

  /// How many tiles and pixel bytes are held.
  public var usage: (tiles: Int, bytes: Int) {
    state.withLock { ($0.entries.count, $0.bytes) }
  }

  /// Forgets every tile.
  public func removeAll() {
    state.withLock { state in
      state.entries = [:]
      state.bytes = 0
    }
  }
}
