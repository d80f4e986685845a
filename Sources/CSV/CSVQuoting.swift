/// A field as written: in quotes (inner quotes doubled) when it holds a comma, a quote or a line break.
///
/// Works on the UTF-8 bytes: a quote followed by a combining mark (`"` U+0362) is one `Character` to Swift,
/// which a search for the character `"` does not find, yet it is a quote to every CSV reader.
public func csvQuotedIfNeeded(_ field: String) -> String {
  let needsQuotes = field.utf8.contains {
    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
      || $0 == UInt8(ascii: "\r")
  }
  guard needsQuotes else { return field }
  var bytes: [UInt8] = [UInt8(ascii: "\"")]
  bytes.reserveCapacity(field.utf8.count + 8)
  for byte in field.utf8 {
    bytes.append(byte)
    if byte == UInt8(ascii: "\"") { bytes.append(byte) }
  }
  bytes.append(UInt8(ascii: "\""))
  return String(decoding: bytes, as: UTF8.self)
}
