/// One named layer of a tile (`water`, `transportation`, …) with its features.
public struct VectorTileLayer: Sendable {
  public let name: String
  /// The spec's major version the layer follows (1 or 2; layers of other versions are skipped).
  public let version: Int
  /// Tile coordinates per tile side: 0…extent spans the tile (4096 unless the layer says otherwise).
  public let extent: Int
  public let features: [VectorTileFeature]
  /// Features left out: of the UNKNOWN or an unlisted geometry type, or without usable geometry.
  public let skippedFeatureCount: Int
  /// Degenerate lines and rings left out of features (see `VectorTileGeometry`).
  public let droppedPartCount: Int
  let storage: VectorTileLayerStorage

  /// The layer's attribute names, which feature tags index.
  public var keys: [String] { storage.keys }
  /// The layer's attribute values, which feature tags index.
  public var values: [VectorTileValue] { storage.values }
}

/// What a first pass over a layer message finds without decoding features, keys or values.
struct LayerSummary {
  var nameRange: Range<Int>?
  var version = 1
  var extent = 4096
  var keyCount = 0
  var valueCount = 0
  var featureCount = 0

  /// Scans the layer's fields, checking counts against the limits; `featureBudget` is what the tile-wide
  /// feature limit leaves.
  init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, featureBudget: Int) throws(VectorTileError) {
    var reader = ProtobufReader(bytes, range: range)
    while !reader.isAtEnd {
      let key = try reader.readKey()
      switch key.field {
      case 1:
        try ProtobufReader.expect(key, .lengthDelimited, field: "layer.name")
        nameRange = try reader.readLengthDelimited()
      case 2:
        featureCount = try Self.countMessage(
          key, "layer.features", &reader, count: featureCount, budget: featureBudget, .features,
          limit: VectorTileLimits.maximumFeatureCount)
      case 3:
        keyCount = try Self.countMessage(
          key, "layer.keys", &reader, count: keyCount, budget: VectorTileLimits.maximumKeyCount, .keys,
          limit: VectorTileLimits.maximumKeyCount)
      case 4:
        valueCount = try Self.countMessage(
          key, "layer.values", &reader, count: valueCount, budget: VectorTileLimits.maximumValueCount,
          .values, limit: VectorTileLimits.maximumValueCount)
      case 5:
        try ProtobufReader.expect(key, .varint, field: "layer.extent")
        let value = try reader.readVarint()
        guard value > 0, value <= VectorTileLimits.maximumExtent else {
          throw VectorTileError(.invalidExtent(value), offset: key.offset)
        }
        extent = Int(value)
      case 15:
        try ProtobufReader.expect(key, .varint, field: "layer.version")
        version = Int(clamping: try reader.readVarint())
      default:
        try reader.skip(key)
      }
    }
  }

  /// Skips one element of a repeated message field and returns the field's new count, refusing to count
  /// past `budget`.
  private static func countMessage(
    _ key: ProtobufReader.Key, _ field: String, _ reader: inout ProtobufReader, count: Int, budget: Int,
    _ counted: VectorTileLimits.Counted, limit: Int
  ) throws(VectorTileError) -> Int {
    try ProtobufReader.expect(key, .lengthDelimited, field: field)
    _ = try reader.readLengthDelimited()
    guard count < budget else { throw VectorTileError(.tooMany(counted, limit: limit), offset: key.offset) }
    return count + 1
  }
}

extension VectorTileLayer {
  /// Decodes the layer message in `range` (second pass): keys, values and features in one sweep, with
  /// tags checked against the counts the first pass found.
  init(
    _ bytes: UnsafeRawBufferPointer, range: Range<Int>, name: String, summary: LayerSummary, pointBudget: Int
  ) throws(VectorTileError) {
    var builder = LayerBuilder(pointBudget: pointBudget)
    builder.keys.reserveCapacity(summary.keyCount)
    builder.values.reserveCapacity(summary.valueCount)
    var records: [FeatureRecord] = []
    records.reserveCapacity(summary.featureCount)
    var skipped = 0
    var reader = ProtobufReader(bytes, range: range)
    while !reader.isAtEnd {
      let key = try reader.readKey()
      switch key.field {
      case 2:
        let fields = try FeatureFields(bytes, range: try reader.readLengthDelimited())
        if let record = try fields.decode(bytes, summary: summary, into: &builder) {
          records.append(record)
        } else {
          skipped += 1
        }
      case 3:
        builder.keys.append(reader.string(try reader.readLengthDelimited()))
      case 4:
        var valueReader = ProtobufReader(bytes, range: try reader.readLengthDelimited())
        builder.values.append(try VectorTileValue.decode(&valueReader))
      default:
        try reader.skip(key)
      }
    }
    let storage = builder.storage()
    self.name = name
    self.version = summary.version
    self.extent = summary.extent
    self.features = records.map {
      VectorTileFeature(
        id: $0.id, type: $0.type, storage: storage, tagRange: $0.tagRange, partRange: $0.partRange,
        polygonRange: $0.polygonRange)
    }
    self.skippedFeatureCount = skipped
    self.droppedPartCount = builder.droppedParts
    self.storage = storage
  }

  /// The number of vertices the layer holds (for the tile-wide point limit).
  var pointCount: Int { storage.points.count }

  /// About how many bytes the decoded layer holds (its points, features, keys and values), for caches
  /// that keep layers within a budget.
  public var estimatedBytes: Int {
    pointCount * 8 + features.count * 64 + storage.keys.count * 32 + storage.values.count * 32
  }
}
