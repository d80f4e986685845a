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

  /// Whether more input follows `bytes` (see `init(piece:firstLine:isLast:)`).
  private let isLast: Bool

  public init(bytes: [UInt8]) {
    self.init(piece: bytes, firstLine: 1, isLast: true)
  }

  /// A scanner over one piece of a longer input, for reading a file a piece at a time: `firstLine` is the
  /// line the piece starts on, and a byte order mark is skipped only on line 1. Unless `isLast`,
  /// `nextRecord` returns nil for a record that may go on past the piece, and `consumed` says where the
  /// next piece must start.
  public init(piece: [UInt8], firstLine: Int, isLast: Bool) {
    self.bytes = piece
    self.line = firstLine
    self.isLast = isLast
    if firstLine == 1 && piece.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// How many bytes of the input the records read so far took (and the line after them: `line`).
  public var consumed: Int { index }
  /// The line the next record starts on.
  public var currentLine: Int { line }

  /// Reads the next record into `fields`; returns the line it starts on, or nil at the end of the input
  /// (or of a piece that is not the last, before a record that may go on past it).
  public mutating func nextRecord(into fields: inout [String]) throws(CSVSyntaxError) -> Int? {
    guard index < bytes.count else { return nil }
    fields.removeAll(keepingCapacity: true)
    let start = line
    let startIndex = index
    while true {
      guard let field = try nextField() else { return stopShort(at: startIndex, line: start) }
      fields.append(field)
      guard index < bytes.count else { return isLast ? start : stopShort(at: startIndex, line: start) }
      let separator = bytes[index]
      index += 1
      switch separator {
      case UInt8(ascii: ","):
        continue
      case UInt8(ascii: "\r"):
        // A CR at the end of a piece may be the first half of a CR LF.
        if index == bytes.count && !isLast { return stopShort(at: startIndex, line: start) }
        if index < bytes.count && bytes[index] == UInt8(ascii: "\n") { index += 1 }
        line += 1
        return start
      default:  // "\n"
        line += 1
        return start
      }
    }
  }

  /// Goes back to where a record that a later piece completes started.
  private mutating func stopShort(at startIndex: Int, line startLine: Int) -> Int? {
    index = startIndex
    line = startLine
    return nil
  }

  /// Reads one field, leaving `index` at the comma or line end after it (or at the end of the input); nil
  /// when a quoted field reaches the end of a piece that is not the last.
  private mutating func nextField() throws(CSVSyntaxError) -> String? {
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
        if !isLast { return nil }
        throw CSVSyntaxError(
          line: openingLine,
          message: "a quoted field starts on this line but its closing quote is missing")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        quoted.append(contentsOf: bytes[runStart..<index])
        index += 1
        // A quote at the end of a piece may be the first of a doubled pair.
        if index == bytes.count && !isLast { return nil }
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
