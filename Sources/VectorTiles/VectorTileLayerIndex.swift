/// A tile's wanted layers found and counted (the first pass of `VectorTile(decoding:layers:)`), to be
/// decoded each on its own, on any thread: a city tile's buildings and roads need not wait for each
/// other.
///
/// The tile-wide ceilings stay what sequential decoding makes them. Layers, features, keys and values
/// are counted here, in order. Points are the one limit a layer's decoding spends for the layers after
/// it, and every point takes at least two bytes of geometry, so a tile of at most
/// `2 * VectorTileLimits.maximumPointCount` bytes can never pass that limit, whichever layer comes
/// first: its layers are independent (`layersAreIndependent`). A larger one is decoded in order.
public struct VectorTileLayerIndex: Sendable {
  /// One layer to decode: where its message lies, what the first pass counted in it, its name.
  struct Entry: Sendable {
    let range: Range<Int>
    let summary: LayerSummary
    let name: String
  }

  private let bytes: [UInt8]
  private let entries: [Entry]
  /// Names of layers left out because their version is neither 1 nor 2.
  public let skippedLayerNames: [String]

  /// Finds the layers of `bytes` (uncompressed protobuf) called one of `wanted` (all with nil).
  public init(_ bytes: [UInt8], layers wanted: Set<String>? = nil) throws(VectorTileError) {
    (entries, skippedLayerNames) = try bytes.withUnsafeBytes { buffer in
      Result { () throws(VectorTileError) in try Self.entries(in: buffer, wanted: wanted) }
    }.get()
    self.bytes = bytes
  }

  /// The layers of `bytes` called one of `wanted` (all with nil) that can be decoded, and the names of
  /// those left out for their version.
  static func entries(in bytes: UnsafeRawBufferPointer, wanted: Set<String>?) throws(VectorTileError)
    -> (entries: [Entry], skipped: [String])
  {
    var entries: [Entry] = []
    var skipped: [String] = []
    try VectorTile.forEachLayer(in: bytes) { range, summary, name throws(VectorTileError) in
      guard wanted?.contains(name) ?? true else { return }
      guard summary.version == 1 || summary.version == 2 else { return skipped.append(name) }
      entries.append(Entry(range: range, summary: summary, name: name))
    }
    return (entries, skipped)
  }

  /// Decodes `entries` in order, each with what the ones before it left of the point budget.
  static func decodeInOrder(_ bytes: UnsafeRawBufferPointer, _ entries: [Entry]) throws(VectorTileError)
    -> [VectorTileLayer]
  {
    var layers: [VectorTileLayer] = []
    var points = 0
    for entry in entries {
      let layer = try VectorTileLayer(
        bytes, range: entry.range, name: entry.name, summary: entry.summary,
        pointBudget: VectorTileLimits.maximumPointCount - points)
      points += layer.pointCount
      layers.append(layer)
    }
    return layers
  }

  /// How many layers there are to decode.
  public var layerCount: Int { entries.count }

  /// The size of layer `index`'s message in bytes (to hand out the largest first).
  public func byteCount(ofLayer index: Int) -> Int { entries[index].range.count }

  /// Whether the layers may be decoded each on its own (`layer(_:)`), or only in order (`decodeAll`).
  public var layersAreIndependent: Bool { bytes.count / 2 <= VectorTileLimits.maximumPointCount }

  /// Decodes layer `index` alone, with the whole tile's point budget (only when
  /// `layersAreIndependent`, where no layer can spend any of it for another).
  public func layer(_ index: Int) throws(VectorTileError) -> VectorTileLayer {
    precondition(layersAreIndependent, "a tile this large decodes its layers in order")
    return try decode(index, pointBudget: VectorTileLimits.maximumPointCount)
  }

  /// Decodes every layer in order, each with what the ones before it left of the point budget: the
  /// tile `VectorTile(decoding:layers:)` gives.
  public func decodeAll() throws(VectorTileError) -> VectorTile {
    let layers = try bytes.withUnsafeBytes { buffer in
      Result { () throws(VectorTileError) in try Self.decodeInOrder(buffer, entries) }
    }.get()
    return VectorTile(layers: layers, skippedLayerNames: skippedLayerNames)
  }

  /// The tile from layers decoded each on its own, in this index's order (`layer(_:)`'s results; the
  /// first failure, in that order, is the tile's, as decoding in order would have it).
  public func tile(from decoded: [Result<VectorTileLayer, VectorTileError>]) throws(VectorTileError)
    -> VectorTile
  {
    precondition(decoded.count == entries.count, "one result per layer")
    var layers: [VectorTileLayer] = []
    for result in decoded { layers.append(try result.get()) }
    return VectorTile(layers: layers, skippedLayerNames: skippedLayerNames)
  }

  private func decode(_ index: Int, pointBudget: Int) throws(VectorTileError) -> VectorTileLayer {
    let entry = entries[index]
    return try bytes.withUnsafeBytes { buffer in
      Result { () throws(VectorTileError) in
        try VectorTileLayer(
          buffer, range: entry.range, name: entry.name, summary: entry.summary, pointBudget: pointBudget)
      }
    }.get()
  }
}
