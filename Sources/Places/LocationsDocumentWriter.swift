import Foundation
import JSON
import MapMath

/// A locations file written a piece at a time, for a store too large to hold in memory: `start`, then
/// `place` for each place, then `track` for each track (in the order of `trackPasses`), then `finish`,
/// each appending UTF-8 to a buffer the caller writes out as it likes. The pieces together are exactly
/// what `LocationsFile.encode` gives for the same set, which is written this way.
///
/// The user's position is written only in mymap JSON; CSV holds places only, and `track` writes nothing
/// in it.
public struct LocationsDocumentWriter {
  public let format: LocationsFormat
  private var places = 0
  private var tracks = 0

  public init(format: LocationsFormat) {
    self.format = format
  }

  /// The order tracks must come in, pass by pass: GPX puts routes before tracks; a nil kind is every
  /// track in one pass. Empty for CSV.
  public var trackPasses: [Track.Kind?] {
    switch format {
    case .mymapJSON, .geoJSON: return [nil]
    case .gpx: return [.route, .track]
    case .csv: return []
    }
  }

  /// The file's beginning, up to its first place.
  public func start(user: UserPosition?, into output: inout [UInt8]) {
    switch format {
    case .mymapJSON:
      output.append(contentsOf: "{\n".utf8)
      if let user {
        output.append(contentsOf: "  \"user\": ".utf8)
        JSONWriter.write(LocationsJSON.encode(user), indent: 1, into: &output)
        output.append(contentsOf: ",\n".utf8)
      }
      output.append(contentsOf: "  \"locations\": [".utf8)
    case .geoJSON: output.append(contentsOf: "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [".utf8)
    case .gpx: output.append(contentsOf: GPX.documentStart.utf8)
    case .csv: output.append(contentsOf: CSV.headerLine.utf8)
    }
  }

  /// The next place.
  public mutating func place(_ location: Location, into output: inout [UInt8]) {
    defer { places += 1 }
    switch format {
    case .mymapJSON:
      appendElementBreak(isFirst: places == 0, into: &output)
      JSONWriter.write(LocationsJSON.encode(location), indent: 2, into: &output)
    case .geoJSON:
      appendElementBreak(isFirst: places == 0, into: &output)
      JSONWriter.write(GeoJSON.feature(location), indent: 2, into: &output)
    case .gpx: GPX.writeWaypoint(location, into: &output)
    case .csv: CSV.writeRow(location, into: &output)
    }
  }

  /// The next track, after every place.
  public mutating func track(_ track: Track, into output: inout [UInt8]) {
    defer { tracks += 1 }
    switch format {
    case .mymapJSON:
      if tracks == 0 {
        // The places' array ends, and the tracks' (present only when there are tracks) begins.
        output.append(contentsOf: (places == 0 ? "],\n" : "\n  ],\n").utf8)
        output.append(contentsOf: "  \"tracks\": [".utf8)
      }
      appendElementBreak(isFirst: tracks == 0, into: &output)
      JSONWriter.write(LocationsJSON.encode(track), indent: 2, into: &output)
    case .geoJSON:
      appendElementBreak(isFirst: places + tracks == 0, into: &output)
      JSONWriter.write(GeoJSON.trackFeature(track), indent: 2, into: &output)
    case .gpx: GPX.writeTrack(track, into: &output)
    case .csv: break
    }
  }

  /// The file's end.
  public func finish(into output: inout [UInt8]) {
    switch format {
    case .mymapJSON:
      let elements = tracks > 0 ? tracks : places
      output.append(contentsOf: (elements == 0 ? "]\n}\n" : "\n  ]\n}\n").utf8)
    case .geoJSON: output.append(contentsOf: (places + tracks == 0 ? "]\n}\n" : "\n  ]\n}\n").utf8)
    case .gpx: output.append(contentsOf: GPX.documentEnd.utf8)
    case .csv: break
    }
  }

  /// What comes before an element of an array two levels deep.
  private func appendElementBreak(isFirst: Bool, into output: inout [UInt8]) {
    output.append(contentsOf: (isFirst ? "\n    " : ",\n    ").utf8)
  }
}

extension LocationsFile {
  /// A set of places in `format`, as UTF-8. The same set gives the same bytes (fixed order of members,
  /// columns and elements, shortest exact numbers, UTC dates, no time stamps), and reading them back gives
  /// the same places. Warnings are not written, nor is `givenIDs` (every place's id is); the user's position
  /// only in mymap JSON, the one format with a place for it.
  public static func encode(_ set: LocationSet, format: LocationsFormat) -> Data {
    var writer = LocationsDocumentWriter(format: format)
    var output: [UInt8] = []
    writer.start(user: set.user, into: &output)
    for location in set.locations { writer.place(location, into: &output) }
    for kind in writer.trackPasses {
      for track in set.tracks where kind == nil || track.kind == kind { writer.track(track, into: &output) }
    }
    writer.finish(into: &output)
    return Data(output)
  }
}
