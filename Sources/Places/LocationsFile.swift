import FileSystem
import Foundation
import JSON

/// Reading and writing locations files: mymap's own JSON, GeoJSON, GPX and CSV, chosen by content, by the
/// file name's extension or by the caller, with errors that say where a file is wrong.
///
/// Reading is all or nothing: one bad record is an error naming it (`location 4` in JSON, the line in CSV and
/// GPX), and no place is returned. Places without an id get `Location.derivedID`; `LocationSet.givenIDs`
/// says which ids the file gave.
public enum LocationsFile {
  /// The name errors use for standard input.
  public static let standardInputName = "<stdin>"

  /// Reads the file at `path`; `-` reads standard input. `format` nil: by content, else by extension; an
  /// SQLite database is then read as the My Locations app's Core Data store (`CoreDataStore`).
  public static func read(path: String, format: LocationsFormat? = nil) throws(LocationsFileError)
    -> LocationSet
  {
    if path == "-" { return try readStandardInput(format: format) }
    // Core Data: SQLite is read through its file (it may have a journal beside it), not from the bytes,
    // and it may be larger than any text file mymap reads.
    if format == nil && CoreDataStore.looksLikeCoreDataStore(filePrefix(path)) {
      return try CoreDataStore.read(path: path)
    }
    // JSON and GPX are mapped and read a record at a time, whatever the file's size: memory holds the
    // places, not the file's values (a million places of JSON: 1.6 GB read whole).
    switch try mappedFamily(path, format: format) {
    case .json?:
      return try readJSON(try mapped(path), name: path, format: format)
    case .xml?:
      let input = try mapped(path)
      return try input.withBytes { bytes throws(LocationsFileError) in
        // Where the XML starts is found in the bytes mapped: the file may have changed since its prefix.
        try GPX.decode(
          bytes, from: contentStart(bytes) ?? bytes.count, file: path, release: input.release(below:))
      }
    default:
      return try read(data: try contents(of: path), name: path, format: format)
    }
  }

  /// `read(path:format:)` for a map: a regular mymap JSON file or GeoJSON FeatureCollection gives its
  /// places in two steps (`FilePlaces`: those `including` says yes to, by date), with a set that holds
  /// the rest of what a whole read gives (the user, the tracks, the warnings); the errors are a whole
  /// read's. Nil for anything else (standard input, a pipe, CSV, GPX, a single GeoJSON Feature), which
  /// `read` reads whole.
  public static func readInTwoSteps(
    path: String, format: LocationsFormat? = nil, including: (Location) -> Bool
  ) throws(LocationsFileError) -> (LocationSet, FilePlaces)? {
    guard path != "-", !(format == nil && CoreDataStore.looksLikeCoreDataStore(filePrefix(path))),
      try mappedFamily(path, format: format) == .json,
      let records = try JSONImportRecords.open(try mapped(path), name: path, format: format)
    else { return nil }
    return try records.readInTwoSteps(including: including)
  }

  /// The family of a regular file that is mapped rather than read whole: JSON, or XML that says it is
  /// GPX (from its first mebibyte); nil for anything else.
  private static func mappedFamily(
    _ path: String, format: LocationsFormat?
  ) throws(LocationsFileError) -> LocationsFormat.ContentKind? {
    try checkIsFile(path)
    let prefix = [UInt8](filePrefix(path, count: FilePieces.pieceBytes))
    switch prefix.isEmpty ? nil : try? contentFamily(prefix, name: path, format: format) {
    case (.json, _, _)?: return .json
    case (.xml, .xml, _)?: return .xml
    default: return nil
    }
  }

  /// Reads all of standard input.
  public static func readStandardInput(format: LocationsFormat? = nil) throws(LocationsFileError)
    -> LocationSet
  {
    let data: Data
    do throws(InputFileError) {
      data = try InputFile.read(descriptor: STDIN_FILENO, limit: InputLimits.maximumFileBytes)
    } catch {
      throw failure(error, file: standardInputName)
    }
    return try read(data: data, name: standardInputName, format: format)
  }

