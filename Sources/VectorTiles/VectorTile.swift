/// A decoded Mapbox Vector Tile (specification 2.1): its layers, each with features in tile coordinates.
///
/// Decoding reads uncompressed protobuf bytes (inflate gzip-compressed tiles first) and is bounded by
/// `VectorTileLimits` whatever the tile claims; damage gives a `VectorTileError` naming the byte.
public struct VectorTile: Sendable {
  public let layers: [VectorTileLayer]
  /// Names of layers left out because their version is neither 1 nor 2.
  public let skippedLayerNames: [String]

  /// Decodes a tile; with `layers`, only the layers of those names (others are skipped unread, which
  /// saves most of the work when a style uses a few of a tile's layers).
  public init(decoding bytes: some Collection<UInt8>, layers wanted: Set<String>? = nil)
    throws(VectorTileError)
  {
    self = try Self.withContiguousBytes(bytes) { Self.decode($0, wanted: wanted) }.get()
  }

  /// Decodes a tile from raw memory; see `init(decoding:layers:)`.
  public init(decoding bytes: UnsafeRawBufferPointer, layers wanted: Set<String>? = nil)
    throws(VectorTileError)
  {
    self = try Self.decode(bytes, wanted: wanted).get()
  }

  /// The first layer called `name`.
  public subscript(layer name: String) -> VectorTileLayer? {
    layers.first { $0.name == name }
  }

  /// The names of a tile's layers in order, read without decoding any feature.
  public static func layerNames(in bytes: some Collection<UInt8>) throws(VectorTileError) -> [String] {
    try withContiguousBytes(bytes) { buffer in
      Result { () throws(VectorTileError) in
        var names: [String] = []
        try forEachLayer(in: buffer) { _, _, name throws(VectorTileError) in names.append(name) }
        return names
      }
    }.get()
  }

  init(layers: [VectorTileLayer], skippedLayerNames: [String]) {
    self.layers = layers
    self.skippedLayerNames = skippedLayerNames
  }

  private static func decode(_ bytes: UnsafeRawBufferPointer, wanted: Set<String>?) -> Result<
    VectorTile, VectorTileError
  > {
    Result { () throws(VectorTileError) in
      let (entries, skipped) = try VectorTileLayerIndex.entries(in: bytes, wanted: wanted)
      return VectorTile(
        layers: try VectorTileLayerIndex.decodeInOrder(bytes, entries), skippedLayerNames: skipped)
    }
  }

  /// Walks the tile's layer fields, summarising each (name, version, extent, counts) before `body`
  /// decides whether to decode it. Unknown top-level fields are skipped.
  static func forEachLayer(
    in bytes: UnsafeRawBufferPointer,
    _ body: (Range<Int>, LayerSummary, String) throws(VectorTileError) -> Void
  ) throws(VectorTileError) {
    var reader = ProtobufReader(bytes, range: 0..<bytes.count)
    var layerCount = 0
    var featureCount = 0
    while !reader.isAtEnd {
      let key = try reader.readKey()
      guard key.field == 3 else {
        try reader.skip(key)
        continue
      }
      try ProtobufReader.expect(key, .lengthDelimited, field: "tile.layers")
      let range = try reader.readLengthDelimited()
      layerCount += 1
      guard layerCount <= VectorTileLimits.maximumLayerCount else {
        throw VectorTileError(
          .tooMany(.layers, limit: VectorTileLimits.maximumLayerCount), offset: key.offset)
      }
      let summary = try LayerSummary(
        bytes, range: range, featureBudget: VectorTileLimits.maximumFeatureCount - featureCount)
      featureCount += summary.featureCount
      guard let nameRange = summary.nameRange else {
        throw VectorTileError(.missingLayerName, offset: key.offset)
      }
      try body(range, summary, reader.string(nameRange))
    }
  }

  private static func withContiguousBytes<T>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Result<T, VectorTileError>
  ) -> Result<T, VectorTileError> {
    if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
      return result
    }
    return Array(bytes).withUnsafeBytes(body)
  }
}
