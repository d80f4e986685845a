import Foundation
import JSON

/// Checks on an XML document's bytes before FoundationXML's `XMLParser` (libxml2 underneath) reads them,
/// for documents that would crash it instead of failing:
/// - an XML declaration naming an encoding other than UTF-8, ASCII or ISO-8859-1: libxml2 2.9 converts
///   others through iconv, and stopping it from the report of a failed conversion (as `GPX` stops on
///   every error, so that FoundationXML never hands on text that is not UTF-8) crashes it;
/// - a processing instruction without data (`<?x?>`): FoundationXML passes the NULL data libxml2 gives it
///   to `strlen`. Found anywhere, even inside a comment, where it would be harmless;
/// - a NUL byte: XML never holds U+0000, so in UTF-8 a NUL byte is never text, while libxml2 takes
///   `<` `NUL` `?` `NUL` at the start for UTF-16 and its push parser then reads through a NULL pointer
///   (an 80-byte file crashed `mymap import`; found by a long run of Fuzz/Harnesses/gpx.swift).
///
/// GPX files are UTF-8 in practice and have none of these, so each is refused with a message.
enum XMLPreflight {
  /// The encodings libxml2 reads without iconv, lowercased.
  static let readableEncodings: Set<String> = [
    "utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1", "latin-1",
  ]

  /// The first problem in `bytes`: its byte offset (from `bytes.startIndex`) and what to tell the user.
  static func problem(in bytes: Data) -> (offset: Int, message: String)? {
    if let encoding = declaredEncoding(bytes), !readableEncodings.contains(encoding.lowercased()) {
      return (
        0,
        "the file declares the encoding \(JSONWriter.quotedExcerpt(encoding)), which mymap does not read; save it as UTF-8"
      )
    }
    if let nul = bytes.firstIndex(of: 0) {
      return (
        nul - bytes.startIndex,
        "the file holds a NUL byte, which XML text never does (UTF-16, UTF-32 or not text at all); save it as UTF-8"
      )
    }
    if let (offset, target) = emptyProcessingInstruction(bytes) {
      let instruction = JSONWriter.quotedExcerpt("<?" + target + "?>")
      return (
        offset, "a processing instruction without content, \(instruction), which mymap cannot read; remove it"
      )
    }
    return nil
  }

  /// The encoding the declaration at the start of `bytes` names, as written; nil when there is no
  /// declaration or it names none. However long the declaration, only its bytes are looked at.
  static func declaredEncoding(_ bytes: Data) -> String? {
    guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
    // The declaration ends at `?>`; a damaged one at the next `<` or NUL (libxml2 stops there too).
    var end = bytes.startIndex + 5
    while end < bytes.endIndex, bytes[end] != 0, bytes[end] != UInt8(ascii: "<"),
      !(bytes[end] == UInt8(ascii: "?") && bytes[(end + 1)...].first == UInt8(ascii: ">"))
    {
      end += 1
    }
    let declaration = bytes[..<end]
    guard let name = declaration.firstRange(of: Array("encoding".utf8)) else { return nil }
    let rest = declaration[name.upperBound...].drop(while: isSpace)
    guard rest.first == UInt8(ascii: "=") else { return nil }
    let value = rest.dropFirst().drop(while: isSpace)
    guard let quote = value.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
      let close = value.dropFirst().firstIndex(of: quote)
    else { return nil }
    return String(decoding: value[value.index(after: value.startIndex)..<close], as: UTF8.self)
  }

  /// The offset and target of the first `<?target?>`.
  static func emptyProcessingInstruction(_ data: Data) -> (offset: Int, target: String)? {
    data.withUnsafeBytes { raw -> (Int, String)? in
      let bytes = raw.bindMemory(to: UInt8.self)
      var index = 0
      while index + 1 < bytes.count {
        defer { index += 1 }
        guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else { continue }
        var end = index + 2
        while end < bytes.count, !isSpace(bytes[end]), !"?<>".utf8.contains(bytes[end]) { end += 1 }
        if end > index + 2, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"),
          bytes[end + 1] == UInt8(ascii: ">")
        {
          return (index, String(decoding: bytes[(index + 2)..<end], as: UTF8.self))
        }
      }
      return nil
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }
}