  static func failure(_ failure: InputFileError, file: String) -> LocationsFileError {
    switch failure {
    case .tooLarge(let limit): return .tooLarge(file: file, limit: limit)
    case .notReadable(let kind) where kind == .folder:
      return .unreadable(file: file, reason: "it is a directory")
    case .notReadable, .system: return .unreadable(file: file, reason: failure.reason)
    }
  }

  /// Reads a file's bytes. `name` is the file as the user knows it: messages start with it. (A Core Data
  /// store is read by `read(path:)` only.)
  ///
  /// Without a `format`, the content decides: `<` starts GPX (XML), `{` or `[` starts JSON (mymap JSON or
  /// GeoJSON, told apart by their members), and a first line that reads as a CSV header naming latitude and
  /// longitude columns is CSV; leading white space and a UTF-8 byte order mark are skipped. Content that
  /// says none of these is read as the format its name's extension announces, so the error is that format's
  /// (`places.csv:1: the header has no longitude column …`).
  public static func read(
    data: Data, name: String, format: LocationsFormat? = nil
  ) throws(LocationsFileError) -> LocationSet {
    let bytes = [UInt8](data)
    let (family, sniffed, first) = try contentFamily(bytes, name: name, format: format)
    let content = bytes[first...]
    switch family {
    case .xml:
      guard sniffed == .xml else {
        throw .unrecognizedContent(
          file: name, expected: LocationsFormat.gpx.expectedContent,
          found: LocationsFormat.describeUnrecognized(bytes: content))
      }
      return try bytes.withUnsafeBufferPointer { buffer throws(LocationsFileError) in
        try GPX.decode(buffer, from: first, file: name)
      }
    case .csv:
      return try CSV.decode(bytes, file: name)
    case .json:
      return try readJSON(MappedInput(bytes: bytes), name: name, format: format)
    }
  }

  /// Which family of formats `bytes` are read as (see `read(data:)`), what the content itself says, and
  /// where it starts; throws for content no family reads. Only the first line or so is looked at.
  static func contentFamily(
    _ bytes: [UInt8], name: String, format: LocationsFormat?
  ) throws(LocationsFileError) -> (
    LocationsFormat.ContentKind, sniffed: LocationsFormat.ContentKind?, first: Int
  ) {
    guard let first = bytes.withUnsafeBufferPointer(contentStart) else { throw .emptyFile(file: name) }
    let content = bytes[first...]
    if format == nil && CoreDataStore.looksLikeCoreDataStore(Data(bytes.prefix(16))) {
      throw .unrecognizedContent(
        file: name, expected: LocationsFormat.anyContent,
        found:
          "an SQLite database (a My Locations DataModel.sqlite is read from its path, not from these bytes)")
    }
    let sniffed = LocationsFormat.sniff(content)
    if let format { return (format.contentKind, sniffed, first) }
    if let sniffed { return (sniffed, sniffed, first) }
    if ["kml", "kmz"].contains(fileExtension(name)) { throw .unsupportedFormat(file: name, format: "KML") }
    if let hinted = LocationsFormat(fileName: name) { return (hinted.contentKind, sniffed, first) }
    throw .unrecognizedContent(
      file: name, expected: LocationsFormat.anyContent,
      found: LocationsFormat.describeUnrecognized(bytes: content))
  }

