/// Why a vector tile could not be decoded, and where: `offset` is the byte in the (uncompressed) tile
/// where the bad field, integer or command starts.
public struct VectorTileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Equatable, Sendable {
    /// A field runs past the end of the message that holds it (a cut-off tile).
    case truncated
    /// A varint longer than 10 bytes or wider than 64 bits.
    case malformedVarint
    /// Field number 0, which protobuf does not allow.
    case invalidFieldNumber
    /// Wire types 3 and 4 (groups, not used by vector tiles) and 6 and 7 (undefined).
    case unsupportedWireType(Int)
    /// A known field (named like `layer.name`) encoded with the wrong wire type.
    case unexpectedWireType(field: String, wireType: Int)
    /// A field the decoder accepts only once per message, such as `feature.geometry`, appears again.
    case duplicateField(String)
    /// A layer without the required `name` field.
    case missingLayerName
    /// A layer whose extent is 0 or larger than `VectorTileLimits.maximumExtent`.
    case invalidExtent(UInt64)
    /// More of something than `VectorTileLimits` allows.
    case tooMany(VectorTileLimits.Counted, limit: Int)
    /// A feature's `tags` do not come in key/value pairs.
    case oddTagCount
    /// A feature's tag refers past the end of its layer's keys (or values).
    case tagOutOfRange(index: UInt64, count: Int)
    /// A value message with none of the seven typed fields.
    case valueWithoutType
    /// A geometry integer (command or parameter) wider than 32 bits.
    case geometryIntegerTooLarge(UInt64)
    /// A geometry command id other than MoveTo (1), LineTo (2) and ClosePath (7).
    case unknownCommand(Int)
    /// A command this geometry type cannot hold, such as LineTo in a point feature.
    case commandNotAllowed(command: Int, type: VectorTileGeometryType)
    /// A LineTo (or ClosePath) with no MoveTo to start its line or ring.
    case missingMoveTo
    /// A ClosePath whose count is not 1.
    case closePathCount(Int)
    /// A command count claiming more parameters than the geometry has bytes left.
    case commandCountTooLarge(Int)
    /// The cursor moved outside the 32-bit coordinate range.
    case coordinateOutOfRange
  }

  public let reason: Reason
  /// The byte offset in the tile where the bad field starts.
  public let offset: Int

  public init(_ reason: Reason, offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  public var description: String { "vector tile damaged at byte \(offset): \(explanation)" }

  private var explanation: String {
    switch reason {
    case .truncated: return "a field runs past the end of the tile or its message"
    case .malformedVarint: return "malformed varint (longer than 10 bytes)"
    case .invalidFieldNumber: return "field number 0"
    case .unsupportedWireType(let type): return "unsupported protobuf wire type \(type)"
    case .unexpectedWireType(let field, let type): return "\(field) has wire type \(type)"
    case .duplicateField(let field): return "\(field) appears twice"
    case .missingLayerName: return "a layer has no name"
    case .invalidExtent(let extent): return "layer extent \(extent) is not usable"
    case .tooMany(let counted, let limit): return "more than \(limit) \(counted.rawValue)"
    case .oddTagCount: return "feature tags are not key/value pairs"
    case .tagOutOfRange(let index, let count): return "tag index \(index) but the layer has \(count)"
    case .valueWithoutType: return "a layer value has no type"
    case .geometryIntegerTooLarge(let value): return "geometry integer \(value) is wider than 32 bits"
    case .unknownCommand(let id): return "unknown geometry command \(id)"
    case .commandNotAllowed(let command, let type): return "command \(command) in a \(type) geometry"
    case .missingMoveTo: return "a line or ring does not start with MoveTo"
    case .closePathCount(let count): return "ClosePath with count \(count)"
    case .commandCountTooLarge(let count): return "command count \(count) exceeds the geometry's data"
    case .coordinateOutOfRange: return "a coordinate leaves the 32-bit range"
    }
  }
}
