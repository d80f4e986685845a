import FileSystem

/// Why a locations file could not be read or written. Each description is one line that names the file
/// and, where it can, the place in it: `europe.json:3:17: …`, `europe.json: location 4: …` or
/// `places.csv:7: …`.
public enum LocationsFileError: Error, Hashable, Sendable, CustomStringConvertible {
  case fileNotFound(file: String)
  case unreadable(file: String, reason: String)
  /// Larger than `InputLimits.maximumFileBytes` (a stream: it gave more than that).
  case tooLarge(file: String, limit: Int)
  /// Nothing but white space (and perhaps a byte order mark).
  case emptyFile(file: String)
  /// A format mymap knows of but does not read (KML).
  case unsupportedFormat(file: String, format: String)
  /// Not valid JSON; `line` and `column` count from 1.
  case malformedJSON(file: String, line: Int, column: Int, message: String)
  /// Not well-formed XML (a GPX file); `line` counts from 1 and is where the XML parser stopped.
  case malformedXML(file: String, line: Int, message: String)
  /// Content that is none of the formats asked for; `found` says what it is.
  case unrecognizedContent(file: String, expected: String, found: String)
  /// The file's overall shape is wrong (`"locations" must be an array, …`).
  case invalidDocument(file: String, message: String)
  /// One record of a JSON file is wrong; `record` is `location 4`, `feature 2` (counting from 1) or `user`.
  case invalidRecord(file: String, record: String, message: String)
  /// Something at a line of a line-oriented file is wrong: a CSV row or header, a GPX waypoint. `line`
  /// counts from 1; for a CSV record that spans lines it is the line the record starts on.
  case invalidLine(file: String, line: Int, message: String)
  case unwritable(file: String, reason: String)

  public var description: String {
    switch self {
    case .fileNotFound(let file):
      return "\(file): no such file"
    case .unreadable(let file, let reason):
      return "\(file): cannot read the file: \(reason)"
    case .tooLarge(let file, let limit):
      return
        "\(file): the file is larger than \(ByteCount.text(limit)), the most mymap reads as one locations file"
    case .emptyFile(let file):
      return "\(file): the file is empty; expected \(LocationsFormat.anyContent)"
    case .unsupportedFormat(let file, let format):
      return "\(file): \(format) files are not supported; use \(LocationsFormat.anyContent)"
    case .malformedJSON(let file, let line, let column, let message):
      return "\(file):\(line):\(column): \(message)"
    case .malformedXML(let file, let line, let message):
      return "\(file):\(line): malformed XML: \(message)"
    case .unrecognizedContent(let file, let expected, let found):
      return "\(file): not a locations file: expected \(expected), found \(found)"
    case .invalidDocument(let file, let message):
      return "\(file): \(message)"
    case .invalidRecord(let file, let record, let message):
      return "\(file): \(record): \(message)"
    case .invalidLine(let file, let line, let message):
      return "\(file):\(line): \(message)"
    case .unwritable(let file, let reason):
      return "\(file): cannot write the file: \(reason)"
    }
  }
}