  /// Where a file's content starts: after a UTF-8 byte order mark and white space; nil when nothing does.
  static func contentStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let start = bytes.starts(with: JSONParser.byteOrderMark) ? 3 : 0
    return bytes[start...].firstIndex { !isWhiteSpace($0) }
  }

  /// mymap JSON or GeoJSON, checked against the format asked for (or the `.geojson` extension): read an
  /// element at a time (`JSONImportRecords`), but for a single GeoJSON Feature, which is read whole.
  private static func readJSON(
    _ input: MappedInput, name: String, format: LocationsFormat?
  ) throws(LocationsFileError) -> LocationSet {
    if let records = try JSONImportRecords.open(input, name: name, format: format) {
      return try records.readSet()
    }
    guard input.count <= InputLimits.maximumFileBytes else {
      throw .tooLarge(file: name, limit: InputLimits.maximumFileBytes)
    }
    let document: JSONValue
    do {
      document = try input.withBytes { bytes throws(JSONSyntaxError) in try JSONParser.parse(bytes) }
    } catch {
      throw .malformedJSON(file: name, line: error.line, column: error.column, message: error.message)
    }
    return try GeoJSON.decode(document, file: name)
  }

  /// The JSON format `document` is in, which must be `format` when one is asked for.
  static func checkJSONFormat(
    _ document: JSONValue, name: String, format: LocationsFormat?
  ) throws(LocationsFileError) -> LocationsFormat {
    let detected = LocationsFormat.detect(document)
    guard let chosen = format ?? detected, detected == chosen else {
      // A `.json` file may hold either format; only `.geojson` narrows what was expected.
      let hinted = format ?? (LocationsFormat(fileName: name) == .geoJSON ? .geoJSON : nil)
      let expected = hinted?.expectedContent ?? LocationsFormat.eitherContent
      throw .unrecognizedContent(
        file: name, expected: expected, found: LocationsFormat.describeUnrecognized(document))
    }
    return chosen
  }

  /// mymap's JSON for a set of places (`encode(set, format: .mymapJSON)`).
  public static func encode(_ set: LocationSet) -> Data { encode(set, format: .mymapJSON) }

  /// Writes `encode(set, format:)` to `path` atomically (a temporary file renamed into place, so a reader
  /// never sees half a file); `-` writes to standard output. `format` nil: the one `path`'s extension
  /// announces, else mymap JSON.
  public static func write(
    _ set: LocationSet, toPath path: String, format: LocationsFormat? = nil
  ) throws(LocationsFileError) {
    let data = encode(set, format: format ?? LocationsFormat(fileName: path) ?? .mymapJSON)
    if path == "-" {
      FileHandle.standardOutput.write(data)
      return
    }
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .unwritable(file: path, reason: reason(for: error, path: path))
    }
  }

  private static func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The first `count` bytes of a regular file (empty for anything else, which is never an SQLite database).
  static func filePrefix(_ path: String, count: Int = 16) -> Data {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      let handle = FileHandle(forReadingAtPath: path)
    else { return Data() }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: count)) ?? Data()
  }

  private static func contents(of path: String) throws(LocationsFileError) -> Data {
    try checkIsFile(path)
    do throws(InputFileError) {
      return try InputFile.read(path: path, limit: InputLimits.maximumFileBytes)
    } catch {
      throw failure(error, file: path)
    }
  }

  /// Throws `fileNotFound` when nothing is at `path`, and `unreadable` for a directory.
  static func checkIsFile(_ path: String) throws(LocationsFileError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(file: path)
    }
    if isDirectory.boolValue { throw .unreadable(file: path, reason: "it is a directory") }
  }

  /// A short reason a user can act on (`permission denied`), rather than Foundation's generic paragraph
  /// ("The operation could not be completed"), which on Linux often hides the cause.
  private static func reason(for error: any Error, path: String) -> String {
    let manager = FileManager.default
    let directory = (path as NSString).deletingLastPathComponent
    if !directory.isEmpty && !manager.fileExists(atPath: directory) {
      return "the folder \(directory) does not exist"
    }
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return "it is a directory"
    }
    var current: NSError? = error as NSError
    while let nsError = current {
      if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
      if nsError.domain == NSCocoaErrorDomain {
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        default: break
        }
      }
      current = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
    }
    let folder = directory.isEmpty ? "." : directory
    if !manager.isWritableFile(atPath: folder)
      || (manager.fileExists(atPath: path) && !manager.isReadableFile(atPath: path))
    {
      return "permission denied"
    }
    return (error as NSError).localizedDescription
  }
}
