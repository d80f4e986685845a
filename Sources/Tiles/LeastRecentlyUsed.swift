/// Values kept by key within a budget of bytes, the least recently used going first once a new one
/// passes it: the state of the decoded-tile caches (`TileImageCache`, the vector map's), kept behind
/// their locks.
public struct LeastRecentlyUsed<Key: Hashable, Value> {
  private struct Entry {
    let value: Value
    let bytes: Int
    var lastUse: UInt64
  }

  /// The most bytes kept.
  public let byteLimit: Int
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  /// The bytes kept now.
  public private(set) var bytes = 0

  public init(byteLimit: Int) {
    self.byteLimit = byteLimit
  }

  /// How many values are kept.
  public var count: Int { entries.count }

  /// The value kept for `key`, marked as just used.
  public mutating func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key]?.lastUse = clock
    return entry.value
  }

  /// Keeps `value` (of `bytes`) for `key`, letting the least recently used go beyond the limit; a value
  /// larger than the whole limit is not kept.
  public mutating func insert(_ value: Value, bytes size: Int, for key: Key) {
    guard size <= byteLimit else { return }
    if let old = entries[key] { bytes -= old.bytes }
    clock += 1
    entries[key] = Entry(value: value, bytes: size, lastUse: clock)
    bytes += size
    while bytes > byteLimit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      bytes -= oldest.value.bytes
      entries[oldest.key] = nil
    }
  }

  /// Lets every value go.
  public mutating func removeAll() {
    entries = [:]
    bytes = 0
  }
}
