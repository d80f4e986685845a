import Arguments
import Foundation
import JSON
import Places

/// `mymap tracks`: the stored tracks and routes, oldest first.
enum TracksCommand {
  static let spec = CommandSpec(
    "tracks", abstract: "List stored tracks and routes: name, points, length, start and end.",
    discussion: """
      Tracks and routes come from 'mymap import' (GPX tracks and routes, GeoJSON LineStrings, mymap JSON's \
      "tracks"). --since and --until keep those whose time span overlaps the dates (a track without times \
      is outside every date range); --category matches the GPX type. Delete one with 'mymap delete ID'.
      """,
    options: FilterOptions.options + [
      .flag("json", help: "Write JSON instead, for scripts."), StoreAccess.option,
    ])

  static func run(_ arguments: ParsedArguments) throws(CLIError) {
    let filter = try FilterOptions.filter(arguments)
    let store = try StoreAccess.open(arguments, create: false, access: .readOnly)
    let tracks: [TrackSummary]
    do {
      tracks = try store.trackSummaries(filter)
    } catch {
      throw StoreAccess.map(error)
    }
    if arguments.flag("json") {
      Console.print(JSONWriter.text(.object([.init("tracks", .array(tracks.map(json)))])))
      return
    }
    let dates = UserLocale.dateFormatter()
    let output = BufferedOutput()
    for track in tracks { output.write(row(track, dates: dates)) }
    output.flush()
  }

  /// `  trk-1a2b  Morning walk (route)` over `  1,234 points · 5.20 km · start – end`.
  static func row(_ track: TrackSummary, dates: DateFormatter) -> String {
    let id = String(track.id.prefix(12))
    var title = track.title
    if track.kind == .route { title += " (route)" }
    var details = [count(track.pointCount, "point"), String(format: "%.2f km", track.lengthMeters / 1000)]
    if let start = track.start, let end = track.end {
      details.append("\(dates.string(from: start)) – \(dates.string(from: end))")
    } else {
      details.append("no times")
    }
    let indent = String(repeating: " ", count: id.count)
    return "  \(id)  \(title)\n  \(indent)  \(details.joined(separator: " · "))\n"
  }

  private static func json(_ track: TrackSummary) -> JSONValue {
    .object([
      .init("id", .string(track.id)), .init("name", .string(track.name)),
      .init("kind", .string(track.kind.rawValue)), .init("category", .string(track.category)),
      .init("points", .number(Double(track.pointCount))),
      .init("lengthKm", .number((track.lengthMeters).rounded() / 1000)),
      .init("start", track.start.map { .string(ISO8601Date.format($0)) } ?? .null),
      .init("end", track.end.map { .string(ISO8601Date.format($0)) } ?? .null),
    ])
  }
}
