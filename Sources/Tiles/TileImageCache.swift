import Foundation
import ImageCodecs
import MapMath

/// Decoded tiles kept in memory between renders, keyed by source and tile, evicting the least recently
/// used once the pixels exceed `byteLimit`.
///
/// `@unchecked Sendable`: every stored property is read and written only while `lock` is held.
public final class TileImageCache: @unchecked Sendable {
  /// A cache shared by every render in the process (64 MiB: 256 tiles of 256 px).
  public static let shared = TileImageCache(byteLimit: 64 << 20)

  /// The most pixel bytes kept.
  public let byteLimit: Int
  private let lock = NSLock()
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  private var bytes = 0

  private struct Key: Hashable {
    let source: String
    let tile: TileID
  }

  private struct Entry {
    let image: RasterImage
    var lastUse: UInt64
  }

  public init(byteLimit: Int) {
    self.byteLimit = byteLimit
  }

  /// The cached tile of a source (its `cacheIdentity`), marking it as just used.
  public func image(source: String, tile: TileID) -> RasterImage? {
    lock.lock()
    defer { lock.unlock() }
    let key = Key(source: source, tile: tile)
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key]?.lastUse = clock
    return entry.image
  }

  /// Keeps a decoded tile, evicting the least recently used ones beyond the byte limit. An image larger
  /// than the whole limit is not kept.
  public func insert(_ image: RasterImage, source: String, tile: TileID) {
    let size = image.rgba.count
    guard size <= byteLimit else { return }
    lock.lock()
    defer { lock.unlock() }
    let key = Key(source: source, tile: tile)
    if let old = entries[key] { bytes -= old.image.rgba.count }
    clock += 1
    entries[key] = Entry(image: image, lastUse: clock)
    bytes += size
    while bytes > byteLimit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      bytes -= oldest.value.image.rgba.count
      entries[oldest.key] = nil
    }
  }

  /// How many tiles and pixel bytes are held.
  public var usage: (tiles: Int, bytes: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (entries.count, bytes)
  }

  /// Forgets every tile.
  public func removeAll() {
    lock.lock()
    defer { lock.unlock() }
    entries = [:]
    bytes = 0
  }
}
