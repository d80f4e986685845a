/// The most recently used leaf directories, keyed by file offset: a map's tiles share a few leaves, so a
/// render decodes each once. Bounded by count and by the entries held together.
struct PMTilesLeafCache {
  private var items: [(offset: UInt64, directory: PMTilesDirectory)] = []
  private var entryCount = 0

  /// The leaf at `offset`, now the most recently used.
  mutating func directory(at offset: UInt64) -> PMTilesDirectory? {
    guard let index = items.firstIndex(where: { $0.offset == offset }) else { return nil }
    let item = items.remove(at: index)
    items.append(item)
    return item.directory
  }

  mutating func insert(_ directory: PMTilesDirectory, at offset: UInt64) {
    guard self.directory(at: offset) == nil else { return }
    items.append((offset, directory))
    entryCount += directory.entries.count
    while items.count > 1
      && (items.count > PMTilesLimits.cachedLeafDirectories || entryCount > PMTilesLimits.cachedLeafEntries)
    {
      entryCount -= items.removeFirst().directory.entries.count
    }
  }

  var count: Int { items.count }
}
