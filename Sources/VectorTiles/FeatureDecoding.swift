/// Where a decoded feature's pieces lie in its layer's storage, before the storage is frozen.
struct FeatureRecord {
  let id: UInt64?
  let type: VectorTileGeometryType
  /// Tag pair indices.
  let tagRange: Range<Int>
  let partRange: Range<Int>
  let polygonRange: Range<Int>
}

/// The fields of one feature message, found first so that the geometry can be read knowing its type
/// whatever order the encoder wrote the fields in.
struct FeatureFields {
  var id: UInt64?
  var type: UInt64 = 0
  var tags: Range<Int>?
  var geometry: Range<Int>?
  var tagsOffset = 0

  init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(VectorTileError) {
    var reader = ProtobufReader(bytes, range: range)
    while !reader.isAtEnd {
      let key = try reader.readKey()
      switch key.field {
      case 1:
        try ProtobufReader.expect(key, .varint, field: "feature.id")
        id = try reader.readVarint()
      case 2:
        // Packed only: the unpacked form of a repeated field is legal protobuf but no tile encoder uses it.
        try ProtobufReader.expect(key, .lengthDelimited, field: "feature.tags")
        guard tags == nil else { throw VectorTileError(.duplicateField("feature.tags"), offset: key.offset) }
        tags = try reader.readLengthDelimited()
        tagsOffset = key.offset
      case 3:
        try ProtobufReader.expect(key, .varint, field: "feature.type")
        type = try reader.readVarint()
      case 4:
        try ProtobufReader.expect(key, .lengthDelimited, field: "feature.geometry")
        guard geometry == nil else {
          throw VectorTileError(.duplicateField("feature.geometry"), offset: key.offset)
        }
        geometry = try reader.readLengthDelimited()
      default:
        try reader.skip(key)
      }
    }
  }

  /// Appends the feature's geometry and tags to `layer`; nil when the feature is skipped (unknown type,
  /// or nothing left of its geometry).
  func decode(_ bytes: UnsafeRawBufferPointer, summary: LayerSummary, into layer: inout LayerBuilder)
    throws(VectorTileError) -> FeatureRecord?
  {
    guard type <= 3, let type = VectorTileGeometryType(rawValue: Int(type)), let geometry else { return nil }
    let partStart = layer.partEnds.count
    let polygonStart = layer.polygonEnds.count
    var reader = ProtobufReader(bytes, range: geometry)
    var decoder = GeometryDecoder(type: type, layerVersion: summary.version)
    try decoder.decode(&reader, into: &layer)
    guard layer.partEnds.count > partStart else { return nil }

    let tagStart = layer.tags.count
    if let tags {
      var tagReader = ProtobufReader(bytes, range: tags)
      var isKey = true
      while !tagReader.isAtEnd {
        let offset = tagReader.position
        let index = try tagReader.readVarint()
        let count = isKey ? summary.keyCount : summary.valueCount
        guard index < UInt64(count) else {
          throw VectorTileError(.tagOutOfRange(index: index, count: count), offset: offset)
        }
        layer.tags.append(UInt32(index))
        isKey.toggle()
      }
      guard isKey else { throw VectorTileError(.oddTagCount, offset: tagsOffset) }
    }
    return FeatureRecord(
      id: id, type: type, tagRange: tagStart / 2..<layer.tags.count / 2,
      partRange: partStart..<layer.partEnds.count, polygonRange: polygonStart..<layer.polygonEnds.count)
  }
}
