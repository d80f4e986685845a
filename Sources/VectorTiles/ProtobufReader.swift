/// A cursor over one protobuf message inside a tile's bytes: every read is checked against the message's
/// end, and every error carries the absolute byte offset where the bad item starts.
///
/// The bytes must stay valid while the reader is used (the decoder keeps them borrowed for one call).
struct ProtobufReader {
  /// The wire types protobuf defines; groups (3, 4) are accepted by no vector tile field.
  enum WireType: Int {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
  }

  /// One field key: its number, its wire type, and where the key starts.
  struct Key {
    let field: UInt64
    let wireType: WireType
    let offset: Int
  }

  let bytes: UnsafeRawBufferPointer
  private(set) var position: Int
  let end: Int

  /// A reader over `range` of `bytes`; the range must lie inside the buffer.
  init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) {
    self.bytes = bytes
    self.position = range.lowerBound
    self.end = range.upperBound
  }

  var isAtEnd: Bool { position >= end }
  var remaining: Int { end - position }

  @inline(__always)
  mutating func readVarint() throws(VectorTileError) -> UInt64 {
    // Most varints in a tile (tags, small deltas, lengths) are one byte.
    if position < end {
      let first = bytes[position]
      if first < 0x80 {
        position += 1
        return UInt64(first)
      }
    }
    return try readLongVarint()
  }

  @inline(never)
  private mutating func readLongVarint() throws(VectorTileError) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var index = position
    while true {
      guard index < end else { throw VectorTileError(.truncated, offset: position) }
      let byte = bytes[index]
      index += 1
      // The tenth byte holds the 64th bit only; anything more is not a 64-bit varint.
      if shift == 63 && byte > 1 { throw VectorTileError(.malformedVarint, offset: position) }
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 {
        position = index
        return value
      }
      shift += 7
    }
  }

  mutating func readKey() throws(VectorTileError) -> Key {
    let offset = position
    let key = try readVarint()
    let field = key >> 3
    guard field != 0 else { throw VectorTileError(.invalidFieldNumber, offset: offset) }
    guard let wireType = WireType(rawValue: Int(key & 7)) else {
      throw VectorTileError(.unsupportedWireType(Int(key & 7)), offset: offset)
    }
    return Key(field: field, wireType: wireType, offset: offset)
  }

  /// Reads a length prefix and returns the range of the bytes it covers, moving past them.
  mutating func readLengthDelimited() throws(VectorTileError) -> Range<Int> {
    let offset = position
    let length = try readVarint()
    guard length <= UInt64(remaining) else { throw VectorTileError(.truncated, offset: offset) }
    let start = position
    position += Int(length)
    return start..<position
  }

  mutating func readFixed32() throws(VectorTileError) -> UInt32 {
    guard remaining >= 4 else { throw VectorTileError(.truncated, offset: position) }
    let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)
    position += 4
    return UInt32(littleEndian: value)
  }

  mutating func readFixed64() throws(VectorTileError) -> UInt64 {
    guard remaining >= 8 else { throw VectorTileError(.truncated, offset: position) }
    let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
    position += 8
    return UInt64(littleEndian: value)
  }

  /// Moves past the value of a field the decoder does not use.
  mutating func skip(_ key: Key) throws(VectorTileError) {
    switch key.wireType {
    case .varint: _ = try readVarint()
    case .fixed64: _ = try readFixed64()
    case .lengthDelimited: _ = try readLengthDelimited()
    case .fixed32: _ = try readFixed32()
    }
  }

  /// Throws unless `key` has the wire type that `field` (a name like `layer.extent`) needs.
  static func expect(_ key: Key, _ wireType: WireType, field: String) throws(VectorTileError) {
    guard key.wireType == wireType else {
      throw VectorTileError(
        .unexpectedWireType(field: field, wireType: key.wireType.rawValue), offset: key.offset)
    }
  }

  /// The UTF-8 text in `range`; invalid sequences become U+FFFD rather than failing the tile.
  func string(_ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
