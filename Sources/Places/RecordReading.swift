import JSON
import MapMath

/// One record read from a file: the place, and whether its id came from the file.
struct ReadRecord {
  var location: Location
  var hasOwnID: Bool
}

/// Gathers a file's places in file order: collects warnings under the record's name, makes every id unique
/// (`IDAssigner`) and remembers which ids came from the file. Every reader uses one, so all formats agree.
struct RecordCollector {
  private var locations: [Location] = []
  private var rules = RecordRules()
  private var givenIDs: Set<String> = []
  /// The file's tracks and routes.
  var tracks = TrackCollector()

  /// Adds a place read from `record` (`location 4`, `line 7`), with the warnings its fields gave. Throws
  /// when the place repeats an id the file already gave another record.
  mutating func add(
    _ read: ReadRecord, record: String, warnings recordWarnings: [String]
  ) throws(RecordProblem) {
    try rules.admit(read, index: locations.count, record: record, warnings: recordWarnings)
    if read.hasOwnID { givenIDs.insert(read.location.id) }
    locations.append(read.location)
  }

  /// A warning about the file as a whole (not about one record).
  mutating func warn(_ warning: String) { rules.warnings.append(warning) }

  /// The places with their final ids.
  mutating func finish(user: UserPosition? = nil) -> LocationSet {
    let (tracks, warning) = self.tracks.finish()
    return finish(user: user, tracks: tracks, warningsAfter: warning.map { [$0] } ?? [])
  }

  /// The places with their final ids and `tracks`, finished by a reader that collected them itself, with
  /// the warnings that come after every place's (`JSONRecordReader.finish`).
  mutating func finish(user: UserPosition?, tracks: [Track], warningsAfter: [String]) -> LocationSet {
    rules.ids.finish(&locations)
    for warning in warningsAfter { rules.warnings.append(warning) }
    return LocationSet(
      locations: locations, user: user, warnings: rules.warnings.lines, givenIDs: givenIDs, tracks: tracks)
  }
}

/// What every place a file gives goes through, however it is kept: the limits, its warnings under the
/// record's name, and its id's place among the file's (`IDAssigner`).
struct RecordRules {
  var warnings = FileWarnings()
  var ids = IDAssigner()

  /// Takes the place `read` from `record`, the file's `index`-th; throws when it breaks a limit or
  /// repeats an id the file already gave another record.
  mutating func admit(
    _ read: ReadRecord, index: Int, record: String, warnings recordWarnings: [String]
  ) throws(RecordProblem) {
    try RecordCollector.check(read, placesBefore: index)
    for warning in recordWarnings { warnings.append("\(record): \(warning)") }
    if let owner = ids.register(read.location, explicit: read.hasOwnID, index: index, record: record) {
      throw RecordProblem("duplicate id \(JSONWriter.quotedExcerpt(read.location.id)) (\(owner) has it too)")
    }
  }
}

extension RecordCollector {
  /// The limits every record meets, whoever collects it: text no longer than a page, and no more places
  /// in a file than `InputLimits.maximumPlaces`.
  static func check(_ read: ReadRecord, placesBefore: Int) throws(RecordProblem) {
    if let oversized = read.location.oversizedText() { throw RecordProblem(oversized) }
    guard placesBefore < InputLimits.maximumPlaces else {
      throw RecordProblem(
        "the file holds more than \(InputLimits.maximumPlaces) places, the most one file may hold")
    }
  }
}

/// Reads a JSON file's records in order, so every error and warning names its record (`location 4`,
/// counting from 1 as a person counts). `read` returns nil to skip a record.
func readRecords(
  _ elements: [JSONValue], noun: String, file: String, into collector: inout RecordCollector,
  read: (JSONValue, inout [String]) throws(RecordProblem) -> ReadRecord?
) throws(LocationsFileError) {
  for (offset, element) in elements.enumerated() {
    let record = "\(noun) \(offset + 1)"
    var recordWarnings: [String] = []
    do throws(RecordProblem) {
      guard let result = try read(element, &recordWarnings) else { continue }
      try collector.add(result, record: record, warnings: recordWarnings)
    } catch {
      throw .invalidRecord(file: file, record: record, message: error.message)
    }
  }
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
      axis.shortNames.first(where: fields.has).map { "\(JSONWriter.quotedExcerpt($0)) to \"\(axis)\"" }
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
