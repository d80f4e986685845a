import FileSystem
import Foundation

/// A locations file opened for `mymap import`: a CSV file's rows (`LocationStore.importCSV`), a mymap
/// JSON file's or GeoJSON FeatureCollection's records (`LocationStore.importJSON`) and a GPX file's
/// waypoints (`LocationStore.importGPX`) are read as they are imported, so a million places never sit in
/// memory at once; a single GeoJSON Feature and a Core Data store are read whole, as `LocationsFile.read`
/// reads them.
public enum ImportSource {
  case whole(LocationSet)
  case csvRows(CSVImportRows)
  case jsonRecords(JSONImportRecords)
  case gpxRecords(GPXImportRecords)
}

/// The rows of a CSV file, not yet read.
public struct CSVImportRows {
  /// The file as the user named it (`<stdin>` for standard input).
  public let file: String
  var rows: CSVPlaceRows
}

extension LocationsFile {
  /// Opens `path` (`-`: standard input) for an import. The format is decided as `read(path:format:)`
  /// decides it, from the first mebibyte; errors are the same. A regular file holding JSON or GPX is
  /// mapped whatever its size; anything else is read up to `InputLimits.maximumFileBytes`.
  public static func openForImport(path: String, format: LocationsFormat? = nil) throws(LocationsFileError)
    -> ImportSource
  {
    let input: InputPieces
    let name: String
    if path == "-" {
      input = InputPieces(descriptor: STDIN_FILENO, limit: InputLimits.maximumFileBytes)
      name = standardInputName
    } else {
      if format == nil && CoreDataStore.looksLikeCoreDataStore(filePrefix(path)) {
        return .whole(try CoreDataStore.read(path: path))
      }
      try checkIsFile(path)
      let prefix = filePrefix(path, count: FilePieces.pieceBytes)
      let family = prefix.isEmpty ? nil : try? contentFamily([UInt8](prefix), name: path, format: format)
      switch family {
      case (.json, _, _)?: return try jsonSource(try mapped(path), name: path, format: format)
      case (.xml, .xml, _)?: return .gpxRecords(GPXImportRecords(file: path, input: try mapped(path)))
      default: break
      }
      do throws(InputFileError) {
        input = try InputPieces(path: path, limit: InputLimits.maximumFileBytes)
      } catch {
        throw failure(error, file: path)
      }
      name = path
    }
    var pieces = FilePieces(input: input, file: name)
    let first = try pieces.next() ?? []
    if let (family, _, _) = try? contentFamily(first, name: name, format: format), family == .csv {
      pieces.pending = first
      return .csvRows(CSVImportRows(file: name, rows: CSVPlaceRows(file: name, pieces: pieces)))
    }
    var bytes = first
    while let more = try pieces.next() { bytes += more }
    switch try? contentFamily(bytes, name: name, format: format) {
    case (.json, _, _)?: return try jsonSource(MappedInput(bytes: bytes), name: name, format: format)
    case (.xml, .xml, _)?: return .gpxRecords(GPXImportRecords(file: name, input: MappedInput(bytes: bytes)))
    default: return .whole(try read(data: Data(bytes), name: name, format: format))
    }
  }

  /// A regular file mapped; a FIFO or device read whole, up to the file limit.
  static func mapped(_ path: String) throws(LocationsFileError) -> MappedInput {
    do throws(InputFileError) {
      return try MappedInput(path: path, streamLimit: InputLimits.maximumFileBytes)
    } catch {
      throw failure(error, file: path)
    }
  }

  /// JSON read as it is imported; a single GeoJSON Feature (one record) read whole.
  private static func jsonSource(
    _ input: MappedInput, name: String, format: LocationsFormat?
  ) throws(LocationsFileError) -> ImportSource {
    if let records = try JSONImportRecords.open(input, name: name, format: format) {
      return .jsonRecords(records)
    }
    guard input.count <= InputLimits.maximumFileBytes else {
      throw .tooLarge(file: name, limit: InputLimits.maximumFileBytes)
    }
    let data = input.withBytes { Data($0) }
    return .whole(try read(data: data, name: name, format: format))
  }
}
