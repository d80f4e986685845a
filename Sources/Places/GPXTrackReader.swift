import Foundation
import JSON
import XML

/// Reads the tracks (`trk`: `trkseg`s of `trkpt`s) and routes (`rte`: `rtept`s) of a GPX file for the
/// XML reader of `GPX`, element by element. Depths count from the root (`gpx` is 0, so a `trk` is 1).
///
/// Kept from a track: `name`, `desc`, `type` (the category) and mymap's `id` extension; from each point
/// `lat` and `lon` (required, in range), `ele` and `time` (ISO 8601; without a time zone read as UTC,
/// said once per track). Everything else, extensions of other tools included (Garmin's heart rate and
/// the like), is skipped.
struct GPXTrackReader {
  enum Field {
    case name
    case desc
    case type
    case id
    case elevation
    case time
  }

  private struct Reading {
    var kind: Track.Kind
    var line: Int
    var name = ""
    var desc = ""
    var type = ""
    var id: String?
    var segments: [[TrackPoint]] = []
    var points = 0
    var timesWithoutZone = 0
  }

  private var reading: Reading?
  /// The point being read and its depth.
  private var point: (value: TrackPoint, depth: Int)?
  /// The element whose text is read, and its depth.
  private(set) var field: (kind: Field, depth: Int)?
  var text = ""

  var isReading: Bool { reading != nil }

  /// A `trk` or `rte` starts at `line`.
  mutating func begin(_ kind: Track.Kind, line: Int) {
    reading = Reading(kind: kind, line: line)
    if kind == .route { reading?.segments = [[]] }
  }

  /// An element starts at `depth` inside the track. `ours` is true for GPX's namespace, `mymap` for
  /// mymap's. Throws for a bad point, or a track past the limits of `collector`.
  mutating func start(
    _ name: String, ours: Bool, mymap: Bool, depth: Int, attributes: XMLReader.Attributes,
    collector: TrackCollector
  ) throws(RecordProblem) {
    // Taken out while it changes, so that appending to its arrays never copies them.
    guard var reading = self.reading, field == nil else { return }
    self.reading = nil
    defer { self.reading = reading }
    let pointElement = reading.kind == .track ? "trkpt" : "rtept"
    let pointDepth = reading.kind == .track ? 3 : 2
    if ours && depth == 2 {
      switch name {
      case "name": field = (.name, depth)
      case "desc": field = (.desc, depth)
      case "type": field = (.type, depth)
      case "trkseg" where reading.kind == .track: reading.segments.append([])
      default: break
      }
    } else if mymap && name == "id" && depth >= 2 && point == nil {
      field = (.id, depth)
    }
    if ours && depth == pointDepth && name == pointElement && point == nil && !reading.segments.isEmpty {
      try collector.checkRoom(forPoint: reading.points)
      let missing = ["lat", "lon"].filter { attributes[$0] == nil }
      if !missing.isEmpty {
        throw RecordProblem(
          "\(name) has no \(missing.joined(separator: " and ")) attribute\(missing.count == 2 ? "s" : "")")
      }
      let latitude = try degrees(text: attributes["lat"]!, .latitude, field: "\(name) lat")
      let longitude = try degrees(text: attributes["lon"]!, .longitude, field: "\(name) lon")
      point = (TrackPoint(latitude: latitude, longitude: longitude), depth)
    } else if ours, let point, depth == point.depth + 1 {
      if name == "ele" { field = (.elevation, depth) }
      if name == "time" { field = (.time, depth) }
    }
    if field != nil { text = "" }
  }

  /// A finished track or route, with the line it starts on and what was odd about it.
  struct Finished {
    var track: Track
    var hasOwnID: Bool
    var line: Int
    var warnings: [String]
  }

  /// An element at `depth` ends; returns the track when it is the `trk` or `rte` itself.
  mutating func end(depth: Int) throws(RecordProblem) -> Finished? {
    guard var reading = self.reading else { return nil }
    self.reading = nil
    if let field, field.depth == depth {
      self.field = nil
      try store(field.kind, into: &reading)
    }
    if let point, point.depth == depth {
      self.point = nil
      reading.segments[reading.segments.count - 1].append(point.value)
      reading.points += 1
    }
    guard depth == 1 else {
      self.reading = reading
      return nil
    }
    var warnings: [String] = []
    let category = categoryName(reading.type, warnings: &warnings)
    let track = Track(
      id: reading.id, name: reading.name, kind: reading.kind, category: category,
      trackDescription: reading.desc, segments: reading.segments)
    if reading.timesWithoutZone > 0 {
      warnings.append(
        "\(reading.timesWithoutZone) point time\(reading.timesWithoutZone == 1 ? " has" : "s have") no time"
          + " zone; read as UTC")
    }
    return Finished(track: track, hasOwnID: reading.id != nil, line: reading.line, warnings: warnings)
  }

  private mutating func store(_ kind: Field, into reading: inout Reading) throws(RecordProblem) {
    let trimmed = trimmedSpaces(text, newlines: true)
    switch kind {
    case .name: reading.name = text
    case .desc: reading.desc = text
    case .type: reading.type = trimmed
    case .id: reading.id = trimmed.isEmpty ? nil : trimmed
    case .elevation:
      guard !trimmed.isEmpty else { return }
      guard let metres = Double(trimmed), metres.isFinite, abs(metres) < 100_000 else {
        throw RecordProblem("ele \(quoted(trimmed)) is not a height in metres")
      }
      point?.value.elevation = metres
    case .time:
      guard !trimmed.isEmpty else { return }
      guard let parsed = ISO8601Date.parse(trimmed) else {
        throw RecordProblem(
          "time \(quoted(trimmed)) is not an ISO 8601 date (expected e.g. \"2026-11-29T10:00:00Z\")")
      }
      if !parsed.hasTimeZone { reading.timesWithoutZone += 1 }
      point?.value.time = parsed.date
    }
  }

  private func quoted(_ text: String) -> String { JSONWriter.quotedExcerpt(text) }
}
