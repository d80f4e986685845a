import Foundation

/// A value of a binary property list, as far as keyed archives need it.
enum PropertyListValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case real(Double)
  /// Seconds since 2001-01-01 00:00:00 UTC.
  case date(Double)
  case data([UInt8])
  case string(String)
  /// A reference to an object of a keyed archive (`CF$UID`): an index into its `$objects`.
  case uid(Int)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  var dictionary: [String: PropertyListValue]? {
    if case .dictionary(let members) = self { return members }
    return nil
  }

  var array: [PropertyListValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}

/// A reader for binary property lists (`bplist00`), the format NSKeyedArchiver writes.
///
/// Why not `PropertyListSerialization`: it reads binary plists on Linux too, but hands an archive's object
/// references back as a private class (`_NSKeyedArchiverUID` on Linux, `__NSCFType` on Darwin) whose number
/// can only be dug out by reflection. This reader is small, returns plain values, and is written for bytes
/// that may be anything: every offset and count is checked, nesting is limited, and a damaged file gives
/// nil, never a crash.
enum BinaryPropertyList {
  /// How deep containers may nest; a keyed archive needs 4 (top → `$objects` → object → array).
  static let maximumDepth = 32
  /// How many values one document may decode to, so shared references cannot blow up into a huge tree.
  static let maximumValues = 200_000
  /// How many bytes of strings and data one document may decode to: within `maximumValues`, a string
  /// shared by reference would still expand 200,000 times (5 KB of archive, 800 MB of strings). A
  /// placemark's strings take a few hundred bytes; at 4 MB a 5 KB archive took a second to decode under
  /// AddressSanitizer (Fuzz/Regressions/keyed-archive/6624b468dc93).
  static let maximumDecodedBytes = 1 << 20

  /// The document's top value; nil when `bytes` is not a well-formed binary property list.
  static func parse(_ bytes: [UInt8]) -> PropertyListValue? {
    var parser = Parser(bytes: bytes)
    return parser.parseDocument()
  }

  private struct Parser {
    let bytes: [UInt8]
    var offsets: [Int] = []
    var referenceSize = 0
    var decoded = 0
    var decodedBytes = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() -> PropertyListValue? {
      let header = Array("bplist00".utf8)
      guard bytes.count >= header.count + 32, bytes.starts(with: header) else { return nil }
      let trailer = bytes.count - 32
      let offsetSize = Int(bytes[trailer + 6])
      referenceSize = Int(bytes[trailer + 7])
      guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
        let count = unsigned(at: trailer + 8, size: 8), let top = unsigned(at: trailer + 16, size: 8),
        let table = unsigned(at: trailer + 24, size: 8),
        count >= 1, count <= bytes.count, top < count, table >= header.count, table <= trailer,
        (trailer - table) / offsetSize >= count
      else { return nil }
      offsets.reserveCapacity(count)
      for index in 0..<count {
        guard let offset = unsigned(at: table + index * offsetSize, size: offsetSize),
          offset >= header.count, offset < table
        else { return nil }
        offsets.append(offset)
      }
      return value(top, depth: 0)
    }

