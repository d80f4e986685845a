import CSV
import FileSystem
import JSON

/// Where a reader's bytes come from, a piece at a time.
protocol BytePieces {
  /// The next piece, or nil at the end.
  mutating func next() throws(LocationsFileError) -> [UInt8]?
}

/// Bytes already in memory: one piece.
struct WholeInput: BytePieces {
  private var bytes: [UInt8]?

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func next() -> [UInt8]? { bytes.take() }
}

/// A file or stream read a mebibyte at a time.
struct FilePieces: BytePieces {
  /// The size of a piece: large enough that a row rarely spans two, small beside the file.
  static let pieceBytes = 1 << 20
  let input: InputPieces
  let file: String
  /// A piece already read (to tell the format), given out first.
  var pending: [UInt8]?

  mutating func next() throws(LocationsFileError) -> [UInt8]? {
    if let pending = pending.take() { return pending }
    do throws(InputFileError) {
      return try input.next(maximum: Self.pieceBytes)
    } catch {
      throw LocationsFile.failure(error, file: file)
    }
  }
}

/// One row of a CSV places file: the place, the line it starts on, and the warnings its fields gave.
struct CSVPlaceRow {
  var line: Int
  var record: ReadRecord
  var warnings: [String]
}

/// The rows of a CSV places file (see `CSV`), read from pieces of its bytes as they come, so a reader
/// that handles each row and lets it go (a streamed import) holds one piece of the file, never all of it.
/// A row may span pieces; the text is checked to be UTF-8 a record at a time.
struct CSVPlaceRows {
  private let file: String
  private var pieces: any BytePieces
  private var piece: [UInt8] = []
  private var scanner = CSVScanner(piece: [], firstLine: 1, isLast: false)
  private var isLast = false
  private var fields: [String] = []
  private var layout: CSV.Layout?
  private var headerLine = 0
  private var unnamedWithValues = Set<Int>()

  init(file: String, pieces: any BytePieces) {
    self.file = file
    self.pieces = pieces
  }

  /// The next row that is not blank, after the header; nil at the end of the file.
  mutating func next() throws(LocationsFileError) -> CSVPlaceRow? {
    while true {
      let start = scanner.consumed
      guard let line = try scanner.next(into: &fields, file: file) else {
        if try refill() { continue }
        return nil
      }
      // Checked record by record, so the first problem in the file is the one reported, however the
      // file was cut into pieces (the bytes that end a record are ASCII, never part of a character).
      try CSV.checkUTF8(piece[start..<scanner.consumed], from: start, firstLine: line, file: file)
      if CSV.isBlank(fields) { continue }
      guard let layout else {
        // The header: the first record that is not blank.
        layout = try CSV.Layout(header: fields, line: line, file: file)
        headerLine = line
        continue
      }
      for index in layout.unnamed where index < fields.count && !fields[index].isEmpty {
        unnamedWithValues.insert(index)
      }
      var warnings: [String] = []
      do throws(RecordProblem) {
        if fields.count > layout.count, fields[layout.count...].contains(where: { !$0.isEmpty }) {
          throw RecordProblem(
            "\(fields.count) fields, but the header on line \(headerLine) names \(layout.count) columns")
        }
        let record = try CSV.readRow(fields, layout: layout, warnings: &warnings)
        return CSVPlaceRow(line: line, record: record, warnings: warnings)
      } catch {
        throw .invalidLine(file: file, line: line, message: error.message)
      }
    }
  }

  /// The warning about columns mymap does not read (named in the header, or unnamed but holding values in
  /// some row), once every row has been read; nil when there are none.
  func ignoredColumnsWarning() -> String? {
    guard let layout else { return nil }
    let ignored =
      layout.unknown.map { JSONWriter.quotedExcerpt($0.name) }
      + unnamedWithValues.sorted().map { "column \($0 + 1) (no name)" }
    guard !ignored.isEmpty else { return nil }
    // A header with a million columns must not become an 11 MB warning: name a few, count the rest.
    let named = ignored.prefix(8).joined(separator: ", ")
    let more = ignored.count > 8 ? " and \(ignored.count - 8) more" : ""
    return "line \(headerLine): ignored columns that mymap does not read: \(named)\(more)"
  }

  /// Puts what the scanner left (a row that goes on) before the next piece; false at the end.
  private mutating func refill() throws(LocationsFileError) -> Bool {
    guard !isLast else { return false }
    let line = scanner.currentLine
    let consumed = scanner.consumed
    var next = Array(piece[consumed...])
    // A row longer than the piece is scanned again from its start: the bytes at least double each time,
    // so a row of any length costs linear time, not quadratic.
    let wanted = consumed == 0 ? piece.count * 2 : 0
    repeat {
      guard let more = try pieces.next() else {
        isLast = true
        break
      }
      if next.isEmpty { next = more } else { next += more }
    } while next.count < wanted
    piece = next
    scanner = CSVScanner(piece: piece, firstLine: line, isLast: isLast)
    return true
  }
}
