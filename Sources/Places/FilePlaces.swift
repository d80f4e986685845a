import Foundation
import JSON
import MapMath

/// The places of a mymap JSON file or GeoJSON FeatureCollection read in two steps, as `StoredPlaces` reads
/// a store's: every coordinate, date and id when made, the rest of a place only when asked for, parsed
/// again from its bytes in the file. Drawing a million places as clusters then holds a million
/// coordinates and ids and reads the texts of the few pins drawn alone.
///
/// Only the places a filter includes are kept, by date (undated ones last, places of the same date in the
/// file's order), so `inListOrder` keeps the order it is given.
public final class FilePlaces: AnnotationCollection, @unchecked Sendable {
  public let coordinates: [Coordinate]
  private let dates: [Date?]
  /// Final ids (a derived one made unique as a whole read makes it).
  private let ids: [String]
  /// Each place's element in the file's bytes.
  private let elements: [Range<Int>]
  private let source: JSONImportRecords

  fileprivate init(
    source: JSONImportRecords, coordinates: [Coordinate], dates: [Date?], ids: [String],
    elements: [Range<Int>]
  ) {
    self.source = source
    self.coordinates = coordinates
    self.dates = dates
    self.ids = ids
    self.elements = elements
  }

  /// How many places the filter kept.
  public var count: Int { coordinates.count }

  /// The dated places' dates and coordinates, oldest first: what a route and a title's dates need.
  public func datedInOrder() -> [(date: Date, coordinate: Coordinate)] {
    zip(dates, coordinates).compactMap { date, coordinate in date.map { ($0, coordinate) } }
  }

  public func annotations(at indices: [Int]) throws -> [any Annotation] { try locations(at: indices) }

  public func identifiers(at indices: [Int]) throws -> [String] { indices.map { ids[$0] } }

  /// The places at `indices`, in that order, read again from the file.
  public func locations(at indices: [Int]) throws(LocationsFileError) -> [Location] {
    let changed = LocationsFileError.invalidDocument(
      file: source.file, message: "the file changed while the map was being drawn; draw it again")
    // A mapped file cut short under the map would fault on the pages past its new end.
    var info = stat()
    if source.input.isMapped && (stat(source.file, &info) != 0 || Int(info.st_size) < source.input.count) {
      throw changed
    }
    return try source.input.withBytes { bytes throws(LocationsFileError) in
      try indices.map { index throws(LocationsFileError) in
        let range = elements[index]
        // The bytes were this place when read: anything else means the file changed under the map.
        guard range.upperBound <= bytes.count,
          let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[range])),
          var location = reread(value), location.coordinate == coordinates[index]
        else { throw changed }
        location.id = ids[index]
        return location
      }
    }
  }

  private func reread(_ value: JSONValue) -> Location? {
    var warnings: [String] = []
    if source.format == .geoJSON {
      var features = GeoJSONFeatures()
      return (try? features.read(value, record: "", warnings: &warnings))??.location
    }
    return (try? LocationsJSON.readLocation(value, warnings: &warnings))??.location
  }
}

extension JSONImportRecords {
  /// The file's places in two steps (`FilePlaces`), those `including` says yes to, with the set of what
  /// else a whole read gives: the user, the tracks and the warnings (no places). Errors, warnings and ids
  /// are a whole read's.
  public func readInTwoSteps(
    including: (Location) -> Bool
  ) throws(LocationsFileError) -> (LocationSet, FilePlaces) {
    var rules = RecordRules()
    var ids: [String] = []
    var kept: [(index: Int, coordinate: Coordinate, date: Date?, element: Range<Int>)] = []
    let (tracks, warnings) = try readPlaces { read, record, warnings, element throws(RecordProblem) in
      try rules.admit(read, index: ids.count, record: record, warnings: warnings)
      if including(read.location) {
        kept.append((ids.count, read.location.coordinate, read.location.date, element))
      }
      ids.append(read.location.id)
    }
    rules.ids.finish(&ids)
    for warning in warnings { rules.warnings.append(warning) }
    let set = LocationSet(
      locations: [], user: try user(), warnings: rules.warnings.lines, givenIDs: [], tracks: tracks)
    kept.sort { a, b in
      let (first, second) = (a.date ?? .distantFuture, b.date ?? .distantFuture)
      return first != second ? first < second : a.index < b.index
    }
    return (
      set,
      FilePlaces(
        source: self, coordinates: kept.map(\.coordinate), dates: kept.map(\.date),
        ids: kept.map { ids[$0.index] }, elements: kept.map(\.element))
    )
  }
}
