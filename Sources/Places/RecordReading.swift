import JSON

/// One record read from a file: the place, and whether its id came from the file.
struct ReadRecord {
  var location: Location
  var hasOwnID: Bool
}

/// Reads a file's records in order, so every error and warning names its record (`location 4`, counting
/// from 1 as a person counts), and gives every place a unique id. `read` returns nil to skip a record.
func readRecords(
  _ elements: [JSONValue], noun: String, file: String,
  read: (JSONValue, inout [String]) throws(RecordProblem) -> ReadRecord?
) throws(LocationsFileError) -> (locations: [Location], warnings: [String]) {
  var locations: [Location] = []
  var warnings: [String] = []
  var ids = IDAssigner()
  for (offset, element) in elements.enumerated() {
    let record = "\(noun) \(offset + 1)"
    var recordWarnings: [String] = []
    let result: ReadRecord?
    do throws(RecordProblem) {
      result = try read(element, &recordWarnings)
    } catch {
      throw .invalidRecord(file: file, record: record, message: error.message)
    }
    warnings += recordWarnings.map { "\(record): \($0)" }
    guard let result else { continue }
    let owner = ids.register(
      result.location, explicit: result.hasOwnID, index: locations.count, record: record)
    if let owner {
      throw .invalidRecord(
        file: file, record: record,
        message: "duplicate id \(JSONWriter.quoted(result.location.id)) (\(owner) has it too)")
    }
    locations.append(result.location)
  }
  ids.finish(&locations)
  return (locations, warnings)
}

/// Reads `latitude` and `longitude` members, saying which are missing and, for the usual short names,
/// what to rename (`lat` → `latitude`).
func coordinateMembers(_ fields: RecordFields) throws(RecordProblem) -> (latitude: Double, longitude: Double)
{
  let missing = [Axis.latitude, .longitude].filter { !fields.has($0.rawValue) }
  if !missing.isEmpty {
    var message =
      missing.map(\.rawValue).joined(separator: " and ")
      + (missing.count == 1 ? " is missing" : " are missing")
    let renames = missing.compactMap { axis in
      axis.shortNames.first(where: fields.has).map { "\(JSONWriter.quoted($0)) to \"\(axis)\"" }
    }
    if !renames.isEmpty { message += " (rename " + renames.joined(separator: ", ") + ")" }
    throw RecordProblem(message)
  }
  return (
    try degrees(fields[Axis.latitude.rawValue]!, .latitude),
    try degrees(fields[Axis.longitude.rawValue]!, .longitude)
  )
}

extension Axis {
  /// Names other tools use for this member.
  fileprivate var shortNames: [String] {
    self == .latitude ? ["lat", "Latitude", "LAT"] : ["lon", "lng", "long", "Longitude", "LON", "LNG"]
  }
}
