/// One feature of a layer: its optional id, its attributes and its geometry in tile coordinates.
public struct VectorTileFeature: Sendable {
  /// The feature's id, if the tile gave one.
  public let id: UInt64?
  public let type: VectorTileGeometryType
  let storage: VectorTileLayerStorage
  let tagRange: Range<Int>
  let partRange: Range<Int>
  let polygonRange: Range<Int>

  /// The feature's attributes, in the order of its tags.
  public var properties: VectorTileProperties { VectorTileProperties(storage: storage, range: tagRange) }

  /// The feature's attributes as indices into its layer's `keys` and `values`, key and value in turn.
  /// Features with equal tags have equal attributes (a renderer can style them once).
  public var tags: ArraySlice<UInt32> { storage.tags[2 * tagRange.lowerBound..<2 * tagRange.upperBound] }

  /// The feature's geometry, in place in the layer's storage.
  public var geometry: VectorTileGeometry {
    VectorTileGeometry(type: type, storage: storage, partRange: partRange, polygonRange: polygonRange)
  }
}

/// A feature's attributes as key/value pairs, looked up in place in its layer's tables.
public struct VectorTileProperties: RandomAccessCollection, Sendable {
  let storage: VectorTileLayerStorage
  /// Indices of tag pairs in the layer's `tags`.
  let range: Range<Int>

  public var startIndex: Int { 0 }
  public var endIndex: Int { range.count }

  public subscript(position: Int) -> (key: String, value: VectorTileValue) {
    let tag = 2 * (range.lowerBound + position)
    return (storage.keys[Int(storage.tags[tag])], storage.values[Int(storage.tags[tag + 1])])
  }

  /// The value for `key`; if a (broken) tile repeats a key, the first one.
  public subscript(key: String) -> VectorTileValue? {
    for tag in stride(from: 2 * range.lowerBound, to: 2 * range.upperBound, by: 2)
    where storage.keys[Int(storage.tags[tag])] == key {
      return storage.values[Int(storage.tags[tag + 1])]
    }
    return nil
  }

  /// All attributes as a dictionary; if a key repeats, the first value wins.
  public var dictionary: [String: VectorTileValue] {
    Dictionary(map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
  }
}
