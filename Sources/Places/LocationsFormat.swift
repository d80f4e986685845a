import JSON

/// The locations file formats mymap reads.
public enum LocationsFormat: String, Sendable, CaseIterable {
  /// mymap's own exchange format (DESIGN.md §4).
  case mymapJSON = "json"
  /// A GeoJSON FeatureCollection or Feature of points.
  case geoJSON = "geojson"

  /// The format a file name's extension announces (`.json`, `.geojson`, any case); nil for others.
  public init?(fileName: String) {
    self.init(rawValue: fileExtension(fileName))
  }

  /// The format of parsed content: an object whose `type` is `FeatureCollection` or `Feature` is GeoJSON,
  /// an object with `locations` or `user` is mymap JSON; nil for anything else.
  public static func detect(_ document: JSONValue) -> LocationsFormat? {
    guard case .object = document else { return nil }
    if document["type"] == .string("FeatureCollection") || document["type"] == .string("Feature") {
      return .geoJSON
    }
    if document["locations"] != nil || document["user"] != nil { return .mymapJSON }
    return nil
  }

  /// What this format's top level looks like, for error messages.
  var expectedContent: String {
    switch self {
    case .mymapJSON: return "an object with \"locations\" (mymap JSON)"
    case .geoJSON: return "a GeoJSON FeatureCollection or Feature"
    }
  }

  static let eitherContent =
    "an object with \"locations\" (mymap JSON) or a GeoJSON FeatureCollection or Feature"

  /// What a message says was found instead of either format.
  static func describeUnrecognized(_ document: JSONValue) -> String {
    guard case .object(let members) = document else { return document.summary }
    switch detect(document) {
    case .geoJSON: return "GeoJSON"
    case .mymapJSON: return "mymap locations JSON"
    case nil: break
    }
    if case .string(let type) = document["type"] {
      let geometries = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
        "GeometryCollection",
      ]
      if geometries.contains(type) { return "a GeoJSON \(type) geometry (wrap it in a Feature)" }
      return "an object whose \"type\" is \(JSONWriter.quoted(type))"
    }
    guard !members.isEmpty else { return "an empty object" }
    let names = members.prefix(3).map { JSONWriter.quoted($0.name) }.joined(separator: ", ")
    return "an object with members \(names)\(members.count > 3 ? ", …" : "")"
  }
}

/// The lowercased extension of a file name or path, without the dot; empty when there is none.
func fileExtension(_ fileName: String) -> String {
  let name = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
  return name[name.index(after: dot)...].lowercased()
}
