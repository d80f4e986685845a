/// One attribute value of a feature, in the type the tile stored it as.
public enum VectorTileValue: Hashable, Sendable, CustomStringConvertible {
  case string(String)
  case float(Float)
  case double(Double)
  /// `int64` and `sint64` values: the two encodings of the same signed type.
  case int(Int64)
  case uint(UInt64)
  case bool(Bool)

  /// The value as a number (booleans are not numbers), for comparisons in style filters.
  public var number: Double? {
    switch self {
    case .float(let value): return Double(value)
    case .double(let value): return value
    case .int(let value): return Double(value)
    case .uint(let value): return Double(value)
    case .string, .bool: return nil
    }
  }

  /// The text if this is a string value.
  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  public var description: String {
    switch self {
    case .string(let text): return text
    case .float(let value): return "\(value)"
    case .double(let value): return "\(value)"
    case .int(let value): return "\(value)"
    case .uint(let value): return "\(value)"
    case .bool(let value): return "\(value)"
    }
  }
}

extension VectorTileValue {
  /// Decodes one `Value` message (fields 1–7; later fields are extensions and skipped). When several
  /// typed fields are present the last one wins, as protobuf would have it.
  static func decode(_ reader: inout ProtobufReader) throws(VectorTileError) -> VectorTileValue {
    let start = reader.position
    var value: VectorTileValue?
    while !reader.isAtEnd {
      let key = try reader.readKey()
      switch key.field {
      case 1:
        try ProtobufReader.expect(key, .lengthDelimited, field: "value.string_value")
        value = .string(reader.string(try reader.readLengthDelimited()))
      case 2:
        try ProtobufReader.expect(key, .fixed32, field: "value.float_value")
        value = .float(Float(bitPattern: try reader.readFixed32()))
      case 3:
        try ProtobufReader.expect(key, .fixed64, field: "value.double_value")
        value = .double(Double(bitPattern: try reader.readFixed64()))
      case 4:
        try ProtobufReader.expect(key, .varint, field: "value.int_value")
        value = .int(Int64(bitPattern: try reader.readVarint()))
      case 5:
        try ProtobufReader.expect(key, .varint, field: "value.uint_value")
        value = .uint(try reader.readVarint())
      case 6:
        try ProtobufReader.expect(key, .varint, field: "value.sint_value")
        let raw = try reader.readVarint()
        value = .int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
      case 7:
        try ProtobufReader.expect(key, .varint, field: "value.bool_value")
        value = .bool(try reader.readVarint() != 0)
      default:
        try reader.skip(key)
      }
    }
    guard let value else { throw VectorTileError(.valueWithoutType, offset: start) }
    return value
  }
}
