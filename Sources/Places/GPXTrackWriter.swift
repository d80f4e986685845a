import JSON

extension GPX {
  /// Routes (`rte`), then tracks (`trk`), as GPX 1.1 orders them after the waypoints: the name, `desc`,
  /// `type` (a category other than `No Category`), mymap's `id` extension, then the points with `ele` and
  /// `time` where known. Reading it back gives the same tracks.
  static func encodeTracks(_ tracks: [Track]) -> String {
    var output = ""
    for kind in [Track.Kind.route, .track] {
      for track in tracks where track.kind == kind {
        let element = kind == .track ? "trk" : "rte"
        output += "  <\(element)>\n"
        if !track.name.isEmpty { output += "    <name>\(escaped(track.name))</name>\n" }
        if !track.trackDescription.isEmpty {
          output += "    <desc>\(escaped(track.trackDescription))</desc>\n"
        }
        if track.category != Category.default.name {
          output += "    <type>\(escaped(track.category))</type>\n"
        }
        output += "    <extensions><mymap:id>\(escaped(track.id))</mymap:id></extensions>\n"
        if kind == .track {
          for segment in track.segments {
            output += "    <trkseg>\n"
            for point in segment { output += pointElement("trkpt", point, indent: "      ") }
            output += "    </trkseg>\n"
          }
        } else {
          for point in track.points { output += pointElement("rtept", point, indent: "    ") }
        }
        output += "  </\(element)>\n"
      }
    }
    return output
  }

  private static func pointElement(_ name: String, _ point: TrackPoint, indent: String) -> String {
    var text =
      "\(indent)<\(name) lat=\"\(JSONWriter.numberText(point.latitude))\""
      + " lon=\"\(JSONWriter.numberText(point.longitude))\""
    guard point.elevation != nil || point.time != nil else { return text + "/>\n" }
    text += ">"
    if let elevation = point.elevation { text += "<ele>\(JSONWriter.numberText(elevation))</ele>" }
    if let time = point.time { text += "<time>\(ISO8601Date.format(time))</time>" }
    return text + "</\(name)>\n"
  }
}
