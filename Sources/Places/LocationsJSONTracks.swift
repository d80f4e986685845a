import Foundation
import JSON

extension LocationsJSON {
  /// mymap JSON's `tracks`: an array of objects with `id`, `name`, `kind` (`track` or `route`),
  /// `category`, `description` (all optional) and `segments`, an array of lines, each an array of points
  /// `{"latitude", "longitude", "elevation", "time"}` (the last two optional). Errors name `track N`.
  ///
  /// Reads the track `value` holds into `tracks`; returns its warnings, each under `record` (`track 2`).
  static func addTrack(
    _ value: JSONValue, record: String, to tracks: inout TrackCollector
  ) throws(RecordProblem) -> [String] {
    var warnings: [String] = []
    let (track, hasOwnID) = try readTrack(value, warnings: &warnings)
    try tracks.add(track, hasOwnID: hasOwnID, record: record)
    return warnings.map { "\(record): \($0)" }
  }

  private static func readTrack(
    _ value: JSONValue, warnings: inout [String]
  ) throws(RecordProblem) -> (Track, Bool) {
    guard let fields = RecordFields(value) else {
      throw RecordProblem("expected an object, found \(value.summary)")
    }
    guard case .array(let lines)? = fields["segments"] else {
      throw RecordProblem("segments must be an array of arrays of points")
    }
    var segments: [[TrackPoint]] = []
    var total = 0
    for (lineIndex, line) in lines.enumerated() {
      guard case .array(let points) = line else {
        throw RecordProblem("segments[\(lineIndex)] must be an array of points, not \(line.summary)")
      }
      total += points.count
      if total > InputLimits.maximumTrackPoints {
        throw RecordProblem(
          "the track has more than \(InputLimits.maximumTrackPoints) points, the most one track may have")
      }
      var segment: [TrackPoint] = []
      segment.reserveCapacity(points.count)
      for (index, pointValue) in points.enumerated() {
        guard let point = RecordFields(pointValue, prefix: "segments[\(lineIndex)][\(index)].") else {
          throw RecordProblem(
            "segments[\(lineIndex)][\(index)] must be an object with latitude and longitude, not"
              + " \(pointValue.summary)")
        }
        var noZone: [String] = []
        let (latitude, longitude) = try coordinateMembers(point)
        var elevation: Double?
        if let value = point["elevation"] {
          guard case .number(let metres) = value, metres.isFinite else {
            throw RecordProblem("segments[\(lineIndex)][\(index)].elevation must be a number of metres")
          }
          elevation = metres
        }
        segment.append(
          TrackPoint(
            latitude: latitude, longitude: longitude, elevation: elevation,
            time: try point.date("time", warnings: &noZone)))
      }
      segments.append(segment)
    }
    let kind: Track.Kind
    switch try fields.string("kind") {
    case nil, "track": kind = .track
    case "route": kind = .route
    case let other?:
      throw RecordProblem("kind must be \"track\" or \"route\", not \(JSONWriter.quotedExcerpt(other))")
    }
    let id = try fields.identifier("id")
    let track = Track(
      id: id, name: try fields.string("name") ?? "", kind: kind,
      category: try fields.category("category", warnings: &warnings),
      trackDescription: try fields.string("description") ?? "", segments: segments)
    return (track, id != nil)
  }

  static func encode(_ track: Track) -> JSONValue {
    func point(_ point: TrackPoint) -> JSONValue {
      var members: [JSONValue.Member] = [
        .init("latitude", .number(point.latitude)), .init("longitude", .number(point.longitude)),
      ]
      if let elevation = point.elevation { members.append(.init("elevation", .number(elevation))) }
      if let time = point.time { members.append(.init("time", .string(ISO8601Date.format(time)))) }
      return .object(members)
    }
    return .object([
      .init("id", .string(track.id)), .init("name", .string(track.name)),
      .init("kind", .string(track.kind.rawValue)), .init("category", .string(track.category)),
      .init("description", .string(track.trackDescription)),
      .init("segments", .array(track.segments.map { .array($0.map(point)) })),
    ])
  }
}
