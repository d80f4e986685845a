import Foundation
import XCTest

@testable import Places

/// Tracks and routes read from GPX, GeoJSON and mymap JSON, files of other tools and hostile ones.
final class TrackReadingTests: XCTestCase {
  func testAGPXTrackWithSegmentsTimesAndElevation() throws {
    let set = try readText(
      gpx(
        """
        <trk><name>Walk</name><desc>Along the shore</desc><type>Park</type>
          <trkseg>
            <trkpt lat="60.1" lon="24.9"><ele>12.5</ele><time>2026-07-14T08:00:00Z</time></trkpt>
            <trkpt lat="60.2" lon="24.95"><time>2026-07-14T08:10:00+03:00</time></trkpt>
          </trkseg>
          <trkseg><trkpt lat="60.3" lon="25"/></trkseg>
        </trk>
        """), name: "walk.gpx")
    XCTAssertEqual(set.locations, [])
    let track = try XCTUnwrap(set.tracks.first)
    XCTAssertEqual(track.name, "Walk")
    XCTAssertEqual(track.trackDescription, "Along the shore")
    XCTAssertEqual(track.category, "Park")
    XCTAssertEqual(track.kind, .track)
    XCTAssertEqual(track.segments.map(\.count), [2, 1])
    XCTAssertEqual(track.segments[0][0].elevation, 12.5)
    XCTAssertEqual(track.segments[0][1].time, utc(2026, 7, 14, 5, 10))
    XCTAssertEqual(track.timeSpan, utc(2026, 7, 14, 5, 10)...utc(2026, 7, 14, 8))
    XCTAssertEqual(set.givenIDs, [])
  }

  func testAStravaStyleFileWithNamespacesAndExtensions() throws {
    // Garmin's TrackPointExtension (heart rate, cadence) in its own namespace, metadata, a default
    // namespace prefix on everything: all skipped but the points.
    var points = ""
    for index in 0..<50 {
      points += """
        <g:trkpt lat="\(60 + Double(index) / 1000)" lon="24.9"><g:ele>\(index)</g:ele>\
        <g:time>2026-07-14T08:\(String(format: "%02d", index)):00Z</g:time><g:extensions><tp:TrackPointExtension>\
        <tp:hr>\(100 + index)</tp:hr><tp:cad>80</tp:cad></tp:TrackPointExtension></g:extensions></g:trkpt>

        """
    }
    let text = """
      <?xml version="1.0"?>
      <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" \
      xmlns:tp="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" version="1.1" creator="StravaGPX">
      <g:metadata><g:name>Morning Run</g:name><g:time>2026-07-14T08:00:00Z</g:time></g:metadata>
      <g:trk><g:name>Morning Run</g:name><g:type>running</g:type><g:trkseg>
      \(points)</g:trkseg></g:trk></g:gpx>
      """
    let set = try readText(text, name: "strava.gpx")
    XCTAssertEqual(set.tracks.map(\.name), ["Morning Run"])
    XCTAssertEqual(set.tracks[0].pointCount, 50)
    XCTAssertEqual(set.tracks[0].segments[0][49].elevation, 49)
    XCTAssertEqual(set.tracks[0].category, "running")
    XCTAssertEqual(set.warnings.count, 1, "the unknown category")
  }

  func testMissingTimesAndTimesWithoutAZone() throws {
    let set = try readText(
      gpx(
        """
        <trk><trkseg><trkpt lat="1" lon="2"><time>2026-01-01T10:00:00</time></trkpt>
        <trkpt lat="1" lon="3"><time>2026-01-01T10:05:00</time></trkpt><trkpt lat="1" lon="4"/></trkseg></trk>
        """), name: "t.gpx")
    XCTAssertEqual(set.tracks[0].segments[0].map(\.time), [utc(2026, 1, 1, 10), utc(2026, 1, 1, 10, 5), nil])
    XCTAssertEqual(set.warnings, ["line 3: 2 point times have no time zone; read as UTC"])
  }

