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
      guard let value = document["features"], value != .null else {
        throw .invalidDocument(file: file, message: "the FeatureCollection has no \"features\" array")
      }
      guard case .array(let list) = value else {
        throw .invalidDocument(file: file, message: "\"features\" must be an array, not \(value.summary)")
      }
      features = list
    case .string("Feature"):
      features = [document]
    default:
      throw .unrecognizedContent(
        file: file, expected: LocationsFormat.geoJSON.expectedContent,
        found: LocationsFormat.describeUnrecognized(document))
    }
    var skipped = 0
    var collector = RecordCollector()
    var tracks = TrackCollector()
    var trackWarnings: [String] = []
    var number = 0
    try readRecords(features, noun: "feature", file: file, into: &collector) {
      value, warnings throws(RecordProblem) in
      number += 1
      if let (track, hasOwnID) = try readLine(value, warnings: &warnings) {
        try tracks.add(track, hasOwnID: hasOwnID, record: "feature \(number)")
        trackWarnings += warnings.map { "feature \(number): \($0)" }
        return nil
      }
      guard let record = try readFeature(value, warnings: &warnings) else {
        skipped += 1
        return nil
      }
      return record
    }
    collector.tracks = tracks
    for warning in trackWarnings { collector.warn(warning) }
    if let warning = skippedWarning(skipped) { collector.warn(warning) }
    return collector.finish()
  }

  /// The warning about features left out that are neither points nor lines; nil when none was.
  static func skippedWarning(_ skipped: Int) -> String? {
    switch skipped {
    case 0: nil
    case 1: "skipped 1 feature that is neither a point nor a line"
    default: "skipped \(skipped) features that are neither points nor lines"
    }
  }

  /// Nil for a feature that is not a point (or has no geometry).
  static func readFeature(
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
