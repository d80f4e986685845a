/// Why a locations file could not be read or written. Each description is one line that names the file
/// and, where it can, the place in it: `europe.json:3:17: …` or `europe.json: location 4: …`.
public enum LocationsFileError: Error, Hashable, Sendable, CustomStringConvertible {
  case fileNotFound(file: String)
  case unreadable(file: String, reason: String)
  case emptyFile(file: String)
  /// A format mymap knows of but does not read yet (GPX, CSV).
  case unsupportedFormat(file: String, format: String)
  /// Not valid JSON; `line` and `column` count from 1.
  case malformedJSON(file: String, line: Int, column: Int, message: String)
  /// Valid JSON that is neither mymap's locations format nor GeoJSON; `found` says what it is.
  case unrecognizedContent(file: String, expected: String, found: String)
  /// The file's overall shape is wrong (`"locations" must be an array, …`).
  case invalidDocument(file: String, message: String)
  /// One record is wrong; `record` is `location 4`, `feature 2` (counting from 1) or `user`.
  case invalidRecord(file: String, record: String, message: String)
  case unwritable(file: String, reason: String)

  public var description: String {
    switch self {
    case .fileNotFound(let file):
      return "\(file): no such file"
    case .unreadable(let file, let reason):
      return "\(file): cannot read the file: \(reason)"
    case .emptyFile(let file):
      return "\(file): the file is empty; expected mymap locations JSON or GeoJSON"
    case .unsupportedFormat(let file, let format):
      return "\(file): \(format) files are not supported yet; use mymap locations JSON or GeoJSON"
    case .malformedJSON(let file, let line, let column, let message):
      return "\(file):\(line):\(column): \(message)"
    case .unrecognizedContent(let file, let expected, let found):
      return "\(file): not a locations file: expected \(expected), found \(found)"
    case .invalidDocument(let file, let message):
      return "\(file): \(message)"
    case .invalidRecord(let file, let record, let message):
      return "\(file): \(record): \(message)"
    case .unwritable(let file, let reason):
      return "\(file): cannot write the file: \(reason)"
    }
  }
}
