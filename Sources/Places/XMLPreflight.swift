import Foundation
import JSON

/// Checks on an XML document's bytes before `XMLReader` reads them, for files it cannot read as text:
/// - an XML declaration naming an encoding other than UTF-8, ASCII or ISO-8859-1 (the last is converted to
///   UTF-8 first, `utf8(fromLatin1:)`);
/// - a NUL byte: XML never holds U+0000, so in UTF-8 a NUL byte is never text; the file is UTF-16, UTF-32
///   or not text at all.
///
/// GPX files are UTF-8 in practice and have neither, so each is refused with a message that says what to
/// do.
enum XMLPreflight {
  /// The encodings read, lowercased.
  static let readableEncodings = Set(["utf-8", "utf8", "us-ascii", "ascii"]).union(latin1Encodings)
  /// The names of ISO-8859-1, lowercased.
  static let latin1Encodings: Set<String> = ["iso-8859-1", "iso_8859-1", "latin1", "latin-1"]

  /// The first problem in `bytes`: its byte offset and what to tell the user. The bytes are looked
  /// through front to back once; `release` is told, now and then, the offset they were looked at up to.
  static func problem(
    in bytes: UnsafeBufferPointer<UInt8>, release: (Int) -> Void = { _ in }
  ) -> (offset: Int, message: String)? {
    if let encoding = declaredEncoding(bytes), !readableEncodings.contains(encoding.lowercased()) {
      return (
        0,
        "the file declares the encoding \(JSONWriter.quotedExcerpt(encoding)), which mymap does not read; save it as UTF-8"
      )
    }
    if let nul = firstNUL(in: bytes, release: release) {
      return (
        nul,
        "the file holds a NUL byte, which XML text never does (UTF-16, UTF-32 or not text at all); save it as UTF-8"
      )
    }
    return nil
  }

  /// Where the first NUL byte is, looked for a few mebibytes at a time.
  private static func firstNUL(in bytes: UnsafeBufferPointer<UInt8>, release: (Int) -> Void) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let chunk = 8 << 20
    for start in stride(from: 0, to: bytes.count, by: chunk) {
      if let found = memchr(base + start, 0, min(chunk, bytes.count - start)) {
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
      }
      release(min(start + chunk, bytes.count))
    }
    return nil
  }

  /// The encoding the declaration at the start of `bytes` names, as written; nil when there is no
  /// declaration or it names none. However long the declaration, only its bytes are looked at.
  static func declaredEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
    // The declaration ends at `?>`; a damaged one at the next `<` or NUL.
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

  /// ISO-8859-1 text as UTF-8: each byte is the code point of the same number.
  static func utf8(fromLatin1 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(bytes.count)
    for byte in bytes {
      if byte < 0x80 {
        utf8.append(byte)
      } else {
        utf8.append(0xC0 | byte >> 6)
        utf8.append(0x80 | byte & 0x3F)
      }
    }
    return utf8
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }
}
