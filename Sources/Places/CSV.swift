import CSV
import Foundation
import JSON

/// CSV (RFC 4180) with a header row, as spreadsheets export it: one place a row.
///
/// Reading: the header names the columns, in any order and any case: `latitude` (or `lat`), `longitude`
/// (or `lon`, `lng`, `long`), `description` (else `name`), `category`, `date` (ISO 8601), `id`, the placemark's
/// `subThoroughfare`, `thoroughfare`, `locality`, `administrativeArea`, `postalCode`, `country`, and `photo`.
/// Only latitude and longitude are required; other columns are ignored with one warning. Fields may be
/// quoted (`"Paris, France"`, `"say ""hi"""`, line breaks inside quotes); lines end in LF, CRLF or CR; the
/// text is UTF-8, with or without a byte order mark. Blank rows (`,,,`) are skipped. A row with fewer fields
/// than the header has empty values for the rest. Text fields are kept as written; numbers, dates, ids and
/// categories are read without surrounding spaces. Errors name the line a row starts on.
///
/// Writing: every column, in the order of `CSV.header`, LF line ends, fields quoted only when they hold a
/// comma, a quote or a line break. The user's position is not written (CSV has no place for it).
enum CSV {
  /// What a column means.
  enum Column: Int, CaseIterable {
    case latitude
    case longitude
    case description
    case category
    case date
    case id
    case subThoroughfare
    case thoroughfare
    case locality
    case administrativeArea
    case postalCode
    case country
    case photo
    /// Read only: the description when the `description` column is missing or empty.
    case name

    /// The name `encode` writes (`decode` accepts it in any case).
    var headerName: String { String(describing: self) }
  }

  /// The columns `encode` writes, in order.
  static let header: [Column] = Column.allCases.filter { $0 != .name }

  /// Header names, lowercased, and what they mean.
  private static let columnNames: [String: Column] = {
    var names: [String: Column] = [:]
    for column in Column.allCases { names[column.headerName.lowercased()] = column }
    for alias in ["lat"] { names[alias] = .latitude }
    for alias in ["lon", "lng", "long"] { names[alias] = .longitude }
    return names
  }()

