import JSON

extension GPX {
  /// Appends a route (`rte`) or track (`trk`): the name, `desc`, `type` (a category other than
  /// `No Category`), mymap's `id` extension, then the points with `ele` and `time` where known. Reading it
  /// back gives the same track. GPX 1.1 puts the routes before the tracks, both after the waypoints
  /// (`LocationsDocumentWriter.trackPasses`).
  static func writeTrack(_ track: Track, into output: inout [UInt8]) {
    let element = track.kind == .track ? "trk" : "rte"
    var text = "  <\(element)>\n"
    if !track.name.isEmpty { text += "    <name>\(escaped(track.name))</name>\n" }
    if !track.trackDescription.isEmpty {
      text += "    <desc>\(escaped(track.trackDescription))</desc>\n"
    }
    if track.category != Category.default.name {
      text += "    <type>\(escaped(track.category))</type>\n"
    }
    text += "    <extensions><mymap:id>\(escaped(track.id))</mymap:id></extensions>\n"
    output.append(contentsOf: text.utf8)
    if track.kind == .track {
      for segment in track.segments {
        output.append(contentsOf: "    <trkseg>\n".utf8)
        for point in segment {
          output.append(contentsOf: pointElement("trkpt", point, indent: "      ").utf8)
        }
        output.append(contentsOf: "    </trkseg>\n".utf8)
      }
    } else {
      for point in track.points {
        output.append(contentsOf: pointElement("rtept", point, indent: "    ").utf8)
      }
    }
    output.append(contentsOf: "  </\(element)>\n".utf8)
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