    /// The object at `index` of the offset table.
    mutating func value(_ index: Int, depth: Int) -> PropertyListValue? {
      decoded += 1
      guard index >= 0, index < offsets.count, depth <= BinaryPropertyList.maximumDepth,
        decoded <= BinaryPropertyList.maximumValues
      else { return nil }
      let start = offsets[index]
      let marker = bytes[start]
      let info = Int(marker & 0x0F)
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x00: return .null
        case 0x08: return .bool(false)
        case 0x09: return .bool(true)
        default: return nil
        }
      case 0x1:
        return integer(at: start + 1, sizeExponent: info).map { .integer($0) }
      case 0x2:
        return real(at: start + 1, sizeExponent: info).map { .real($0) }
      case 0x3:
        guard info == 3, let seconds = real(at: start + 1, sizeExponent: 3) else { return nil }
        return .date(seconds)
      case 0x4:
        guard let (count, body) = length(info, after: start), let data = slice(body, count), spend(count)
        else { return nil }
        return .data(Array(data))
      case 0x5:
        // ASCII, one byte a character; decoded as Latin-1 so that no byte can fail.
        guard let (count, body) = length(info, after: start), let text = slice(body, count), spend(count)
        else { return nil }
        return .string(String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) })))
      case 0x6:
        guard let (count, body) = length(info, after: start), count <= Int.max / 2,
          let raw = slice(body, count * 2), spend(count * 2)
        else { return nil }
        let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map {
          UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1])
        }
        return .string(String(decoding: units, as: UTF16.self))
      case 0x8:
        return unsigned(at: start + 1, size: info + 1).map { .uid($0) }
      case 0xA, 0xB, 0xC:
        // Arrays, ordered sets and sets all read as arrays.
        guard let (count, body) = length(info, after: start), let references = references(body, count)
        else { return nil }
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        for reference in references {
          guard let element = value(reference, depth: depth + 1) else { return nil }
          elements.append(element)
        }
        return .array(elements)
      case 0xD:
        guard let (count, body) = length(info, after: start), count <= Int.max / 2,
          let references = references(body, count * 2)
        else { return nil }
        var members: [String: PropertyListValue] = [:]
        for pair in 0..<count {
          guard case .string(let key)? = value(references[pair], depth: depth + 1),
            let member = value(references[count + pair], depth: depth + 1)
          else { return nil }
          members[key] = member
        }
        return .dictionary(members)
      default:
        return nil
      }
    }

    /// Counts `count` more decoded bytes; false once the document has decoded too many.
    private mutating func spend(_ count: Int) -> Bool {
      decodedBytes += count
      return decodedBytes <= BinaryPropertyList.maximumDecodedBytes
    }

    /// A container's or a string's count: in the marker's low nibble, or, when that is 15, in the integer
    /// that follows the marker. Returns the count and where the body starts.
    private func length(_ info: Int, after marker: Int) -> (count: Int, body: Int)? {
      guard info == 0x0F else { return (info, marker + 1) }
      guard marker + 1 < bytes.count, bytes[marker + 1] >> 4 == 0x1 else { return nil }
      let exponent = Int(bytes[marker + 1] & 0x0F)
      guard exponent <= 3, let count = integer(at: marker + 2, sizeExponent: exponent), count >= 0 else {
        return nil
      }
      return (Int(count), marker + 2 + (1 << exponent))
    }

    private func slice(_ start: Int, _ count: Int) -> ArraySlice<UInt8>? {
      guard start >= 0, count >= 0, start <= bytes.count, count <= bytes.count - start else { return nil }
      return bytes[start..<start + count]
    }

    private func references(_ start: Int, _ count: Int) -> [Int]? {
      guard count <= bytes.count / referenceSize, slice(start, count * referenceSize) != nil else {
        return nil
      }
      var result: [Int] = []
      result.reserveCapacity(count)
      for index in 0..<count {
        guard let reference = unsigned(at: start + index * referenceSize, size: referenceSize) else {
          return nil
        }
        result.append(reference)
      }
      return result
    }

    /// A big-endian unsigned number of `size` bytes (1…8) that fits in `Int`.
    private func unsigned(at start: Int, size: Int) -> Int? {
      guard (1...8).contains(size), let raw = slice(start, size) else { return nil }
      let value = raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// An integer of 2^exponent bytes: 1, 2 and 4 bytes are unsigned, 8 bytes signed; of a 16-byte integer
    /// only the low 8 bytes are kept.
    private func integer(at start: Int, sizeExponent exponent: Int) -> Int64? {
      guard exponent <= 4 else { return nil }
      let size = 1 << exponent
      guard let raw = slice(start, size) else { return nil }
      let value = raw.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return Int64(bitPattern: value)
    }

    private func real(at start: Int, sizeExponent exponent: Int) -> Double? {
      switch exponent {
      case 2:
        guard let raw = slice(start, 4) else { return nil }
        return Double(Float(bitPattern: raw.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
      case 3:
        guard let raw = slice(start, 8) else { return nil }
        return Double(bitPattern: raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
      default:
        return nil
      }
    }
  }
}

/// An NSKeyedArchiver archive: a binary property list whose `$objects` hold every archived object once,
/// objects referring to each other by `CF$UID` (an index into `$objects`), `$top` naming the root.
///
/// An archived object is a dictionary of its encoded keys plus `$class`, a reference to a class entry
/// (`$classname`, `$classes`). NSDictionary writes its contents as `NS.keys` and `NS.objects`, NSArray as
/// `NS.objects`, NSMutableString as `NS.string`; `$null` (object 0) stands for nil.
struct KeyedArchive {
  let objects: [PropertyListValue]
  /// The index in `objects` of the root object.
  let root: Int

  /// Nil when `bytes` is not a binary property list or not shaped like a keyed archive.
  init?(_ bytes: [UInt8]) {
    guard let document = BinaryPropertyList.parse(bytes)?.dictionary,
      let objects = document["$objects"]?.array, let top = document["$top"]?.dictionary
    else { return nil }
    if let archiver = document["$archiver"], archiver != .string("NSKeyedArchiver") { return nil }
    // archivedDataWithRootObject: names the root `root`; an archive made otherwise may use any one key.
    let rootReference = top["root"] ?? (top.count == 1 ? top.values.first : nil)
    guard case .uid(let root)? = rootReference, root > 0, root < objects.count else { return nil }
    self.objects = objects
    self.root = root
  }

  /// The object a reference leads to; nil for `$null` and for a reference out of range. A value that is
  /// not a reference is its own object (some archivers write small values in place).
  func object(_ value: PropertyListValue) -> PropertyListValue? {
    guard case .uid(let index) = value else { return value }
    guard index > 0, index < objects.count else { return nil }
    return objects[index]
  }

  /// The `$classname` of an archived object.
  func className(_ object: PropertyListValue) -> String? {
    guard let reference = object.dictionary?["$class"] else { return nil }
    return self.object(reference)?.dictionary?["$classname"]?.string
  }

  /// The text of a string, however it was archived: a plain string, or an NSMutableString object
  /// (`NS.string`, or UTF-8 `NS.bytes`).
  func string(_ value: PropertyListValue) -> String? {
    guard let object = object(value) else { return nil }
    if case .string(let text) = object { return text }
    guard let members = object.dictionary else { return nil }
    if let inner = members["NS.string"], let text = self.object(inner)?.string { return text }
    if case .data(let bytes)? = members["NS.bytes"].flatMap(self.object) {
      return String(bytes: bytes, encoding: .utf8)
    }
    return nil
  }

  /// The key-value pairs of an archived NSDictionary (`NS.keys`, `NS.objects`), keys that are not strings
  /// left out; nil for any other object.
  func dictionaryEntries(_ object: PropertyListValue) -> [(key: String, value: PropertyListValue)]? {
    guard let members = object.dictionary, let keys = members["NS.keys"]?.array,
      let values = members["NS.objects"]?.array, keys.count == values.count
    else { return nil }
    return zip(keys, values).compactMap { key, value in string(key).map { ($0, value) } }
  }
}