  func testAHundredThousandPointTrackReadsQuickly() throws {
    var text = #"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg>"#
    text.reserveCapacity(7_000_000)
    for index in 0..<100_000 {
      text += #"<trkpt lat="\#(Double(index % 1000) / 1000)" lon="\#(Double(index / 1000) / 100)"/>"# + "\n"
    }
    text += "</trkseg></trk></gpx>"
    let start = Date()
    let set = try readText(text, name: "long.gpx")
    XCTAssertEqual(set.tracks.map(\.pointCount), [100_000])
    XCTAssertLessThan(Date().timeIntervalSince(start), 30)
  }

  func testBadTrackPointsFailWithOneLine() {
    XCTAssertEqual(
      errorLine(gpx(#"<trk><trkseg><trkpt lat="91" lon="0"/></trkseg></trk>"#), name: "t.gpx"),
      "t.gpx:3: trkpt lat 91 is outside -90…90")
    XCTAssertEqual(
      errorLine(gpx(#"<rte><rtept lon="0"/></rte>"#), name: "t.gpx"), "t.gpx:3: rtept has no lat attribute")
    XCTAssertEqual(
      errorLine(
        gpx(#"<trk><trkseg><trkpt lat="1" lon="0"><time>yesterday</time></trkpt></trkseg></trk>"#),
        name: "t.gpx"),
      "t.gpx:3: time \"yesterday\" is not an ISO 8601 date (expected e.g. \"2026-11-29T10:00:00Z\")")
    XCTAssertEqual(
      errorLine(
        gpx(#"<trk><trkseg><trkpt lat="1" lon="0"><ele>high</ele></trkpt></trkseg></trk>"#), name: "t.gpx"),
      "t.gpx:3: ele \"high\" is not a height in metres")
    XCTAssertTrue(
      errorLine(gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"0\"></trkseg></trk>"), name: "t.gpx")
        .hasPrefix("t.gpx:3: malformed XML"))
  }

  func testTheLimitsAreCheckedAsPointsArrive() {
    // A file past them would take a minute to write and read in a debug build: the check itself, then a
    // GeoJSON line past the per-track limit, which is counted before any point is read.
    let collector = TrackCollector()
    XCTAssertNoThrow(try collector.checkRoom(forPoint: InputLimits.maximumTrackPoints - 1))
    XCTAssertThrowsError(try collector.checkRoom(forPoint: InputLimits.maximumTrackPoints)) { error in
      XCTAssertEqual(
        (error as? RecordProblem)?.message,
        "the track has more than 1000000 points, the most one track may have")
    }
    let positions = Array(repeating: "[1,2]", count: InputLimits.maximumTrackPoints + 1).joined(
      separator: ",")
    XCTAssertEqual(
      errorLine(
        #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [\#(positions)]}}"#,
        name: "huge.geojson"),
      "huge.geojson: feature 1: the line has more than 1000000 points, the most one track may have")
  }

  func testGeoJSONLinesWithTimesAndElevation() throws {
    let text = """
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": "ferry", "geometry": {"type": "LineString",
          "coordinates": [[24.95, 60.16, 3], [24.98, 60.15]]},
         "properties": {"name": "Ferry", "kind": "route", "coordTimes": ["2026-07-14T09:00:00Z", null]}},
        {"type": "Feature", "geometry": {"type": "MultiLineString",
          "coordinates": [[[1, 2], [3, 4]], [[5, 6]]]}, "properties": {"title": "Two parts"}}
      ]}
      """
    let set = try readText(text, name: "lines.geojson")
    XCTAssertEqual(set.tracks.map(\.id).first, "ferry")
    XCTAssertEqual(set.tracks[0].kind, .route)
    XCTAssertEqual(
      set.tracks[0].segments,
      [
        [
          TrackPoint(latitude: 60.16, longitude: 24.95, elevation: 3, time: utc(2026, 7, 14, 9)),
          TrackPoint(latitude: 60.15, longitude: 24.98),
        ]
      ])
    XCTAssertEqual(set.tracks[1].name, "Two parts")
    XCTAssertEqual(set.tracks[1].segments.map(\.count), [2, 1])
  }

  func testBadGeoJSONLinesNameTheFeature() {
    func collection(_ feature: String) -> String {
      #"{"type": "FeatureCollection", "features": [\#(feature)]}"#
    }
    XCTAssertEqual(
      errorLine(collection(#"{"type": "Feature", "geometry": {"type": "LineString"}}"#), name: "x.geojson"),
      "x.geojson: feature 1: the LineString has no coordinates array")
    XCTAssertEqual(
      errorLine(
        collection(#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 95]]}}"#),
        name: "x.geojson"),
      "x.geojson: feature 1: latitude 95.0 is outside -90…90")
    XCTAssertEqual(
      errorLine(
        collection(
          #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2]]},"#
            + #" "properties": {"coordTimes": ["2026-01-01", "2026-01-02"]}}"#), name: "x.geojson"),
      "x.geojson: feature 1: properties.coordTimes must have one time for each position")
    XCTAssertEqual(
      errorLine(
        collection(#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [7]}}"#),
        name: "x.geojson"),
      "x.geojson: feature 1: a position must be [longitude, latitude], not the number 7")
  }

  func testMymapJSONTracks() throws {
    let text = """
      {"tracks": [{"id": "t1", "name": "Ride", "kind": "route", "segments": [[
        {"latitude": 1, "longitude": 2, "elevation": 5, "time": "2026-01-01T00:00:00Z"},
        {"latitude": 1.5, "longitude": 2.5}]]}]}
      """
    let set = try readText(text)
    XCTAssertEqual(
      set.tracks,
      [
        Track(
          id: "t1", name: "Ride", kind: .route,
          segments: [
            [
              TrackPoint(latitude: 1, longitude: 2, elevation: 5, time: utc(2026, 1, 1)),
              TrackPoint(latitude: 1.5, longitude: 2.5),
            ]
          ])
      ])
    XCTAssertEqual(
      errorLine(#"{"tracks": [{"segments": [[{"latitude": 1}]]}]}"#),
      "europe.json: track 1: longitude is missing")
    XCTAssertEqual(errorLine(#"{"tracks": {}}"#), "europe.json: \"tracks\" must be an array, not an object")
    XCTAssertEqual(
      errorLine(
        #"{"tracks": [{"id": "a", "segments": [[{"latitude": 1, "longitude": 2}]]},"#
          + #" {"id": "a", "segments": [[{"latitude": 1, "longitude": 3}]]}]}"#),
      "europe.json: track 2: duplicate track id \"a\" (track 1 has it too)")
  }

  func testTheSameTrackTwiceGetsDistinctDerivedIDs() throws {
    let trk = #"<trk><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk>"#
    let set = try readText(gpx(trk + trk), name: "t.gpx")
    XCTAssertEqual(set.tracks.count, 2)
    XCTAssertEqual(set.tracks[1].id, set.tracks[0].id + "-2")
    // Derived from the content: the same on every read.
    XCTAssertEqual(try readText(gpx(trk), name: "t.gpx").tracks[0].id, set.tracks[0].id)
  }

  func testRoundTripsInEveryFormatThatHoldsTracks() throws {
    let original = LocationSet(
      locations: [Location(id: "p", latitude: 1, longitude: 2, locationDescription: "Place")],
      tracks: [
        Track(
          id: "r1", name: "Plan <A & B>", kind: .route, category: "Park",
          segments: [
            [TrackPoint(latitude: 1, longitude: 2), TrackPoint(latitude: 3, longitude: 4, elevation: 7)]
          ]),
        Track(
          id: "t1", name: "Walk", trackDescription: "Two parts",
          segments: [
            [TrackPoint(latitude: -1, longitude: 179.5, time: utc(2026, 2, 3, 4, 5, 6.5))],
            [TrackPoint(latitude: -1.5, longitude: -179.5, elevation: -3.25)],
          ]),
      ])
    for format in [LocationsFormat.mymapJSON, .geoJSON, .gpx] {
      let data = LocationsFile.encode(original, format: format)
      let back = try LocationsFile.read(data: data, name: "x.\(format.rawValue)")
      XCTAssertEqual(back.tracks, original.tracks, "\(format)")
      XCTAssertEqual(back.locations, original.locations, "\(format)")
    }
  }
}
