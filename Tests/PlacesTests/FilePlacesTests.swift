import Foundation
import MapMath
import TestSupport
import XCTest

@testable import Places

/// A JSON file's places read in two steps for a map (`LocationsFile.readInTwoSteps`, `FilePlaces`): the
/// places a whole read gives, with its ids, filtered and by date, their texts read again from the file.
final class FilePlacesTests: XCTestCase {
  /// Given and derived ids (one derived id taken by a later given one, the same place twice), dates out of
  /// order, two places of one date, undated places, a track, a user, a warning.
  private var trickyJSON: String {
    let derivedB = Location.derivedID(latitude: 10, longitude: 20, locationDescription: "B", date: nil)
    return """
      {"tracks": [{"name": "walk", "segments": [[{"latitude": 1, "longitude": 2}, {"latitude": 1.1, "longitude": 2.1}]]}],
       "user": {"latitude": 5, "longitude": 6},
       "locations": [
         {"id": "p1", "latitude": 1, "longitude": 1, "description": "A", "date": "2026-05-01T10:00:00Z"},
         {"latitude": 10, "longitude": 20, "description": "B"},
         {"latitude": 10, "longitude": 20, "description": "B", "category": "Bar"},
         {"id": "\(derivedB)", "latitude": 11, "longitude": 21, "description": "D", "category": "Kiosk",
          "date": "2026-03-01T10:00:00Z"},
         {"id": "p5", "latitude": 2, "longitude": 2, "description": "E", "date": "2026-03-01T10:00:00Z",
          "placemark": {"thoroughfare": "Kaivokatu", "locality": "Helsinki"}},
         {"id": "p6", "latitude": -3, "longitude": 170, "description": "F", "category": "Park",
          "date": "2025-12-24T18:00:00Z"}]}
      """
  }

  private var trickyGeoJSON: String {
    """
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [20, 10]},
       "properties": {"name": "B", "date": "2026-02-01T00:00:00Z"}},
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}, "properties": {}},
      {"type": "Feature", "id": "g2", "geometry": {"type": "Point", "coordinates": [21, 11]},
       "properties": {"title": "C", "category": "Bar"}},
      {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}, "properties": {}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [20, 10]},
       "properties": {"name": "B", "date": "2026-02-01T00:00:00Z"}}]}
    """
  }

  /// What `render` made of a whole read: the places `including` keeps, by date, undated last.
  private func byDate(_ locations: [Location], _ including: (Location) -> Bool) -> [Location] {
    locations.filter(including).enumerated().sorted { a, b in
      let (first, second) = (a.element.date ?? .distantFuture, b.element.date ?? .distantFuture)
      return first != second ? first < second : a.offset < b.offset
    }.map(\.element)
  }

