/// Protobuf written by hand, for tiles no encoder would make: wrong wire types, huge counts, damage.
struct ProtobufMessage {
  var bytes: [UInt8] = []

  init() {}

  init(_ build: (inout ProtobufMessage) -> Void) {
    build(&self)
  }

  mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func key(_ field: Int, wireType: Int) {
    varint(UInt64(field) << 3 | UInt64(wireType))
  }

  mutating func field(_ field: Int, varint value: UInt64) {
    key(field, wireType: 0)
    varint(value)
  }

  mutating func field(_ field: Int, bytes value: [UInt8]) {
    key(field, wireType: 2)
    varint(UInt64(value.count))
    bytes += value
  }

  mutating func field(_ field: Int, string: String) {
    self.field(field, bytes: Array(string.utf8))
  }

  mutating func field(_ field: Int, message: ProtobufMessage) {
    self.field(field, bytes: message.bytes)
  }

  mutating func field(_ field: Int, packed values: [UInt32]) {
    var packed = ProtobufMessage()
    for value in values { packed.varint(UInt64(value)) }
    self.field(field, bytes: packed.bytes)
  }

  mutating func field(_ field: Int, fixed32 value: UInt32) {
    key(field, wireType: 5)
    bytes += withUnsafeBytes(of: value.littleEndian, Array.init)
  }

  mutating func field(_ field: Int, fixed64 value: UInt64) {
    key(field, wireType: 1)
    bytes += withUnsafeBytes(of: value.littleEndian, Array.init)
  }
}

/// Vector tile messages (field numbers of the spec's vector_tile.proto) built from parts.
enum HandTile {
  static func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

  static func command(_ id: UInt32, _ count: UInt32) -> UInt32 { id | count << 3 }

  static func feature(
    id: UInt64? = nil, type: UInt64 = 1, tags: [UInt32] = [], geometry: [UInt32] = [9, 2, 2]
  ) -> ProtobufMessage {
    ProtobufMessage {
      if let id { $0.field(1, varint: id) }
      if !tags.isEmpty { $0.field(2, packed: tags) }
      $0.field(3, varint: type)
      $0.field(4, packed: geometry)
    }
  }

  static func stringValue(_ text: String) -> ProtobufMessage {
    ProtobufMessage { $0.field(1, string: text) }
  }

  static func layer(
    name: String = "layer", version: UInt64 = 2, extent: UInt64? = nil,
    features: [ProtobufMessage] = [feature()],
    keys: [String] = [], values: [ProtobufMessage] = []
  ) -> ProtobufMessage {
    ProtobufMessage {
      $0.field(15, varint: version)
      $0.field(1, string: name)
      for feature in features { $0.field(2, message: feature) }
      for key in keys { $0.field(3, string: key) }
      for value in values { $0.field(4, message: value) }
      if let extent { $0.field(5, varint: extent) }
    }
  }

  static func tile(_ layers: [ProtobufMessage]) -> [UInt8] {
    ProtobufMessage { tile in
      for layer in layers { tile.field(3, message: layer) }
    }.bytes
  }

  /// A tile with one layer holding one feature of `type` with `geometry`.
  static func tile(type: UInt64, geometry: [UInt32], version: UInt64 = 2) -> [UInt8] {
    tile([layer(version: version, features: [feature(type: type, geometry: geometry)])])
  }
}
