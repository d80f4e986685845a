import JSON

/// GeoJSON (RFC 7946) read as places: each Point feature is one place; each LineString and
/// MultiLineString feature a track (`GeoJSON.readLine`); other features are skipped.
///
/// Properties: `description`, else `name`, else `title` (the first non-empty one); `category`; `date`;
/// `placemark` and `photo` as in mymap JSON. The id is the feature's `id`, else `properties.id`.
enum GeoJSON {
  static func decode(_ document: JSONValue, file: String) throws(LocationsFileError) -> LocationSet {
    let features: [JSONValue]
    switch document["type"] {
    case .string("FeatureCollection"):
      features = try collectionFeatures(of: document, file: file)
    case .string("Feature"):
      features = [document]
    default:
      throw .unrecognizedContent(
        file: file, expected: LocationsFormat.geoJSON.expectedContent,
        found: LocationsFormat.describeUnrecognized(document))
    }
    var collector = RecordCollector()
    var reader = GeoJSONFeatures()
    var number = 0
    try readRecords(features, noun: "feature", file: file, into: &collector) {
      value, warnings throws(RecordProblem) in
      number += 1
      return try reader.read(value, record: "feature \(number)", warnings: &warnings)
    }
    collector.tracks = reader.tracks
    for warning in reader.warningsAfterPlaces { collector.warn(warning) }
    return collector.finish()
  }

  /// A FeatureCollection's `features`.
  static func collectionFeatures(of document: JSONValue, file: String) throws(LocationsFileError)
    -> [JSONValue]
  {
    guard let value = document["features"], value != .null else {
      throw .invalidDocument(file: file, message: "the FeatureCollection has no \"features\" array")
    }
    guard case .array(let list) = value else {
      throw .invalidDocument(file: file, message: "\"features\" must be an array, not \(value.summary)")
    }
    return list
  }

  /// Nil for a feature that is not a point (or has no geometry).
  fileprivate static func readFeature(
    _ value: JSONValue, warnings: inout [String]
  ) throws(RecordProblem) -> ReadRecord? {
    guard let feature = RecordFields(value) else {
      throw RecordProblem("expected a Feature object, found \(value.summary)")
    }
    if let type = feature["type"], type != .string("Feature") {
      throw RecordProblem("\"type\" must be \"Feature\", not \(type.summary)")
    }
    guard let geometryValue = feature["geometry"] else { return nil }
    guard let geometry = RecordFields(geometryValue, prefix: "geometry.") else {
      throw RecordProblem("geometry must be an object or null, not \(geometryValue.summary)")
    }
    guard try geometry.string("type") == "Point" else { return nil }
    let (latitude, longitude) = try pointCoordinates(geometry["coordinates"])

    let propertiesValue = feature["properties"] ?? .object([])
    guard let properties = RecordFields(propertiesValue, prefix: "properties.") else {
      throw RecordProblem("properties must be an object or null, not \(propertiesValue.summary)")
    }
    var description = ""
    for name in ["description", "name", "title"] where description.isEmpty {
      description = try properties.string(name) ?? ""
    }
    // Not `??`: its autoclosure would lose the typed error.
    var id = try feature.identifier("id")
    if id == nil { id = try properties.identifier("id") }
    let location = Location(
      id: id, latitude: latitude, longitude: longitude, locationDescription: description,
      category: try properties.category("category", warnings: &warnings),
      date: try properties.date("date", warnings: &warnings),
      placemark: try properties.placemark("placemark"), photoPath: try properties.string("photo"))
    return ReadRecord(location: location, hasOwnID: id != nil)
  }

  /// A Point's `[longitude, latitude]` (a third number, the altitude, is ignored).
  private static func pointCoordinates(
    _ value: JSONValue?
  ) throws(RecordProblem) -> (latitude: Double, longitude: Double) {
    guard let value else { throw RecordProblem("the Point has no coordinates") }
    guard case .array(let numbers) = value else {
      throw RecordProblem("geometry.coordinates must be [longitude, latitude], not \(value.summary)")
    }
    guard numbers.count >= 2 else {
      throw RecordProblem(
        "geometry.coordinates must be [longitude, latitude], not an array of \(numbers.count)")
    }
    let longitude = try degrees(numbers[0], .longitude)
    do throws(RecordProblem) {
      return (try degrees(numbers[1], .latitude), longitude)
    } catch {
      // The usual mistake is [latitude, longitude]: say so when the numbers fit that reading.
      guard abs(longitude) <= 90, case .number = numbers[1] else { throw error }
      throw RecordProblem(error.message + " (GeoJSON coordinates are [longitude, latitude])")
    }
  }
}

/// A FeatureCollection's features read one at a time, as a whole read and a streamed import both read
/// them: a Point is a place, a LineString or MultiLineString a track (kept here, with the file's limits),
/// anything else skipped and counted.
struct GeoJSONFeatures {
  var tracks = TrackCollector()
  private var trackWarnings: [String] = []
  private var skipped = 0

  /// The place `value` holds, with its warnings in `warnings`; nil for a line (kept as a track, its
  /// warnings kept for `warningsAfterPlaces`) or a feature skipped. `record` names it (`feature 4`).
  mutating func read(
    _ value: JSONValue, record: String, warnings: inout [String]
  ) throws(RecordProblem) -> ReadRecord? {
    if let (track, hasOwnID) = try GeoJSON.readLine(value, warnings: &warnings) {
      try tracks.add(track, hasOwnID: hasOwnID, record: record)
      trackWarnings += warnings.map { "\(record): \($0)" }
      return nil
    }
    guard let read = try GeoJSON.readFeature(value, warnings: &warnings) else {
      skipped += 1
      return nil
    }
    return read
  }

  /// The warnings that follow the places' once every feature was read: each line's, then one about the
  /// features skipped.
  var warningsAfterPlaces: [String] {
    switch skipped {
    case 0: trackWarnings
    case 1: trackWarnings + ["skipped 1 feature that is neither a point nor a line"]
    default: trackWarnings + ["skipped \(skipped) features that are neither points nor lines"]
    }
  }
}
