import Foundation
import JSON

/// The locations file formats mymap reads and writes. The raw value is the usual file extension.
public enum LocationsFormat: String, Sendable, CaseIterable {
  /// mymap's own exchange format (ARCHITECTURE.md §5).
  case mymapJSON = "json"
  /// A GeoJSON FeatureCollection or Feature of points.
  case geoJSON = "geojson"
  /// GPX 1.0 or 1.1: waypoints are places, tracks and routes are tracks (see `GPX`).
  case gpx
  /// Comma-separated values with a header row naming the columns (see `CSV`).
  case csv

  /// The format a file name's extension announces (`.json`, `.geojson`, `.gpx`, `.csv`, any case); nil for
  /// others.
  public init?(fileName: String) {
    self.init(rawValue: fileExtension(fileName))
  }

  /// The format of parsed content: an object whose `type` is `FeatureCollection` or `Feature` is GeoJSON,
  /// an object with `locations`, `tracks` or `user` is mymap JSON; nil for anything else.
  public static func detect(_ document: JSONValue) -> LocationsFormat? {
    guard case .object = document else { return nil }
    if document["type"] == .string("FeatureCollection") || document["type"] == .string("Feature") {
      return .geoJSON
    }
    if document["locations"] != nil || document["user"] != nil || document["tracks"] != nil {
      return .mymapJSON
    }
    return nil
  }

  /// What this format's top level looks like, for error messages.
  var expectedContent: String {
    switch self {
    case .mymapJSON: return "an object with \"locations\" (mymap JSON)"
    case .geoJSON: return "a GeoJSON FeatureCollection or Feature"
    case .gpx: return "a GPX file (XML with a <gpx> root element)"
    case .csv: return "CSV with a header row naming latitude and longitude columns"
    }
  }

  static let eitherContent =
    "an object with \"locations\" (mymap JSON) or a GeoJSON FeatureCollection or Feature"

  /// Every format, for messages about a file that is none of them.
  static let anyContent = "mymap locations JSON, GeoJSON, GPX or CSV"

  /// What the first bytes of a file say it is; nil when they say nothing certain. `bytes` start after any
  /// byte order mark and white space.
  ///
  /// `<` is XML (GPX), `{` or `[` is JSON (mymap or GeoJSON, told apart once parsed), and a first line that
  /// reads as a CSV header with latitude and longitude columns is CSV.
  static func sniff(_ bytes: ArraySlice<UInt8>) -> ContentKind? {
    switch bytes.first {
    case UInt8(ascii: "<"): return .xml
    case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
    default: return CSV.looksLikeHeader(bytes) ? .csv : nil
    }
  }

  /// The families `sniff` tells apart.
  enum ContentKind {
    case xml
    case json
    case csv
  }

  /// The family this format belongs to.
  var contentKind: ContentKind {
    switch self {
    case .mymapJSON, .geoJSON: return .json
    case .gpx: return .xml
    case .csv: return .csv
    }
  }

  /// What a message says a file that is none of the formats holds: `text starting with "hello"`.
  static func describeUnrecognized(bytes: ArraySlice<UInt8>) -> String {
    if CoreDataStore.looksLikeCoreDataStore(Data(bytes.prefix(16))) { return "an SQLite database" }
    let head = bytes.prefix(200)
    if head.contains(0) { return "binary data" }
    let line = String(decoding: head, as: UTF8.self).prefix { $0 != "\n" && $0 != "\r" }
    let shown = line.count > 40 ? String(line.prefix(40)) + "…" : String(line)
    return "text starting with \(JSONWriter.quotedExcerpt(shown))"
  }

  /// What a message says was found instead of either format.
  static func describeUnrecognized(_ document: JSONValue) -> String {
    guard case .object(let members) = document else { return document.summary }
    switch detect(document) {
    case .geoJSON: return "GeoJSON"
    case .mymapJSON: return "mymap locations JSON"
    case nil, .gpx, .csv: break  // `detect` reads JSON only
    }
    if case .string(let type) = document["type"] {
      let geometries = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
        "GeometryCollection",
      ]
      if geometries.contains(type) { return "a GeoJSON \(type) geometry (wrap it in a Feature)" }
      return "an object whose \"type\" is \(JSONWriter.quotedExcerpt(type))"
    }
    guard !members.isEmpty else { return "an empty object" }
    let names = members.prefix(3).map { JSONWriter.quotedExcerpt($0.name) }.joined(separator: ", ")
    return "an object with members \(names)\(members.count > 3 ? ", …" : "")"
  }
}

/// The lowercased extension of a file name or path, without the dot; empty when there is none.
func fileExtension(_ fileName: String) -> String {
  let name = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
  return name[name.index(after: dot)...].lowercased()
}