  func testTheSamePlacesIdsTracksAndWarningsAsAWholeRead() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-file-places")
    let filters: [(String, (Location) -> Bool)] = [
      ("all", { _ in true }), ("bars", { $0.category == "Bar" }), ("dated", { $0.date != nil }),
      ("none", { _ in false }),
    ]
    for (name, text) in [("tricky.json", trickyJSON), ("tricky.geojson", trickyGeoJSON)] {
      let path = try folder.write(text, to: name).path
      let whole = try LocationsFile.read(path: path)
      for (filterName, including) in filters {
        let (set, places) = try XCTUnwrap(LocationsFile.readInTwoSteps(path: path, including: including))
        let expected = byDate(whole.locations, including)
        let all = Array(0..<places.count)
        XCTAssertEqual(try places.locations(at: all), expected, "\(name) \(filterName)")
        XCTAssertEqual(places.coordinates, expected.map(\.coordinate), "\(name) \(filterName)")
        XCTAssertEqual(try places.identifiers(at: all.reversed()), expected.map(\.id).reversed())
        XCTAssertEqual(places.inListOrder(all), all)
        XCTAssertEqual(
          places.datedInOrder().map(\.date), expected.compactMap(\.date), "\(name) \(filterName)")
        XCTAssertEqual(set.locations, [])
        XCTAssertEqual(set.user, whole.user)
        XCTAssertEqual(set.tracks, whole.tracks)
        XCTAssertEqual(set.warnings, whole.warnings)
      }
      XCTAssertFalse(whole.warnings.isEmpty, name)
    }
    // A place asked for twice, and out of order, is read twice.
    let path = folder.url("tricky.json").path
    let (_, places) = try XCTUnwrap(LocationsFile.readInTwoSteps(path: path, including: { _ in true }))
    XCTAssertEqual(
      try places.locations(at: [3, 0, 3]).map(\.locationDescription), ["A", "F", "A"])
    XCTAssertEqual(
      try places.locations(at: [2]).first?.placemark?.thoroughfare, "Kaivokatu")
  }

  func testAWholeReadsErrorsComeOutTheSame() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-file-places")
    for text in [
      #"{"locations": [{"id": "a", "latitude": 1, "longitude": 2}, {"id": "a", "latitude": 1, "longitude": 3}]}"#,
      #"{"locations": [{"latitude": 1}]}"#,
      #"{"locations": [{"latitude": 1, "longitude": 2}], "user": {"latitude": 99, "longitude": 0}}"#,
      #"{"locations": [{"latitude": 1, "longitude": 2}], "tracks": [{"segments": 5}]}"#,
      #"{"locations": [{"latitude": 1, "longitude": 2},]}"#,
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point"}}]}"#,
    ] {
      let path = try folder.write(text, to: "bad.json").path
      var whole: (any Error)?
      var inTwoSteps: (any Error)?
      do { _ = try LocationsFile.read(path: path) } catch { whole = error }
      do { _ = try LocationsFile.readInTwoSteps(path: path, including: { _ in true }) } catch {
        inTwoSteps = error
      }
      XCTAssertNotNil(whole, text)
      XCTAssertEqual(inTwoSteps.map { "\($0)" }, whole.map { "\($0)" }, text)
    }
  }

  func testOtherFilesAreLeftToTheWholeRead() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-file-places")
    let files = [
      ("p.csv", "latitude,longitude\n1,2\n"),
      ("p.gpx", #"<gpx version="1.1" creator="t"><wpt lat="1" lon="2"/></gpx>"#),
      ("feature.json", #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 1]}}"#),
    ]
    for (name, text) in files {
      let path = try folder.write(text, to: name).path
      XCTAssertNil(try LocationsFile.readInTwoSteps(path: path, including: { _ in true }), name)
      XCTAssertEqual(try LocationsFile.read(path: path).locations.count, 1, name)
    }
  }

  /// The texts are read again when drawn: a file changed in place in between is an error, not a wrong map.
  func testAFileChangedUnderTheMapIsAnError() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-file-places")
    let text = #"{"locations": [{"id": "a", "latitude": 1, "longitude": 2, "description": "first"}]}"#
    let url = try folder.write(text, to: "p.json")
    let (_, places) = try XCTUnwrap(LocationsFile.readInTwoSteps(path: url.path, including: { _ in true }))
    let handle = try FileHandle(forWritingTo: url)
    try handle.write(
      contentsOf: Data(text.replacingOccurrences(of: "1, \"longitude\"", with: "7, \"longitude\"").utf8))
    try handle.close()
    XCTAssertThrowsError(try places.locations(at: [0])) { error in
      XCTAssertEqual("\(error)", "\(url.path): the file changed while the map was being drawn; draw it again")
    }
    // Cut short: an error too, not a fault on the pages past its new end.
    let (_, again) = try XCTUnwrap(LocationsFile.readInTwoSteps(path: url.path, including: { _ in true }))
    XCTAssertEqual(truncate(url.path, 10), 0)
    XCTAssertThrowsError(try again.locations(at: [0])) { error in
      XCTAssertEqual("\(error)", "\(url.path): the file changed while the map was being drawn; draw it again")
    }
  }
}
