/// An XML 1.0 document in UTF-8, read as a stream of events with namespaces resolved: what a GPX file
/// needs, in pure Swift, checked as it goes, in memory bounded however large the document: nesting at
/// most `maximumDepth` deep, a name, text run or attribute value at most `maximumValueBytes` long.
///
/// Read: the XML declaration, comments, processing instructions and a DOCTYPE (skipped: its entities are
/// not defined, so a reference to one is an undefined entity, and nothing is ever fetched or expanded),
/// elements and attributes with their namespaces (`xmlns`, `xmlns:prefix`), text with XML's five entities
/// and numeric character references, CDATA sections. Line ends in text become `\n`; tabs and line ends
/// in attribute values become spaces, as XML says. The first thing that is not well-formed throws an
/// `XMLError` with its line.
public struct XMLReader {
  /// An element's name, resolved: its namespace (empty for none), local name and name as written.
  public struct Name: Equatable, Sendable {
    public var namespace: String
    public var localName: String
    public var qualifiedName: String
  }

  /// A start tag's attributes in the order written, by their names as written; namespace declarations
  /// are not among them. Looked up by name (a tag has a few).
  public struct Attributes: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    public private(set) var names: [String] = []
    public private(set) var values: [String] = []

    public init(dictionaryLiteral elements: (String, String)...) {
      for (name, value) in elements { append(name, value) }
    }

    mutating func append(_ name: String, _ value: String) {
      names.append(name)
      values.append(value)
    }

