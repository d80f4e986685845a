import Foundation
import Tiles

/// A dBase III table (the `.dbf` beside a shapefile), read whole: a 32-byte header (record count, header
/// and record lengths), 32-byte field descriptors up to a 0x0D terminator, then fixed-width records that
/// start with a deletion flag (`*` for deleted). Text is decoded with the encoding the `.cpg` file beside
/// it names (UTF-8 when there is none and the bytes are valid UTF-8, else ISO 8859-1).
public struct DBaseTable: Sendable {
  public struct Field: Sendable, Equatable {
    public var name: String
    /// The dBase type letter: C (text), N or F (number), L (logical), D (date), …
    public var type: Character
    public var length: Int
    public var decimals: Int
  }

  public let fields: [Field]
  /// The encoding named by the `.cpg` file, if there was one it understood.
  public let encoding: String.Encoding?
  private let bytes: [UInt8]
  private let name: String
  private let headerLength: Int
  private let recordLength: Int
  private let offsets: [Int]
  private let fieldIndex: [String: Int]

  /// The number of records, deleted ones included (so that record `i` matches shape `i + 1`).
  public let count: Int

  /// Reads `path` and the `.cpg` beside it, if any.
  public init(path: String) throws {
    let cpg = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("cpg").path
    let encoding = FileManager.default.contents(atPath: cpg).flatMap {
      Self.encoding(named: String(decoding: $0, as: UTF8.self))
    }
    try self.init(bytes: BasemapBuildError.contents(of: path), encoding: encoding, name: path)
  }

  /// Parses a table's bytes; `name` is used in error messages.
  public init(bytes: [UInt8], encoding: String.Encoding?, name: String) throws {
    let reader = ByteReader(bytes: bytes, name: name)
    guard bytes.count >= 33 else { throw BasemapBuildError(name, "too short for a dBase header") }
    let count = try reader.uint32(at: 4)
    let headerLength = try reader.uint16(at: 8)
    let recordLength = try reader.uint16(at: 10)
    guard headerLength >= 33, headerLength <= bytes.count, recordLength >= 1 else {
      throw BasemapBuildError(name, "not a dBase table (bad header or record length)")
    }
    var fields: [Field] = []
    var offsets: [Int] = []
    var offset = 32
    var position = 1  // after the deletion flag
    while offset < headerLength, bytes[offset] != 0x0D {
      guard offset + 32 <= headerLength else {
        throw BasemapBuildError(name, "not a dBase table (field descriptors run past the header)")
      }
      let nameBytes = bytes[offset..<(offset + 11)].prefix { $0 != 0 }
      let field = Field(
        name: String(decoding: nameBytes, as: UTF8.self).trimmingCharacters(in: .whitespaces),
        type: Character(Unicode.Scalar(bytes[offset + 11])),
        length: Int(bytes[offset + 16]), decimals: Int(bytes[offset + 17]))
      fields.append(field)
      offsets.append(position)
      position += field.length
      offset += 32
    }
    guard offset < headerLength, position == recordLength else {
      throw BasemapBuildError(
        name, "not a dBase table (fields add up to \(position) bytes, records are \(recordLength))")
    }
    guard headerLength + count * recordLength <= bytes.count else {
      throw BasemapBuildError(name, "the table is truncated: \(count) records do not fit")
    }
    self.fields = fields
    self.offsets = offsets
    self.bytes = bytes
    self.name = name
    self.count = count
    self.headerLength = headerLength
    self.recordLength = recordLength
    self.encoding = encoding
    var index: [String: Int] = [:]
    for (position, field) in fields.enumerated() where index[field.name.uppercased()] == nil {
      index[field.name.uppercased()] = position
    }
    fieldIndex = index
  }

  /// The encoding a `.cpg` file names (UTF-8, Windows-1252 or ISO 8859-1 spellings); nil for others.
  public static func encoding(named text: String) -> String.Encoding? {
    let name = text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
      .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
      .replacingOccurrences(of: " ", with: "")
    switch name {
    case "UTF8", "65001": return .utf8
    case "1252", "CP1252", "WINDOWS1252", "ANSI1252": return .windowsCP1252
    case "88591", "ISO88591", "LATIN1", "CP819": return .isoLatin1
    default: return nil
    }
  }

  public func hasField(_ name: String) -> Bool {
    fieldIndex[name.uppercased()] != nil
  }

  public func isDeleted(_ record: Int) -> Bool {
    bytes[headerLength + record * recordLength] == UInt8(ascii: "*")
  }

  /// A field's text with surrounding spaces removed; nil when the field does not exist or is blank.
  /// Field names match without regard to case.
  public func string(_ record: Int, _ field: String) -> String? {
    guard record >= 0, record < count, let column = fieldIndex[field.uppercased()] else { return nil }
    let start = headerLength + record * recordLength + offsets[column]
    var raw = bytes[start..<(start + fields[column].length)]
    while let last = raw.last, last == 0x20 || last == 0 { raw = raw.dropLast() }
    while let first = raw.first, first == 0x20 { raw = raw.dropFirst() }
    guard !raw.isEmpty else { return nil }
    return decode(raw)
  }

  /// A numeric field's value; nil when missing, blank or not a number (dBase writes `*` for overflow).
  public func number(_ record: Int, _ field: String) -> Double? {
    string(record, field).flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
  }

  private func decode(_ raw: ArraySlice<UInt8>) -> String {
    if let encoding, let text = String(bytes: raw, encoding: encoding) { return text }
    if encoding == nil || encoding == .utf8, let text = String(validating: raw, as: UTF8.self) { return text }
    return String(raw.map { Character(Unicode.Scalar($0)) })
  }
}
