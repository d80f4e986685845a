import Foundation
import JSON

extension GeoJSON {
  /// A LineString or MultiLineString feature as a track; nil for any other feature.
  ///
  /// Properties: `name`, else `title`; `kind` (`track`, the default, or `route`); `category`;
  /// `description`; the times of the points in `coordTimes` (as many as there are positions, a string or
  /// null each; for a MultiLineString an array per line), the convention of togeojson and GPS tools. The
  /// third number of a position is the elevation. The id is the feature's `id`, else `properties.id`.
  static func readLine(
    _ value: JSONValue, warnings: inout [String]
  ) throws(RecordProblem) -> (track: Track, hasOwnID: Bool)? {
    guard let feature = RecordFields(value), let geometryValue = feature["geometry"],
      let geometry = RecordFields(geometryValue, prefix: "geometry.")
    else { return nil }
    let type = try? geometry.string("type")
    guard type == "LineString" || type == "MultiLineString" else { return nil }
    let propertiesValue = feature["properties"] ?? .object([])
    guard let properties = RecordFields(propertiesValue, prefix: "properties.") else {
      throw RecordProblem("properties must be an object or null, not \(propertiesValue.summary)")
    }
    guard case .array(let parts)? = geometry["coordinates"] else {
      throw RecordProblem("the \(type!) has no coordinates array")
    }
    let lines: [JSONValue] = type == "LineString" ? [.array(parts)] : parts
    var times: [JSONValue]?
    if let value = properties["coordTimes"] {
      guard case .array(let list) = value else {
        throw RecordProblem("properties.coordTimes must be an array, not \(value.summary)")
      }
      times = type == "LineString" ? [.array(list)] : list
    }
    var segments: [[TrackPoint]] = []
    var total = 0
    for (lineIndex, line) in lines.enumerated() {
      guard case .array(let positions) = line else {
        throw RecordProblem("geometry.coordinates[\(lineIndex)] must be an array of positions")
      }
      total += positions.count
      if total > InputLimits.maximumTrackPoints {
        throw RecordProblem(
          "the line has more than \(InputLimits.maximumTrackPoints) points, the most one track may have")
      }
      var lineTimes: [JSONValue]?
      if let times {
        guard lineIndex < times.count, case .array(let list) = times[lineIndex], list.count == positions.count
        else {
          throw RecordProblem("properties.coordTimes must have one time for each position")
        }
        lineTimes = list
      }
      var segment: [TrackPoint] = []
      segment.reserveCapacity(positions.count)
      for (index, position) in positions.enumerated() {
        var point = try trackPoint(position)
        if let time = lineTimes?[index], time != .null {
          guard case .string(let text) = time, let parsed = ISO8601Date.parse(text) else {
            throw RecordProblem("properties.coordTimes[\(index)] is not an ISO 8601 date: \(time.summary)")
          }
          point.time = parsed.date
        }
        segment.append(point)
      }
      segments.append(segment)
    }
    var name = try properties.string("name") ?? ""
    if name.isEmpty { name = try properties.string("title") ?? "" }
    let kind: Track.Kind
    switch try properties.string("kind") {
    case nil, "track": kind = .track
    case "route": kind = .route
    case let other?:
      throw RecordProblem(
        "properties.kind must be \"track\" or \"route\", not \(JSONWriter.quotedExcerpt(other))")
    }
    var id = try feature.identifier("id")
    if id == nil { id = try properties.identifier("id") }
    let track = Track(
      id: id, name: name, kind: kind, category: try properties.category("category", warnings: &warnings),
      trackDescription: try properties.string("description") ?? "", segments: segments)
    return (track, id != nil)
  }

  /// A position `[longitude, latitude, elevation?]`.
  private static func trackPoint(_ value: JSONValue) throws(RecordProblem) -> TrackPoint {
    guard case .array(let numbers) = value, numbers.count >= 2 else {
      throw RecordProblem("a position must be [longitude, latitude], not \(value.summary)")
    }
    var point = TrackPoint(
      latitude: try degrees(numbers[1], .latitude), longitude: try degrees(numbers[0], .longitude))
    if numbers.count > 2, case .number(let metres) = numbers[2], metres.isFinite {
      point.elevation = metres
    }
    return point
  }

  /// A track as a Feature: a LineString for one segment, a MultiLineString for several, with `id`, `name`,
  /// `kind`, `category`, `description` and, when any point has a time, `coordTimes`.
  static func trackFeature(_ track: Track) -> JSONValue {
    func position(_ point: TrackPoint) -> JSONValue {
      var numbers: [JSONValue] = [.number(point.longitude), .number(point.latitude)]
      if let elevation = point.elevation { numbers.append(.number(elevation)) }
      return .array(numbers)
    }
    func times(_ segment: [TrackPoint]) -> JSONValue {
      .array(segment.map { $0.time.map { .string(ISO8601Date.format($0)) } ?? .null })
    }
    let single = track.segments.count == 1
    let coordinates: JSONValue =
      single
      ? .array(track.segments[0].map(position)) : .array(track.segments.map { .array($0.map(position)) })
    var properties: [JSONValue.Member] = [
      .init("id", .string(track.id)), .init("name", .string(track.name)),
      .init("kind", .string(track.kind.rawValue)), .init("category", .string(track.category)),
      .init("description", .string(track.trackDescription)),
    ]
    if track.points.contains(where: { $0.time != nil }) {
      properties.append(
        .init("coordTimes", single ? times(track.segments[0]) : .array(track.segments.map(times))))
    }
    return .object([
      .init("type", .string("Feature")),
      .init("id", .string(track.id)),
      .init(
        "geometry",
        .object([
          .init("type", .string(single ? "LineString" : "MultiLineString")),
          .init("coordinates", coordinates),
        ])),
      .init("properties", .object(properties)),
    ])
  }
}
