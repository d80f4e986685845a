import FileSystem
import Foundation

/// A locations file opened for `mymap import`: a CSV file's rows are read as they are imported
/// (`LocationStore.importCSV`), so a million rows never sit in memory at once; every other format is read
/// whole, as `LocationsFile.read` reads it.
public enum ImportSource {
  case whole(LocationSet)
  case csvRows(CSVImportRows)
}

/// The rows of a CSV file, not yet read.
public struct CSVImportRows {
  /// The file as the user named it (`<stdin>` for standard input).
  public let file: String
  var rows: CSVPlaceRows
}

extension LocationsFile {
  /// Opens `path` (`-`: standard input) for an import. The format is decided as `read(path:format:)`
  /// decides it, from the first mebibyte; errors are the same.
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
    return .whole(try read(data: Data(bytes), name: name, format: format))
  }
}