  /// Whether the first record of `bytes` reads as a header naming latitude and longitude columns.
  static func looksLikeHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
    // Only the first line matters; a header is never longer than this.
    var scanner = CSVScanner(bytes: Array(bytes.prefix(16_384)))
    var fields: [String] = []
    guard (try? scanner.nextRecord(into: &fields)) != nil else { return false }
    let columns = Set(fields.compactMap { columnNames[normalizedName($0)] })
    return columns.contains(.latitude) && columns.contains(.longitude)
  }

  // MARK: Reading

  static func decode(_ bytes: [UInt8], file: String) throws(LocationsFileError) -> LocationSet {
    var rows = CSVPlaceRows(file: file, pieces: WholeInput(bytes))
    var collector = RecordCollector()
    while let row = try rows.next() {
      do throws(RecordProblem) {
        try collector.add(row.record, record: "line \(row.line)", warnings: row.warnings)
      } catch {
        throw .invalidLine(file: file, line: row.line, message: error.message)
      }
    }
    var set = collector.finish()
    if let warning = rows.ignoredColumnsWarning() { set.warnings.insert(warning, at: 0) }
    return set
  }

  static func readRow(
    _ fields: [String], layout: Layout, warnings: inout [String]
  ) throws(RecordProblem) -> ReadRecord {
    func value(_ column: Column) -> String {
      guard let index = layout.index[column.rawValue], index < fields.count else { return "" }
      return fields[index]
    }
    func trimmed(_ column: Column) -> String? {
      let text = trimmedSpaces(value(column))
      return text.isEmpty ? nil : text
    }
    func text(_ column: Column) -> String? {
      let text = value(column)
      return text.isEmpty ? nil : text
    }

    let latitude = try degrees(text: value(.latitude), .latitude, field: "latitude")
    let longitude = try degrees(text: value(.longitude), .longitude, field: "longitude")
    let category = categoryName(trimmed(.category) ?? "", warnings: &warnings)
    var date: Date?
    if let text = trimmed(.date) { date = try isoDate(text, field: "date", warnings: &warnings) }
    let address = Placemark(
      subThoroughfare: text(.subThoroughfare), thoroughfare: text(.thoroughfare),
      locality: text(.locality), administrativeArea: text(.administrativeArea),
      postalCode: text(.postalCode), country: text(.country))
    let id = trimmed(.id)
    let location = Location(
      id: id, latitude: latitude, longitude: longitude,
      locationDescription: text(.description) ?? value(.name),
      category: category, date: date,
      placemark: address.isEmpty ? nil : address, photoPath: trimmed(.photo))
    return ReadRecord(location: location, hasOwnID: id != nil)
  }

  /// Nothing but white space in every field (`,,,` from a spreadsheet's empty row).
  static func isBlank(_ fields: [String]) -> Bool {
    fields.allSatisfy { $0.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
  }

  /// A header name as it is looked up: without surrounding spaces, lowercased.
  private static func normalizedName(_ name: String) -> String {
    trimmedSpaces(name).lowercased()
  }

  /// Which field of a row holds which column, from the header.
  struct Layout {
    /// By `Column.rawValue`.
    var index: [Int?] = Array(repeating: nil, count: Column.allCases.count)
    /// Named columns mymap does not know, in header order.
    var unknown: [(name: String, index: Int)] = []
    /// Columns whose header is empty: ignored, and mentioned only if a row has a value there.
    var unnamed: [Int] = []
    /// The number of columns the header names.
    var count: Int

    init(header: [String], line: Int, file: String) throws(LocationsFileError) {
      count = header.count
      for (offset, raw) in header.enumerated() {
        let name = normalizedName(raw)
        if name.isEmpty {
          unnamed.append(offset)
        } else if let column = columnNames[name] {
          if let earlier = index[column.rawValue] {
            throw .invalidLine(
              file: file, line: line,
              message:
                "columns \(earlier + 1) (\(JSONWriter.quotedExcerpt(header[earlier]))) and \(offset + 1) "
                + "(\(JSONWriter.quotedExcerpt(raw))) are both the \(column.headerName)")
          }
          index[column.rawValue] = offset
        } else {
          unknown.append((trimmedSpaces(raw), offset))
        }
      }
      let missing = [Column.latitude, .longitude].filter { index[$0.rawValue] == nil }
      guard !missing.isEmpty else { return }
      var message: String
      if missing.count == 2 {
        let names = header.prefix(4).map { JSONWriter.quotedExcerpt($0) }.joined(separator: ", ")
        message =
          "the first line must be a header naming the columns, latitude and longitude among them; "
          + "found \(names)\(header.count > 4 ? ", …" : "")"
      } else if missing == [.latitude] {
        message = "the header has no latitude column (name it \"latitude\" or \"lat\")"
      } else {
        message = "the header has no longitude column (name it \"longitude\", \"lon\" or \"lng\")"
      }
      if header.count == 1, let separator = [";", "\t"].first(where: { header[0].contains($0) }) {
        let shown = separator == "\t" ? "tabs" : "'\(separator)'"
        message += " (the columns seem to be separated by \(shown); mymap reads comma-separated files)"
      }
      throw .invalidLine(file: file, line: line, message: message)
    }
  }

  /// Refuses text that is not UTF-8, naming the line where it first goes wrong (spreadsheets often save
  /// CSV in a legacy encoding unless asked for UTF-8). Checks `bytes[start...]` (`start` is where a
  /// character begins); `bytes` begin on `firstLine`.
  static func checkUTF8(_ bytes: ArraySlice<UInt8>, from start: Int, firstLine: Int, file: String)
    throws(LocationsFileError)
  {
    // Most rows are ASCII: one OR over them (no early exit, so it vectorises) and no String made.
    if bytes[start...].reduce(0, |) < 0x80 || String(validating: bytes[start...], as: UTF8.self) != nil {
      return
    }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes[start...].makeIterator()
    var offset = start
    scan: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): offset += encoded.count
      case .emptyInput: return
      case .error: break scan
      }
    }
    let line = firstLine + bytes[..<offset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    throw .invalidLine(
      file: file, line: line, message: "the text is not UTF-8 (save the file as \"CSV UTF-8\")")
  }

  // MARK: Writing

  /// The first line of a CSV file mymap writes: the header naming its columns.
  static var headerLine: String { header.map(\.headerName).joined(separator: ",") + "\n" }

  /// Appends a place as one row under `headerLine`.
  static func writeRow(_ location: Location, into output: inout [UInt8]) {
    let placemark = location.placemark
    let fields: [String] = [
      JSONWriter.numberText(location.latitude), JSONWriter.numberText(location.longitude),
      location.locationDescription, location.category, location.date.map(ISO8601Date.format) ?? "",
      location.id, placemark?.subThoroughfare ?? "", placemark?.thoroughfare ?? "",
      placemark?.locality ?? "", placemark?.administrativeArea ?? "", placemark?.postalCode ?? "",
      placemark?.country ?? "", location.photoPath ?? "",
    ]
    for (offset, field) in fields.enumerated() {
      if offset > 0 { output.append(UInt8(ascii: ",")) }
      output.append(contentsOf: csvQuotedIfNeeded(field).utf8)
    }
    output.append(UInt8(ascii: "\n"))
  }
}

extension CSVScanner {
  /// `nextRecord`, with syntax errors as file errors.
  mutating func next(into fields: inout [String], file: String) throws(LocationsFileError) -> Int? {
    do throws(CSVSyntaxError) {
      return try nextRecord(into: &fields)
    } catch {
      throw .invalidLine(file: file, line: error.line, message: error.message)
    }
  }
}
