import Foundation
import TestSupport
import XCTest

/// Tracks and routes through the CLI: import, `tracks`, delete, export round trips, render, bad files.
final class TrackCommandTests: XCTestCase {
  /// A GPX file as a sports watch writes it: namespaces, extensions on every point, a route and a track.
  private func watchFile(points: Int = 20) -> String {
    var trkpts = ""
    for index in 0..<points {
      let minute = String(format: "%02d", index % 60)
      trkpts += """
        <trkpt lat="\(60.16 + Double(index) / 2000)" lon="\(24.93 + Double(index) / 1000)"><ele>\(index)</ele>\
        <time>2026-06-12T08:\(minute):00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr>\
        </gpxtpx:TrackPointExtension></extensions></trkpt>

        """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="Watch" xmlns="http://www.topografix.com/GPX/1/1" \
      xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
        <wpt lat="60.1699" lon="24.9384"><time>2026-06-12T08:00:00Z</time><name>Start</name></wpt>
        <wpt lat="60.1710" lon="24.9500"><time>2026-06-12T09:00:00Z</time><name>End</name></wpt>
        <rte><name>Plan</name><rtept lat="60.16" lon="24.93"/><rtept lat="60.17" lon="24.95"/></rte>
        <trk><name>Morning walk</name><trkseg>
      \(trkpts)</trkseg></trk>
      </gpx>
      """
  }

  func testImportListAndDeleteTracks() throws {
    let sandbox = try Sandbox()
    try sandbox.write(watchFile(), to: "watch.gpx")
    let imported = try sandbox.run(["import", "watch.gpx"])
    assertSucceeded(imported)
    XCTAssertEqual(
      imported.stdoutText, "imported 2 places (0 already in the store), 2 tracks (0 already in the store)\n")
    let list = try sandbox.run(["tracks"])
    assertSucceeded(list)
    let lines = list.stdoutText.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 4, list.stdoutText)
    XCTAssertTrue(lines[0].hasSuffix("  Plan (route)"), lines[0])
    XCTAssertTrue(lines[1].hasSuffix("2 points · 1.57 km · no times"), lines[1])
    XCTAssertTrue(lines[2].hasSuffix("  Morning walk"), lines[2])
    // Foundation puts a narrow no-break space before AM and PM.
    XCTAssertEqual(
      lines[3].replacingOccurrences(of: "\u{202F}", with: " ").trimmingCharacters(in: .whitespaces),
      "20 points · 1.49 km · Jun 12, 2026 at 8:00 AM – Jun 12, 2026 at 8:19 AM")

    let json = try sandbox.run(["tracks", "--json"])
    assertSucceeded(json)
    let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
    let tracks = try XCTUnwrap(object?["tracks"] as? [[String: Any]])
    XCTAssertEqual(tracks.map { $0["name"] as? String }, ["Plan", "Morning walk"])
    XCTAssertEqual(tracks[1]["points"] as? Int, 20)
    XCTAssertEqual(tracks[1]["kind"] as? String, "track")
    XCTAssertEqual(tracks[1]["start"] as? String, "2026-06-12T08:00:00Z")
    XCTAssertEqual(tracks[1]["end"] as? String, "2026-06-12T08:19:00Z")
    XCTAssertEqual(tracks[0]["start"] as? NSNull, NSNull())
    let id = try XCTUnwrap(tracks[1]["id"] as? String)

    // --since keeps tracks whose times reach it; a track without times is outside every range.
    let since = try sandbox.run(["tracks", "--json", "--since", "2026-06-12"])
    XCTAssertTrue(since.stdoutText.contains("Morning walk") && !since.stdoutText.contains("Plan"))

    let deleted = try sandbox.run(["delete", String(id.prefix(10))])
    assertSucceeded(deleted)
    XCTAssertEqual(deleted.stdoutText, "deleted 0 places and 1 track\n")
    let unknown = try sandbox.run(["delete", "nothing-like-it"])
    assertFailed(unknown, status: 2, message: "no place with id 'nothing-like-it'")
    XCTAssertEqual(
      try sandbox.run(["tracks", "--json"]).stdoutText.components(separatedBy: "\"id\"").count, 2)
  }

  func testExportRoundTripsInGPXAndGeoJSON() throws {
    let source = try Sandbox()
    try source.write(watchFile(), to: "watch.gpx")
    assertSucceeded(try source.run(["import", "watch.gpx"]))
    let listed = try source.run(["tracks", "--json"]).stdoutText
    for format in ["gpx", "geojson", "json"] {
      let export = try source.run(["export", "--out", "all.\(format)"])
      assertSucceeded(export)
      let target = try Sandbox()
      try target.write(try XCTUnwrap(source.contents(of: "all.\(format)")), to: "all.\(format)")
      assertSucceeded(try target.run(["import", "all.\(format)"]))
      XCTAssertEqual(try target.run(["tracks", "--json"]).stdoutText, listed, format)
      // Importing the export into the store it came from adds nothing.
      let again = try source.run(["import", "all.\(format)"])
      XCTAssertTrue(again.stdoutText.hasSuffix("0 tracks (2 already in the store)\n"), again.stdoutText)
    }
    let csv = try source.run(["export", "--out", "all.csv"])
    XCTAssertEqual(csv.status, 0)
    XCTAssertEqual(csv.stderr, "mymap: warning: CSV holds places only: 2 tracks not written\n")
  }

  func testBadTrackPointsImportNothing() throws {
    let sandbox = try Sandbox()
    let bad = watchFile().replacingOccurrences(of: "<ele>7</ele>", with: "<ele>seven</ele>")
    try sandbox.write(bad, to: "bad.gpx")
    let result = try sandbox.run(["import", "bad.gpx"])
    assertFailed(
      result, status: 3, prefix: "bad.gpx:", containing: ["ele \"seven\" is not a height in metres"])
    XCTAssertFalse(sandbox.storeExists)
    let render = try sandbox.run(["render", "--locations", "bad.gpx", "--out", "map.png"])
    XCTAssertEqual(render.status, 3)
    XCTAssertNil(sandbox.contents(of: "map.png"))
  }

  func testRenderDrawsTracksAndTheRouteAndListsThem() throws {
    let sandbox = try Sandbox()
    try sandbox.write(watchFile(), to: "watch.gpx")
    let result = try sandbox.run([
      "render", "--locations", "watch.gpx", "--route", "--size", "400x300", "--layout-json", "-",
      "--out", "map.png",
    ])
    assertSucceeded(result)
    let layout = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let tracks = try XCTUnwrap(layout["tracks"] as? [[String: Any]])
    XCTAssertEqual(tracks.map { $0["name"] as? String }, ["Plan", "Morning walk", "Route"])
    for track in tracks {
      let rect = try XCTUnwrap(track["rect"] as? [String: Double])
      XCTAssertGreaterThanOrEqual(rect["x"]!, 0)
      XCTAssertLessThanOrEqual(rect["x"]! + rect["width"]!, 400)
      XCTAssertGreaterThan(track["pointsDrawn"] as? Int ?? 0, 1)
    }
    // Filters: the planned route has no times, so a date filter leaves it out.
    let filtered = try sandbox.run([
      "render", "--locations", "watch.gpx", "--since", "2026-06-12", "--layout-json", "-", "--out", "f.png",
    ])
    let names = (try JSONSerialization.jsonObject(with: filtered.stdout) as? [String: Any])?["tracks"]
    XCTAssertEqual((names as? [[String: Any]])?.map { $0["name"] as? String }, ["Morning walk"])
  }

  func testOnlyATrackStillMakesAMap() throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      #"{"tracks": [{"name": "Ride", "segments": [[{"latitude": 60.1, "longitude": 24.9},"#
        + #" {"latitude": 60.2, "longitude": 25.0}]]}]}"#, to: "ride.json")
    let result = try sandbox.run(["render", "--locations", "ride.json", "--out", "ride.png"])
    assertSucceeded(result)
    XCTAssertNotNil(pngSize(try XCTUnwrap(sandbox.contents(of: "ride.png"))))
  }

  func testTheRouteJoinsThePlacesInDateOrder() throws {
    let sandbox = try Sandbox()
    // In the file: A, B, C, then an undated D far away. By date: B, C, A; D is left out of the route.
    try sandbox.write(
      """
      {"locations": [
        {"id": "a", "latitude": 0, "longitude": 0, "date": "2026-01-03"},
        {"id": "b", "latitude": 0, "longitude": 1, "date": "2026-01-01"},
        {"id": "c", "latitude": 0, "longitude": 2, "date": "2026-01-02"},
        {"id": "d", "latitude": 0, "longitude": 10}
      ]}
      """, to: "places.json")
    let result = try sandbox.run([
      "render", "--locations", "places.json", "--route", "--layout-json", "-", "--out", "map.png",
    ])
    assertSucceeded(result)
    let layout = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let route = try XCTUnwrap((layout["tracks"] as? [[String: Any]])?.first)
    XCTAssertEqual(route["id"] as? String, "route")
    // B→C is one degree of the equator, C→A two: 3 × 111.195 km (file order would be 2 degrees).
    XCTAssertEqual(try XCTUnwrap(route["lengthKm"] as? Double), 333.585, accuracy: 0.01)
  }

  func testAStoreOfTheVersionBeforeTracksIsBroughtUpToDateOnFirstRead() throws {
    let sandbox = try Sandbox()
    try sandbox.add(["--lat", "60.17", "--lon", "24.94", "--description", "Kept"])
    // Back to schema 1 as the mymap before tracks left it: no track table, the content index without
    // the description, user_version 1.
    try sqliteExecute(
      sandbox.storePath,
      "DROP TABLE track; DROP INDEX location_content;"
        + " CREATE INDEX location_content ON location (latitude, longitude, date); PRAGMA user_version = 1;")
    let tracks = try sandbox.run(["tracks"])
    assertSucceeded(tracks)
    XCTAssertEqual(tracks.stdoutText, "")
    XCTAssertEqual(try sqliteRows(sandbox.storePath, "PRAGMA user_version"), [["3"]])
    XCTAssertEqual(try sandbox.listJSON().map { $0["description"] as? String }, ["Kept"])
  }
}
