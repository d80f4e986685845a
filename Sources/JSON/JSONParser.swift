/// A JSON syntax error with the position a user can go to: line and column count from 1, columns in
/// Unicode characters (a tab is one column).
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  /// The byte offset of the problem in the input.
  public var offset: Int
  public var message: String

  public var description: String { "\(line):\(column): \(message)" }
}

/// A strict RFC 8259 JSON parser that says where a document goes wrong.
///
/// Written here because Foundation's `JSONSerialization` on Linux gives no reliable error positions.
/// Beyond the RFC it rejects duplicate member names (a repeated `"latitude"` is almost always a mistake)
/// and numbers too large for a `Double`. A leading UTF-8 byte order mark is skipped.
public enum JSONParser {
  /// Arrays and objects nested deeper than this are rejected, so hostile input cannot exhaust the stack.
  public static let defaultMaximumDepth = 256

  public static func parse(
    _ bytes: some Sequence<UInt8>, maximumDepth: Int = defaultMaximumDepth
  ) throws(JSONSyntaxError) -> JSONValue {
    let array = Array(bytes)
    return try array.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      var parser = ByteParser(bytes: buffer, maximumDepth: maximumDepth)
      return try parser.run()!  // Stops only when a streamed element says so; there are none.
    }
  }

  /// Parses a document whose top-level object may hold arrays too large to keep in memory: the elements of
  /// each top-level member whose value is an array are handed to `element` one at a time (with the
  /// member's name and the element's bytes: from its first byte to the offset just after it), instead of
  /// kept; in the returned document such
  /// a member's value is an empty array. Errors are the ones `parse` reports. A value kept whole (a member
  /// that is not an array, one element, or the top-level value when it is not an object) may span at most
  /// `maximumHeldBytes`: a larger one is an error at its start, found before it is held. `element`
  /// returns false to stop: the result is then nil.
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, maximumHeldBytes: Int, maximumDepth: Int = defaultMaximumDepth,
    streamingArrays element: (_ member: String, _ value: JSONValue, _ bytes: Range<Int>) -> Bool
  ) throws(JSONSyntaxError) -> JSONValue? {
    try withoutActuallyEscaping(element) { element throws(JSONSyntaxError) in
      var parser = ByteParser(bytes: bytes, maximumDepth: maximumDepth)
      parser.streamedElement = element
      parser.maximumHeldBytes = maximumHeldBytes
      return try parser.run()
    }
  }

  public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth)
    throws(JSONSyntaxError) -> JSONValue
  {
    try parse(text.utf8, maximumDepth: maximumDepth)
  }

  /// Line and column of a byte offset. Computed only when an error is reported, so parsing itself does
  /// not pay for position tracking.
  static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new character
        column += 1
      }
    }
    if line == 1 && bytes.starts(with: byteOrderMark) && offset >= 3 { column -= 1 }
    return (line, column)
  }

  public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}

/// A failure at a byte offset; turned into a line and column by `JSONParser.parse`.
private struct Failure: Error {
  var offset: Int
  var message: String

  /// The offset of the failure that says a streamed element's handler stopped the parse.
  static let stopped = -1
}

