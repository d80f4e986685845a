import FileSystem
import Foundation
import JSON
import MapMath

/// A mymap JSON file or GeoJSON FeatureCollection opened for `mymap import` or a whole read: read through
/// once to check its syntax and tell its format (`open`), keeping only the top-level members that are not
/// arrays; its places and tracks are then read again one at a time as they are imported
/// (`LocationStore.importJSON`) or collected (`readSet`), so a file of a million places never sits in
/// memory as values. A regular file is mapped, its pages
/// handed back behind the reader (`MappedInput`).
public struct JSONImportRecords {
  /// The file as the user named it (`<stdin>` for standard input).
  public let file: String
  let format: LocationsFormat
  let input: MappedInput
  /// The top level, each array member's value left empty.
  let document: JSONValue

  /// What an error calls one element of the array of places.
  var placeNoun: String { format == .geoJSON ? "feature" : "location" }

  /// Reads the input through and checks what a whole read checks before its records: the syntax, the
  /// format (against `format` when given), a mymap file's `user` and `locations`, a FeatureCollection's
  /// `features`. Nil for a single GeoJSON Feature, which is one record and read whole.
  static func open(
    _ input: MappedInput, name: String, format: LocationsFormat?
  ) throws(LocationsFileError) -> JSONImportRecords? {
    let parsed = try parse(input, file: name) { _, _, _ in true }
    guard let document = parsed else { return nil }  // Not reached: the handler above never stops.
    let chosen = try LocationsFile.checkJSONFormat(document, name: name, format: format)
    // The checks a whole read makes before its records (each array streamed is left empty here).
    if chosen == .geoJSON {
      guard document["type"] == .string("FeatureCollection") else { return nil }
      _ = try GeoJSON.collectionFeatures(of: document, file: name)
    } else {
      _ = try LocationsJSON.user(of: document, file: name)
      _ = try LocationsJSON.locations(of: document, file: name)
    }
    return JSONImportRecords(file: name, format: chosen, input: input, document: document)
  }

  /// Every place and track, read as a whole read of the file reads them (the same places, ids, warnings
  /// and errors), with one element's values in memory at a time rather than the file's.
  func readSet() throws(LocationsFileError) -> LocationSet {
    var collector = RecordCollector()
    let (tracks, warnings) = try readPlaces { read, record, warnings, _ throws(RecordProblem) in
      try collector.add(read, record: record, warnings: warnings)
    }
    return collector.finish(user: try user(), tracks: tracks, warningsAfter: warnings)
  }

  /// mymap JSON's `user`, when it gives one.
  func user() throws(LocationsFileError) -> UserPosition? {
    format == .mymapJSON ? try LocationsJSON.user(of: document, file: file) : nil
  }

  /// Reads the input again, giving `place` each place with its record's name (`location 4`), warnings and
  /// bytes, in file order; returns the tracks and the warnings that come after every place's. An error
  /// `place` throws is the record's.
  func readPlaces(
    _ place: (ReadRecord, _ record: String, _ warnings: [String], Range<Int>) throws(RecordProblem) -> Void
  ) throws(LocationsFileError) -> (tracks: [Track], warnings: [String]) {
    var reader = JSONRecordReader(self)
    var failure: LocationsFileError?
    _ = try forEachElement { member, value, range in
      do throws(LocationsFileError) {
        guard let (read, number, warnings) = try reader.read(member: member, value) else { return true }
        let record = "\(placeNoun) \(number)"
        do throws(RecordProblem) {
          try place(read, record, warnings, range)
        } catch {
          throw .invalidRecord(file: file, record: record, message: error.message)
        }
        return true
      } catch {
        failure = error
        return false
      }
    }
    if let failure { throw failure }
    return try reader.finish()
  }

  /// Reads the input again, giving `body` each element of a top-level array with its member's name;
  /// `body` returns false to stop. False when stopped.
  func forEachElement(_ body: (String, JSONValue, Range<Int>) -> Bool) throws(LocationsFileError) -> Bool {
    try Self.parse(input, file: file, body) != nil
  }

  private static func parse(
    _ input: MappedInput, file: String, _ body: (String, JSONValue, Range<Int>) -> Bool
  ) throws(LocationsFileError) -> JSONValue? {
    do {
      return try input.withBytes { bytes throws(JSONSyntaxError) in
        try JSONParser.parse(bytes, maximumHeldBytes: InputLimits.maximumFileBytes) { member, value, range in
          input.release(below: range.upperBound)
          return body(member, value, range)
        }
      }
    } catch {
      throw .malformedJSON(file: file, line: error.line, column: error.column, message: error.message)
    }
  }
}

/// Reads the elements `JSONImportRecords.forEachElement` gives as a whole read reads them: a place (to
/// import at once), a track (kept, with the file's limits), or nothing, with errors and warnings named by
/// record (`location 4`, `feature 4`, `track 2`).
struct JSONRecordReader {
  let source: JSONImportRecords
  private(set) var places = 0
  private var trackRecords = 0
  /// mymap JSON's tracks, and their warnings.
  private var tracks = TrackCollector()
  private var trackWarnings: [String] = []
  /// mymap JSON's tracks are read after its places: the first track's error waits for them.
  private var trackError: LocationsFileError?
  /// A FeatureCollection's tracks and skipped features.
  private var features = GeoJSONFeatures()

  init(_ source: JSONImportRecords) { self.source = source }

  /// The place an element holds, with its record number and warnings; nil for a track, an element to
  /// skip, or a member that holds no records.
  mutating func read(member: String, _ value: JSONValue) throws(LocationsFileError) -> (
    ReadRecord, number: Int, warnings: [String]
  )? {
    var warnings: [String] = []
    switch (source.format, member) {
    case (.mymapJSON, "locations"):
      places += 1
      do throws(RecordProblem) {
        guard let read = try LocationsJSON.readLocation(value, warnings: &warnings) else { return nil }
        return (read, places, warnings)
      } catch {
        throw .invalidRecord(file: source.file, record: "location \(places)", message: error.message)
      }
    case (.mymapJSON, "tracks"):
      trackRecords += 1
      guard trackError == nil else { return nil }
      let record = "track \(trackRecords)"
      do throws(RecordProblem) {
        trackWarnings += try LocationsJSON.addTrack(value, record: record, to: &tracks)
      } catch {
        trackError = .invalidRecord(file: source.file, record: record, message: error.message)
      }
      return nil
    case (.geoJSON, "features"):
      places += 1
      let record = "feature \(places)"
      do throws(RecordProblem) {
        guard let read = try features.read(value, record: record, warnings: &warnings) else { return nil }
        return (read, places, warnings)
      } catch {
        throw .invalidRecord(file: source.file, record: record, message: error.message)
      }
    default:
      return nil
    }
  }

  /// The tracks with their final ids and the warnings that follow the places', once every element was
  /// read; throws what a whole read would have thrown after the places.
  mutating func finish() throws(LocationsFileError) -> (tracks: [Track], warnings: [String]) {
    if source.format == .mymapJSON, let value = source.document["tracks"], value != .array([]) {
      throw .invalidDocument(file: source.file, message: "\"tracks\" must be an array, not \(value.summary)")
    }
    if let trackError { throw trackError }
    let isGeoJSON = source.format == .geoJSON
    var warnings = isGeoJSON ? features.warningsAfterPlaces : trackWarnings
    let (finished, warning) = isGeoJSON ? features.tracks.finish() : tracks.finish()
    if let warning { warnings.append(warning) }
    return (finished, warnings)
  }
}