    public subscript(name: String) -> String? {
      names.firstIndex(of: name).map { values[$0] }
    }
  }

  public enum Event: Equatable, Sendable {
    /// A start tag (or an empty-element tag, followed at once by its `end`).
    case start(Name, attributes: Attributes)
    case end(Name)
    /// Character data, entities replaced: a run of text or a CDATA section (one element's text may come
    /// in several pieces).
    case text(String)
  }

  /// Elements nest at most this deep, so a hostile file cannot grow the reader's stacks without bound.
  public static let maximumDepth = 256
  /// A name, a run of text (or CDATA) or an attribute value is at most this long: the reader holds one
  /// whole, and a document read in place may be of any size.
  public static let maximumValueBytes = 16 << 20
  /// This reader's limit (tests lower it).
  var valueLimit = XMLReader.maximumValueBytes

  private let bytes: UnsafeBufferPointer<UInt8>
  /// The copy `bytes` point into when the reader was given an array; nil when the caller keeps them.
  private let copy: ByteCopy?
  /// Where the document starts in `bytes`.
  private let origin: Int
  private var index: Int
  /// The line of `index`, from 1 at `origin` (a line feed, a carriage return and the two together each end
  /// a line).
  public private(set) var line = 1
  /// Open elements, outermost first, each with the prefixes it declared.
  private var open: [(name: Name, declared: [String])] = []
  /// For each prefix declared (empty for the default namespace), its URIs in scope, innermost last: a
  /// look-up costs the same however many declarations a hostile file makes.
  private var namespaces: [String: [String]] = ["xml": ["http://www.w3.org/XML/1998/namespace"]]
  private var sawRoot = false
  /// The end of an empty-element tag, given out by the next call.
  private var pendingEnd: Name?

  /// A reader of the document that starts at `start` in `bytes` (UTF-8, any byte order mark before it),
  /// reading a copy of them.
  public init(_ bytes: [UInt8], from start: Int = 0) {
    let copy = ByteCopy(bytes)
    self.init(copy.bytes, copy: copy, from: start)
  }

  /// A reader of the bytes in place (a mapped file, which need not fit in memory): they must stay valid
  /// and unchanged while the reader is used.
  public init(unsafeBytes bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) {
    self.init(bytes, copy: nil, from: start)
  }

  private init(_ bytes: UnsafeBufferPointer<UInt8>, copy: ByteCopy?, from start: Int) {
    self.bytes = bytes
    self.copy = copy
    origin = min(max(start, 0), bytes.count)
    index = origin
  }

  /// How far the reader has read, in bytes from the start of the bytes it was given: nothing before it
  /// is needed again (the byte just before may be read again, to count a line end).
  public var offset: Int { index }

  /// The next event, or nil at the end of a well-formed document.
  public mutating func next() throws(XMLError) -> Event? {
    if let name = pendingEnd {
      pendingEnd = nil
      close()
      return .end(name)
    }
    while true {
      if open.isEmpty {
        skipSpaces()
        guard index < bytes.count else { return nil }
        guard bytes[index] == UInt8(ascii: "<") else {
          throw fail(sawRoot ? .endsEarlyOrHasMore : .noRootElement)
        }
      } else if index >= bytes.count {
        throw fail(.endsEarlyOrHasMore)
      } else if bytes[index] != UInt8(ascii: "<") {
        return .text(try readText())
      }
      if let event = try readMarkup() { return event }
    }
  }

  // MARK: Markup

  /// The markup at `index` (a `<`): an event for tags and CDATA, nil for what is skipped.
  private mutating func readMarkup() throws(XMLError) -> Event? {
    switch index + 1 < bytes.count ? bytes[index + 1] : 0 {
    case UInt8(ascii: "/"):
      guard !open.isEmpty else { throw fail(sawRoot ? .endsEarlyOrHasMore : .mismatchedClosingTag) }
      return try readEndTag()
    case UInt8(ascii: "?"):
      try skipProcessingInstruction()
    case UInt8(ascii: "!"):
      if starts(with: "<!--") {
        try skipComment()
      } else if starts(with: "<![CDATA[") {
        guard !open.isEmpty else { throw fail(sawRoot ? .endsEarlyOrHasMore : .noRootElement) }
        return .text(try readCDATA())
      } else if starts(with: "<!DOCTYPE") && !sawRoot {
        try skipDoctype()
      } else {
        throw fail(.unknownMarkup)
      }
    default:
      guard open.isEmpty ? !sawRoot : true else { throw fail(.endsEarlyOrHasMore) }
      return try readStartTag()
    }
    return nil
  }

  private mutating func readStartTag() throws(XMLError) -> Event {
    index += 1
    let qualifiedName = try readName()
    var written: [(name: String, value: String)] = []
    var seen = Set<String>()
    var isEmpty = false
    while true {
      let spaced = skipSpaces()
      guard index < bytes.count else { throw fail(.endsEarlyOrHasMore) }
      if bytes[index] == UInt8(ascii: ">") {
        index += 1
        break
      }
      if starts(with: "/>") {
        index += 2
        isEmpty = true
        break
      }
      guard spaced, isNameStart(bytes[index]) else { throw fail(.unclosedTag) }
      let name = try readName()
      skipSpaces()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw fail(.attributeWithoutValue) }
      index += 1
      skipSpaces()
      let value = try readAttributeValue()
      // A set once a tag has many: a hostile tag of 100,000 attributes must not take 10^10 comparisons.
      if written.count < 8 ? written.contains(where: { $0.name == name }) : !seen.insert(name).inserted {
        throw fail(.duplicateAttribute)
      }
      if written.count == 7 { seen = Set(written.map(\.name) + [name]) }
      written.append((name, value))
    }
    guard open.count < Self.maximumDepth else { throw fail(.tooDeep) }

    var declared: [String] = []
    var attributes = Attributes()
    for (name, value) in written where name == "xmlns" || name.hasPrefix("xmlns:") {
      let prefix = name == "xmlns" ? "" : String(name.dropFirst(6))
      namespaces[prefix, default: []].append(value)
      declared.append(prefix)
    }
    for (name, value) in written where name != "xmlns" && !name.hasPrefix("xmlns:") {
      if let colon = name.firstIndex(of: ":"), namespace(of: String(name[..<colon])) == nil {
        throw fail(.undeclaredPrefix)
      }
      attributes.append(name, value)
    }
    let element = try resolve(qualifiedName)
    open.append((element, declared))
    sawRoot = true
    if isEmpty { pendingEnd = element }
    return .start(element, attributes: attributes)
  }

  private mutating func readEndTag() throws(XMLError) -> Event {
    index += 2
    let name = try readName()
    skipSpaces()
    guard index < bytes.count else { throw fail(.endsEarlyOrHasMore) }
    guard bytes[index] == UInt8(ascii: ">") else { throw fail(.unclosedTag) }
    guard name == open[open.count - 1].name.qualifiedName else { throw fail(.mismatchedClosingTag) }
    index += 1
    let element = open[open.count - 1].name
    close()
    return .end(element)
  }

  /// Leaves the innermost element, and its namespace declarations.
  private mutating func close() {
    for prefix in open.removeLast().declared {
      namespaces[prefix]?.removeLast()
    }
  }

  /// The namespace and local name of a qualified name, from the declarations in scope.
  private func resolve(_ qualifiedName: String) throws(XMLError) -> Name {
    guard let colon = qualifiedName.firstIndex(of: ":") else {
      return Name(namespace: namespace(of: "") ?? "", localName: qualifiedName, qualifiedName: qualifiedName)
    }
    guard let uri = namespace(of: String(qualifiedName[..<colon])) else { throw fail(.undeclaredPrefix) }
    return Name(
      namespace: uri, localName: String(qualifiedName[qualifiedName.index(after: colon)...]),
      qualifiedName: qualifiedName)
  }

  private func namespace(of prefix: String) -> String? {
    namespaces[prefix]?.last
  }

  /// `<?target data?>`; the XML declaration only at the very start.
  private mutating func skipProcessingInstruction() throws(XMLError) {
    let opening = index
    index += 2
    let target = try readName()
    if target.lowercased() == "xml" && opening != origin { throw fail(.misplacedDeclaration) }
    try skip(past: "?>")
  }

  private mutating func skipComment() throws(XMLError) {
    index += 4
    while index < bytes.count {
      if starts(with: "--") {
        guard starts(with: "-->") else { throw fail(.doubleHyphenInComment) }
        index += 3
        return
      }
      advance()
    }
    throw fail(.endsEarlyOrHasMore)
  }

  /// `<!DOCTYPE …>`, its internal subset in brackets, quoted strings and comments included.
  private mutating func skipDoctype() throws(XMLError) {
    index += 9
    var brackets = 0
    while index < bytes.count {
      let byte = bytes[index]
      if starts(with: "<!--") {
        try skip(past: "-->")
        continue
      }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        advance()
        while index < bytes.count && bytes[index] != byte { advance() }
        guard index < bytes.count else { break }
      } else if byte == UInt8(ascii: "[") {
        brackets += 1
      } else if byte == UInt8(ascii: "]") {
        brackets -= 1
      } else if byte == UInt8(ascii: ">") && brackets <= 0 {
        index += 1
        return
      }
      advance()
    }
    throw fail(.endsEarlyOrHasMore)
  }

  /// Moves `index` past the next `terminator`, counting lines; the end of the file is an error.
  private mutating func skip(past terminator: StaticString) throws(XMLError) {
    while index < bytes.count {
      if starts(with: terminator) {
        index += terminator.utf8CodeUnitCount
        return
      }
      advance()
    }
    throw fail(.endsEarlyOrHasMore)
  }

  // MARK: Text

  /// Character data up to the next `<` or the end.
  private mutating func readText() throws(XMLError) -> String {
    var text: [UInt8] = []
    while index < bytes.count {
      let run = plainRun(stoppingAt: UInt8(ascii: "<"), inText: true, maximum: valueLimit - text.count + 1)
      guard text.count + run.count <= valueLimit else { throw fail(.valueTooLong) }
      text.append(contentsOf: bytes[run])
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") { break }
      if byte == UInt8(ascii: "&") {
        try appendReference(to: &text)
      } else if byte == UInt8(ascii: "]") {
        if starts(with: "]]>") { throw fail(.cdataEndInText) }
        index += 1
        text.append(byte)
      } else {
        try appendCharacter(byte, to: &text, spaces: false)
      }
    }
    return try string(text[...])
  }

  /// Moves past bytes that stand for themselves (not `stop`, `<`, `&`, `]` or a control character; a line
  /// feed only in text), counting line feeds, and at most `maximum` of them (a run past the value limit
  /// is not scanned to its end); returns their range.
  private mutating func plainRun(stoppingAt stop: UInt8, inText: Bool, maximum: Int) -> Range<Int> {
    let start = index
    let end = min(bytes.count, start + max(maximum, 0))
    while index < end {
      let byte = bytes[index]
      if byte >= 0x20 {
        if byte == stop || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "]")
        {
          break
        }
      } else if byte == 0x0A && inText {
        line += 1
      } else {
        break
      }
      index += 1
    }
    return start..<index
  }

  private mutating func readCDATA() throws(XMLError) -> String {
    index += 9
    var text: [UInt8] = []
    while index < bytes.count {
      if starts(with: "]]>") {
        index += 3
        return try string(text[...])
      }
      guard text.count < valueLimit else { throw fail(.valueTooLong) }
      try appendCharacter(bytes[index], to: &text, spaces: false)
    }
    throw fail(.endsEarlyOrHasMore)
  }

  private mutating func readAttributeValue() throws(XMLError) -> String {
    guard index < bytes.count else { throw fail(.endsEarlyOrHasMore) }
    let quote = bytes[index]
    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
      throw fail(.unquotedAttributeValue)
    }
    index += 1
    var value: [UInt8] = []
    while index < bytes.count {
      let run = plainRun(stoppingAt: quote, inText: false, maximum: valueLimit - value.count + 1)
      guard value.count + run.count <= valueLimit else { throw fail(.valueTooLong) }
      if index < bytes.count && bytes[index] == quote && value.isEmpty {
        index += 1
        return try string(bytes[run])
      }
      value.append(contentsOf: bytes[run])
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == quote {
        index += 1
        return try string(value[...])
      }
      if byte == UInt8(ascii: "<") { throw fail(.lessThanInAttributeValue) }
      if byte == UInt8(ascii: "&") {
        try appendReference(to: &value)
      } else if byte == UInt8(ascii: "]") {
        index += 1
        value.append(byte)
      } else {
        try appendCharacter(byte, to: &value, spaces: true)
      }
    }
    throw fail(.unclosedAttributeValue)
  }

  /// Appends the byte at `index` and moves past it: a line end (CR LF, or CR alone) as one `\n` (a space
  /// in an attribute value, as is a tab); a control character is an error.
  private mutating func appendCharacter(_ byte: UInt8, to text: inout [UInt8], spaces: Bool) throws(XMLError)
  {
    switch byte {
    case 0x0D:
      advance()
      if index < bytes.count && bytes[index] == 0x0A { index += 1 }
      text.append(spaces ? 0x20 : 0x0A)
    case 0x0A:
      advance()
      text.append(spaces ? 0x20 : 0x0A)
    case 0x09:
      index += 1
      text.append(spaces ? 0x20 : 0x09)
    case ..<0x20:
      throw fail(.invalidCharacter)
    default:
      index += 1
      text.append(byte)
    }
  }

  /// `&name;` or `&#…;` at `index`, as UTF-8.
  private mutating func appendReference(to text: inout [UInt8]) throws(XMLError) {
    index += 1
    guard index < bytes.count else { throw fail(.endsEarlyOrHasMore) }
    if bytes[index] == UInt8(ascii: "#") {
      index += 1
      let hexadecimal = index < bytes.count && bytes[index] == UInt8(ascii: "x")
      if hexadecimal { index += 1 }
      var value: UInt32 = 0
      var digits = 0
      while index < bytes.count, let digit = Self.digit(bytes[index], hexadecimal: hexadecimal) {
        value = min(value * (hexadecimal ? 16 : 10) + digit, 0x11_0000)
        digits += 1
        index += 1
      }
      guard digits > 0 else { throw fail(.nameExpected) }
      guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
        throw fail(.entityWithoutSemicolon)
      }
      index += 1
      guard Self.isCharacter(value), let scalar = Unicode.Scalar(value) else {
        throw fail(.invalidCharacter)
      }
      text.append(contentsOf: String(scalar).utf8)
      return
    }
    guard isNameStart(bytes[index]) else { throw fail(.nameExpected) }
    let name = try readName()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { throw fail(.entityWithoutSemicolon) }
    index += 1
    switch name {
    case "lt": text.append(UInt8(ascii: "<"))
    case "gt": text.append(UInt8(ascii: ">"))
    case "amp": text.append(UInt8(ascii: "&"))
    case "quot": text.append(UInt8(ascii: "\""))
    case "apos": text.append(UInt8(ascii: "'"))
    default: throw fail(.undefinedEntity)
    }
  }

  private static func digit(_ byte: UInt8, hexadecimal: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// XML 1.0's `Char`: what a character reference may name.
  private static func isCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF: true
    default: false
    }
  }

  // MARK: Names and bytes

  /// A name at `index`: a letter, `_`, `:` or any non-ASCII byte, then those, digits, `-` and `.`.
  private mutating func readName() throws(XMLError) -> String {
    guard index < bytes.count else { throw fail(.endsEarlyOrHasMore) }
    guard isNameStart(bytes[index]) else { throw fail(.nameExpected) }
    let start = index
    // Scanned no further than one byte past the limit, as plainRun scans text.
    let end = min(bytes.count, start + valueLimit + 1)
    while index < end && isNameByte(bytes[index]) { index += 1 }
    guard index - start <= valueLimit else { throw fail(.valueTooLong) }
    return try string(bytes[start..<index])
  }

  private func isNameStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
      UInt8(ascii: ":"), 0x80...:
      true
    default: false
    }
  }

  private func isNameByte(_ byte: UInt8) -> Bool {
    isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: ".")
  }

  /// Bytes as a string; bytes that are not UTF-8 are an error.
  private func string(_ bytes: some Collection<UInt8>) throws(XMLError) -> String {
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw fail(.invalidCharacter) }
    return text
  }

  /// Skips white space; true when there was some.
  @discardableResult
  private mutating func skipSpaces() -> Bool {
    let start = index
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D, 0x0A: advance()
      default: return index > start
      }
    }
    return index > start
  }

  /// Moves past one byte, counting lines.
  private mutating func advance() {
    if Self.endsLine(bytes[index], after: index == origin ? 0 : bytes[index - 1]) { line += 1 }
    index += 1
  }

  /// Whether `byte` (after `previous`) ends a line: a carriage return, or a line feed not after one.
  private static func endsLine(_ byte: UInt8, after previous: UInt8) -> Bool {
    byte == 0x0D || (byte == 0x0A && previous != 0x0D)
  }

  /// The lines `bytes` end, counted as the reader counts them (for text before or beside a document).
  public static func lineEnds(in bytes: some Sequence<UInt8>) -> Int {
    var count = 0
    var previous: UInt8 = 0
    for byte in bytes {
      if endsLine(byte, after: previous) { count += 1 }
      previous = byte
    }
    return count
  }

  private func starts(with prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return prefix.withUTF8Buffer { expected in
      (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
    }
  }

  private func fail(_ problem: XMLError.Problem) -> XMLError { XMLError(problem, line: line) }
}

/// An array's bytes copied where they cannot move, for a reader given an array.
private final class ByteCopy {
  let bytes: UnsafeBufferPointer<UInt8>

  init(_ array: [UInt8]) {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: array.count)
    _ = copy.initialize(from: array)
    bytes = UnsafeBufferPointer(copy)
  }

  deinit { bytes.deallocate() }
}
