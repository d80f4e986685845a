/// Reads a libFuzzer dictionary: one token a line, `name="value"` or `"value"`, `#` comments, with
/// `\\`, `\"` and `\xAB` escapes.
enum FuzzDictionary {
  static func tokens(_ text: String) -> [[UInt8]] {
    text.split(separator: "\n").compactMap { line -> [UInt8]? in
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard !trimmed.hasPrefix("#"), let open = trimmed.firstIndex(of: "\""),
        let close = trimmed.lastIndex(of: "\""), open < close
      else { return nil }
      return unescape(Array(trimmed[trimmed.index(after: open)..<close].utf8))
    }
  }

  private static func unescape(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      guard byte == UInt8(ascii: "\\"), index < bytes.count else {
        result.append(byte)
        continue
      }
      if bytes[index] == UInt8(ascii: "x"), index + 2 < bytes.count,
        let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
      {
        result.append(value)
        index += 3
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }
}
