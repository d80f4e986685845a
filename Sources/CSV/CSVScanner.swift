/// A syntax problem at a line.
public struct CSVSyntaxError: Error, Equatable, Sendable {
  public var line: Int
  public var message: String
}

/// RFC 4180 CSV: splits bytes into records of fields (comma-separated, optionally quoted with `""` for a
/// quote inside, records ended by LF or CR LF), counting lines so errors can name them. A UTF-8 byte order
/// mark is skipped. The project's one CSV reader: places files and the basemap builder's city list.
public struct CSVScanner {
  private let bytes: [UInt8]
  private var index = 0
  /// The line `index` is on.
  private var line = 1
  /// Scratch space for a quoted field's bytes.
  private var quoted: [UInt8] = []

  public init(bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// Reads the next record into `fields`; returns the line it starts on, or nil at the end of the input.
  public mutating func nextRecord(into fields: inout [String]) throws(CSVSyntaxError) -> Int? {
    guard index < bytes.count else { return nil }
    fields.removeAll(keepingCapacity: true)
    let start = line
    while true {
      fields.append(try nextField())
      guard index < bytes.count else { return start }
      let separator = bytes[index]
      index += 1
      switch separator {
      case UInt8(ascii: ","):
        continue
      case UInt8(ascii: "\r"):
        if index < bytes.count && bytes[index] == UInt8(ascii: "\n") { index += 1 }
        line += 1
        return start
      default:  // "\n"
        line += 1
        return start
      }
    }
  }

  /// Reads one field, leaving `index` at the comma or line end after it (or at the end of the input).
  private mutating func nextField() throws(CSVSyntaxError) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
        index += 1
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }
    let openingLine = line
    index += 1
    quoted.removeAll(keepingCapacity: true)
    var runStart = index
    while true {
      guard index < bytes.count else {
        throw CSVSyntaxError(
          line: openingLine,
          message: "a quoted field starts on this line but its closing quote is missing")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        quoted.append(contentsOf: bytes[runStart..<index])
        index += 1
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
        // A doubled quote: one quote in the text.
        runStart = index
        index += 1
      } else {
        if byte == UInt8(ascii: "\n")
          || (byte == UInt8(ascii: "\r")
            && (index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n")))
        {
          line += 1
        }
        index += 1
      }
    }
    // Spaces may follow the closing quote; anything else is a quote that should have been doubled.
    while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
      index += 1
    }
    if index < bytes.count {
      let byte = bytes[index]
      if byte != UInt8(ascii: ",") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") {
        throw CSVSyntaxError(
          line: line,
          message: "text after the closing quote of a field (write a quote inside a quoted field as \"\")")
      }
    }
    return String(decoding: quoted, as: UTF8.self)
  }
}
