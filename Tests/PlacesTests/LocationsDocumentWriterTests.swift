import Foundation
import MapMath
import Places
import XCTest

/// `LocationsDocumentWriter`: a file written a place and a track at a time, as `mymap export` and
/// `mymap list --json` write it, is a file that reads back as what was written, in each format.
final class LocationsDocumentWriterTests: XCTestCase {
  private let route = Track(
    id: "r", name: "Ferry", kind: .route,
    segments: [
      [TrackPoint(latitude: 60.16, longitude: 24.95), TrackPoint(latitude: 60.15, longitude: 24.98)]
    ])
  private let track = Track(
    id: "t", name: "Walk", category: "Park",
    segments: [
      [TrackPoint(latitude: 60.17, longitude: 24.94, elevation: 12, time: Date(timeIntervalSince1970: 0))],
      [TrackPoint(latitude: 60.18, longitude: 24.93)],
    ])
  private let place = Location(id: "b", latitude: 52.3731, longitude: 4.8922, category: "Bar")

  /// The pieces the writer gives for `set`, joined.
  private func written(_ set: LocationSet, format: LocationsFormat) -> String {
    var writer = LocationsDocumentWriter(format: format)
    var pieces: [[UInt8]] = [[]]
    writer.start(user: set.user, into: &pieces[0])
    for location in set.locations {
      pieces.append([])
      writer.place(location, into: &pieces[pieces.count - 1])
    }
    for kind in writer.trackPasses {
      for track in set.tracks where kind == nil || track.kind == kind {
        pieces.append([])
        writer.track(track, into: &pieces[pieces.count - 1])
      }
    }
    pieces.append([])
    writer.finish(into: &pieces[pieces.count - 1])
    return String(decoding: pieces.joined(), as: UTF8.self)
  }

  func testPlacesAloneAreWhatListJSONWrites() {
    XCTAssertEqual(written(LocationSet(), format: .mymapJSON), "{\n  \"locations\": []\n}\n")
    XCTAssertEqual(
      written(LocationSet(locations: [place]), format: .mymapJSON),
      """
      {
        "locations": [
          {
            "id": "b",
            "latitude": 52.3731,
            "longitude": 4.8922,
            "description": "",
            "category": "Bar"
          }
        ]
      }

      """)
  }

  func testTracksWithoutPlacesFollowAnEmptyArrayOfPlaces() throws {
    let set = LocationSet(
      user: UserPosition(coordinate: Coordinate(latitude: 60.17, longitude: 24.94), accuracy: 5),
      tracks: [route])
    let text = written(set, format: .mymapJSON)
    XCTAssertTrue(
      text.hasPrefix(
        """
        {
          "user": {
            "latitude": 60.17,
            "longitude": 24.94,
            "accuracy": 5
          },
          "locations": [],
          "tracks": [
            {
              "id": "r",
        """), text)
    XCTAssertTrue(text.hasSuffix("\n    }\n  ]\n}\n"), text)
    let read = try LocationsFile.read(data: Data(text.utf8), name: "t.json")
    XCTAssertEqual(read.user, set.user)
    XCTAssertEqual(read.tracks.map(\.id), ["r"])
    XCTAssertEqual(read.locations, [])
  }

  func testEachFormatReadsBackWhatWasWrittenAPieceAtATime() throws {
    for format in LocationsFormat.allCases {
      for set in [
        LocationSet(), LocationSet(locations: [place]), LocationSet(tracks: [track, route]),
        LocationSet(
          locations: [
            place,
            Location(id: "c", latitude: -33.9, longitude: 151.2, locationDescription: "Opera, \"Sydney\""),
          ], tracks: [track, route]),
      ] {
        let text = written(set, format: format)
        XCTAssertEqual(text, String(decoding: LocationsFile.encode(set, format: format), as: UTF8.self))
        let read = try LocationsFile.read(data: Data(text.utf8), name: "t.\(format.rawValue)", format: format)
        XCTAssertEqual(read.locations, set.locations, "\(format) \(set.locations.count)")
        // GPX puts routes before tracks; CSV holds no tracks.
        let tracks =
          format == .csv
          ? []
          : format == .gpx
            ? set.tracks.filter { $0.kind == .route } + set.tracks.filter { $0.kind == .track }
            : set.tracks
        XCTAssertEqual(read.tracks.map(\.id), tracks.map(\.id), "\(format) \(set.tracks.count)")
      }
    }
  }
}