private struct ByteParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let maximumDepth: Int
  var index = 0
  var depth = 0
  /// Set: the top-level object's arrays are streamed (`JSONParser.parse(_:maximumHeldBytes:…)`).
  var streamedElement: ((String, JSONValue, Range<Int>) -> Bool)?
  var maximumHeldBytes = Int.max
  /// What the top-level object's names and kept values (and `topLevelMemberCost` each) came to so far.
  private var topLevelKept = 0
  /// Where the value being held started, and the offset it must not pass (`Int.max`: none).
  private var heldStart = 0
  private var heldLimit = Int.max
  /// Whether the limit being checked is the top-level object's, shared by its members (for the message).
  private var heldIsTopLevel = false
  /// What one member of the top-level object costs beyond its name and value, counted against the limit so
  /// that a million small members cannot pass it unseen.
  static let topLevelMemberCost = 256

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  /// The document, or its error with a line and column; nil when `streamedElement` said stop.
  mutating func run() throws(JSONSyntaxError) -> JSONValue? {
    do {
      return try parseDocument()
    } catch  where error.offset == Failure.stopped {
      return nil
    } catch {
      let (line, column) = JSONParser.position(of: error.offset, in: bytes)
      throw JSONSyntaxError(line: line, column: column, offset: error.offset, message: error.message)
    }
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func parseDocument() throws(Failure) -> JSONValue {
    if bytes.starts(with: JSONParser.byteOrderMark) { index = 3 }
    skipWhitespace()
    let value =
      streamedElement == nil || current == UInt8(ascii: "{")
      ? try parseValue() : try parseHeld { (parser) throws(Failure) in try parser.parseValue() }
    skipWhitespace()
    if index < bytes.count {
      throw Failure(offset: index, message: "unexpected \(token(at: index)) after the end of the JSON value")
    }
    return value
  }

  private mutating func parseValue() throws(Failure) -> JSONValue {
    guard let byte = current else {
      throw Failure(offset: index, message: "unexpected end of file; expected a value")
    }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    case UInt8(ascii: "t") where matchWord("true"): return .bool(true)
    case UInt8(ascii: "f") where matchWord("false"): return .bool(false)
    case UInt8(ascii: "n") where matchWord("null"): return .null
    case UInt8(ascii: "'"):
      throw Failure(offset: index, message: "strings must be in double quotes, not single quotes")
    default:
      throw Failure(offset: index, message: "expected a value, found \(token(at: index))")
    }
  }

  private mutating func matchWord(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let matches = word.withUTF8Buffer { $0.elementsEqual(bytes[index..<index + count]) }
    // `trueish` is not `true` followed by garbage: report the whole word instead.
    guard matches, index + count == bytes.count || !isWordByte(bytes[index + count]) else { return false }
    index += count
    return true
  }

  private mutating func enterContainer() throws(Failure) {
    try checkHeldSize()
    depth += 1
    if depth > maximumDepth {
      throw Failure(
        offset: index, message: "arrays and objects are nested deeper than \(maximumDepth) levels")
    }
  }

  /// Up to this many members, a new member's name is compared with each one before it.
  static let membersSearchedInOrder = 16

  private mutating func parseObject() throws(Failure) -> JSONValue {
    if try openContainer(closedBy: "}") { return .object([]) }
    var members: [JSONValue.Member] = []
    var names = Set<String>()
    while true {
      guard current == UInt8(ascii: "\"") else {
        let expected =
          members.isEmpty ? "a member name in double quotes or '}'" : "a member name in double quotes"
        throw unexpected(expected)
      }
      let nameOffset = index
      let isStreamedTop = streamedElement != nil && depth == 1
      let name =
        isStreamedTop
        ? try parseTopLevelPart(budget: maximumHeldBytes - topLevelKept) { (parser) throws(Failure) in
          try parser.parseString()
        } : try parseString()
      if isStreamedTop { topLevelKept += index - nameOffset + Self.topLevelMemberCost }
      // A place's object has a handful of members: comparing with each is cheaper than hashing into a
      // set, which is made only for an object this large.
      let repeated: Bool
      if members.count < Self.membersSearchedInOrder {
        repeated = members.contains { $0.name == name }
      } else {
        if names.isEmpty { names = Set(members.map(\.name)) }
        repeated = !names.insert(name).inserted
      }
      if repeated {
        throw Failure(
          offset: nameOffset, message: "duplicate member \(JSONWriter.quotedExcerpt(name)) in an object")
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else {
        throw unexpected("':' after the member name \(JSONWriter.quotedExcerpt(name))")
      }
      index += 1
      skipWhitespace()
      let value: JSONValue
      if let streamedElement, isStreamedTop {
        if current == UInt8(ascii: "[") {
          try parseStreamedArray { streamedElement(name, $0, $1) }
          value = .array([])
        } else {
          let start = index
          value = try parseTopLevelPart(budget: maximumHeldBytes - topLevelKept) { (parser) throws(Failure) in
            try parser.parseValue()
          }
          topLevelKept += index - start
        }
      } else {
        value = try parseValue()
      }
      members.append(JSONValue.Member(name, value))
      if try closeAfterItem(closedBy: "}", item: "an object member") { return .object(members) }
    }
  }

  private mutating func parseArray() throws(Failure) -> JSONValue {
    if try openContainer(closedBy: "]") { return .array([]) }
    var elements: [JSONValue] = []
    while true {
      elements.append(try parseValue())
      if try closeAfterItem(closedBy: "]", item: "an array element") { return .array(elements) }
    }
  }

  /// An array whose elements are parsed and handed on one at a time, not kept.
  private mutating func parseStreamedArray(_ element: (JSONValue, Range<Int>) -> Bool) throws(Failure) {
    if try openContainer(closedBy: "]") { return }
    while true {
      let start = index
      let value = try parseHeld { (parser) throws(Failure) in try parser.parseValue() }
      guard element(value, start..<index) else { throw Failure(offset: Failure.stopped, message: "") }
      if try closeAfterItem(closedBy: "]", item: "an array element") { return }
    }
  }

  /// `parse`, for a value that must not pass `maximumHeldBytes` from here.
  private mutating func parseHeld<T>(
    _ parse: (inout ByteParser) throws(Failure) -> T
  ) throws(Failure) -> T {
    try parseHeld(budget: maximumHeldBytes, topLevel: false, parse)
  }

  /// `parse`, for a member name or value of the top-level object, which all share one limit: what is
  /// left of it is `budget`.
  private mutating func parseTopLevelPart<T>(
    budget: Int, _ parse: (inout ByteParser) throws(Failure) -> T
  ) throws(Failure) -> T {
    try parseHeld(budget: max(budget, 0), topLevel: true, parse)
  }

  private mutating func parseHeld<T>(
    budget: Int, topLevel: Bool, _ parse: (inout ByteParser) throws(Failure) -> T
  ) throws(Failure) -> T {
    heldStart = index
    heldIsTopLevel = topLevel
    heldLimit = budget > bytes.count - index ? Int.max : index + budget
    defer { heldLimit = Int.max }
    let value = try parse(&self)
    try checkHeldSize()
    return value
  }

  /// Throws once the value being held passes its limit: checked before each container, item, string and
  /// number is kept, so no more than one limit's worth is ever held.
  private func checkHeldSize() throws(Failure) {
    guard index > heldLimit else { return }
    let limit =
      maximumHeldBytes % (1 << 20) == 0 ? "\(maximumHeldBytes >> 20) MiB" : "\(maximumHeldBytes) bytes"
    throw Failure(
      offset: heldStart,
      message: heldIsTopLevel
        ? "the top-level object's members other than arrays pass \(limit) here, more than is read at once"
        : "a value larger than \(limit) starts here, more than is read at once")
  }

  /// Steps over the opening bracket of an object or array; true when `close` follows at once (the
  /// container is empty and already left).
  private mutating func openContainer(closedBy close: Unicode.Scalar) throws(Failure) -> Bool {
    try enterContainer()
    index += 1
    skipWhitespace()
    guard current == UInt8(ascii: close) else { return false }
    index += 1
    depth -= 1
    return true
  }

  /// After an object member or array element: a comma that another item must follow (a trailing comma is
  /// an error at the comma), or `close`, which leaves the container (true).
  private mutating func closeAfterItem(closedBy close: Unicode.Scalar, item: String) throws(Failure) -> Bool {
    try checkHeldSize()
    skipWhitespace()
    switch current {
    case UInt8(ascii: ","):
      let comma = index
      index += 1
      skipWhitespace()
      if current == UInt8(ascii: close) {
        throw Failure(offset: comma, message: "trailing comma before '\(close)'")
      }
      return false
    case UInt8(ascii: close):
      index += 1
      depth -= 1
      return true
    default:
      throw unexpected("',' or '\(close)' after \(item)")
    }
  }

  /// Parses a string at the opening quote. Problems with the string as a whole point at that quote, where
  /// a missing closing quote is easiest to see.
  private mutating func parseString() throws(Failure) -> String {
    let start = index
    index += 1
    var utf8: [UInt8] = []
    var runStart = index
    while true {
      guard index < bytes.count else {
        throw Failure(offset: start, message: "string is not closed before the end of the file")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        try checkHeldSize()
        utf8.append(contentsOf: bytes[runStart..<index])
        index += 1
        break
      } else if byte == UInt8(ascii: "\\") {
        try checkHeldSize()
        utf8.append(contentsOf: bytes[runStart..<index])
        try parseEscape(into: &utf8)
        runStart = index
      } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
        throw Failure(offset: start, message: "string is not closed before the end of the line")
      } else if byte < 0x20 {
        throw Failure(
          offset: index, message: "control character \(unicodeName(UInt32(byte))) in a string must be escaped"
        )
      } else {
        index += 1
      }
    }
    // ASCII is valid UTF-8: most strings skip the validating initializer, which is generic and slow.
    if utf8.reduce(0, |) < 0x80 { return String(decoding: utf8, as: UTF8.self) }
    guard let text = String(validating: utf8, as: UTF8.self) else {
      throw Failure(offset: start, message: "string is not valid UTF-8")
    }
    return text
  }

  private mutating func parseEscape(into utf8: inout [UInt8]) throws(Failure) {
    let start = index
    index += 1
    guard let byte = current else {
      throw Failure(offset: start, message: "string is not closed before the end of the file")
    }
    index += 1
    let simple: UInt8? =
      switch byte {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case UInt8(ascii: "/"): UInt8(ascii: "/")
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0C
      case UInt8(ascii: "n"): 0x0A
      case UInt8(ascii: "r"): 0x0D
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      utf8.append(simple)
      return
    }
    guard byte == UInt8(ascii: "u") else {
      throw Failure(
        offset: start, message: "invalid escape \\\(token(at: start + 1, quoted: false)) in a string")
    }
    var scalar = try parseHex4(escapeStart: start)
    if (0xDC00...0xDFFF).contains(scalar) {
      throw Failure(offset: start, message: "unpaired UTF-16 surrogate \\u\(hex4(scalar)) in a string")
    }
    if (0xD800...0xDBFF).contains(scalar) {
      let low =
        index + 1 < bytes.count && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u")
      guard low else {
        throw Failure(offset: start, message: "unpaired UTF-16 surrogate \\u\(hex4(scalar)) in a string")
      }
      let lowStart = index
      index += 2
      let second = try parseHex4(escapeStart: lowStart)
      guard (0xDC00...0xDFFF).contains(second) else {
        throw Failure(offset: start, message: "unpaired UTF-16 surrogate \\u\(hex4(scalar)) in a string")
      }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (second - 0xDC00)
    }
    utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
  }

  private mutating func parseHex4(escapeStart: Int) throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = hexDigit(byte) else {
        throw Failure(offset: escapeStart, message: "\\u must be followed by 4 hexadecimal digits")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private mutating func parseNumber() throws(Failure) -> Double {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, isDigit(first) else {
      throw unexpected("a digit after '-'")
    }
    index += 1
    if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
      throw Failure(offset: start, message: "numbers must not start with 0 (leading zeros are not allowed)")
    }
    skipDigits()
    if current == UInt8(ascii: ".") {
      index += 1
      guard let next = current, isDigit(next) else { throw unexpected("a digit after '.'") }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let next = current, isDigit(next) else { throw unexpected("a digit in the exponent") }
      skipDigits()
    }
    try checkHeldSize()
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      let shown = text.utf8.count > JSONWriter.excerptLength ? "of \(text.utf8.count) characters" : text
      throw Failure(offset: start, message: "number \(shown) is too large")
    }
    return value
  }

  private mutating func skipDigits() {
    while let byte = current, isDigit(byte) { index += 1 }
  }

  private mutating func skipWhitespace() {
    while let byte = current,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
        || byte == UInt8(ascii: "\r")
    {
      index += 1
    }
  }

  /// "expected X" at the current byte, or "unexpected end of file; expected X" after the last one.
  private func unexpected(_ expected: String) -> Failure {
    guard index < bytes.count else {
      return Failure(offset: index, message: "unexpected end of file; expected \(expected)")
    }
    return Failure(offset: index, message: "expected \(expected)")
  }

  /// How a message shows the input at `offset`: a whole word (`'NaN'`), else one character.
  private func token(at offset: Int, quoted: Bool = true) -> String {
    guard offset < bytes.count else { return "end of file" }
    var end = offset
    while end < bytes.count && end - offset < 24 && isWordByte(bytes[end]) { end += 1 }
    if end == offset {
      // One character: a lead byte with at most three continuation bytes, or one stray byte (a run of
      // continuation bytes must not become a message as long as the file).
      end += 1
      if bytes[offset] >= 0xC0 {
        while end < bytes.count && end - offset < 4 && bytes[end] & 0xC0 == 0x80 { end += 1 }
      }
    }
    let text = String(decoding: bytes[offset..<end], as: UTF8.self)
    if let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1, scalar.value < 0x20 {
      return unicodeName(scalar.value)
    }
    return quoted ? "'\(text)'" : text
  }
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

private func isWordByte(_ byte: UInt8) -> Bool {
  isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
    || byte == UInt8(ascii: "-")
}

private func hexDigit(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
  default: return nil
  }
}

private func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

private func unicodeName(_ value: UInt32) -> String { "U+\(hex4(value))" }
