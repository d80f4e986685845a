import Foundation
import JSON

/// Reading and writing locations files: mymap's own JSON and GeoJSON, chosen by content (or by the
/// caller), with errors that say where a file is wrong.
public enum LocationsFile {
  /// The name errors use for standard input.
  public static let standardInputName = "<stdin>"

  /// Reads the file at `path`; `-` reads standard input. `format` nil: by content (see `LocationsFormat`).
  public static func read(path: String, format: LocationsFormat? = nil) throws(LocationsFileError)
    -> LocationSet
  {
    if path == "-" { return try readStandardInput(format: format) }
    return try read(data: try contents(of: path), name: path, format: format)
  }

  /// Reads all of standard input.
  public static func readStandardInput(format: LocationsFormat? = nil) throws(LocationsFileError)
    -> LocationSet
  {
    try read(data: FileHandle.standardInput.readDataToEndOfFile(), name: standardInputName, format: format)
  }

  /// Reads a file's bytes. `name` is the file as the user knows it: messages start with it, and its
  /// extension says what a file that is neither format was expected to be.
  public static func read(
    data: Data, name: String, format: LocationsFormat? = nil
  ) throws(LocationsFileError) -> LocationSet {
    let unsupported = ["gpx": "GPX", "csv": "CSV", "kml": "KML"]
    if format == nil, let known = unsupported[fileExtension(name)] {
      throw .unsupportedFormat(file: name, format: known)
    }
    let bytes = [UInt8](data)
    let body = bytes.starts(with: JSONParser.byteOrderMark) ? bytes.dropFirst(3) : bytes[...]
    if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { throw .emptyFile(file: name) }

    let document: JSONValue
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      throw .malformedJSON(file: name, line: error.line, column: error.column, message: error.message)
    }
    let detected = LocationsFormat.detect(document)
    guard let chosen = format ?? detected, detected == chosen else {
      // A `.json` file may hold either format; only `.geojson` narrows what was expected.
      let hinted = format ?? (LocationsFormat(fileName: name) == .geoJSON ? .geoJSON : nil)
      let expected = hinted?.expectedContent ?? LocationsFormat.eitherContent
      throw .unrecognizedContent(
        file: name, expected: expected, found: LocationsFormat.describeUnrecognized(document))
    }
    switch chosen {
    case .mymapJSON: return try LocationsJSON.decode(document, file: name)
    case .geoJSON: return try GeoJSON.decode(document, file: name)
    }
  }

  /// mymap's JSON for a set of places: the same set gives the same bytes (fixed member order, shortest exact
  /// numbers, UTC dates), and reading them back gives the same places. Warnings are not written.
  public static func encode(_ set: LocationSet) -> Data {
    Data(JSONWriter.text(LocationsJSON.encode(set)).utf8)
  }

  /// Writes `encode(set)` to `path` atomically (a temporary file renamed into place, so a reader never sees
  /// half a file); `-` writes to standard output.
  public static func write(_ set: LocationSet, toPath path: String) throws(LocationsFileError) {
    let data = encode(set)
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

  private static func contents(of path: String) throws(LocationsFileError) -> Data {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(file: path) }
    if isDirectory.boolValue { throw .unreadable(file: path, reason: "it is a directory") }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(file: path, reason: reason(for: error, path: path))
    }
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
