import Foundation
import Places
import XCTest

final class GeoJSONTests: XCTestCase {
  private func asia() throws -> LocationSet { try LocationsFile.read(path: fixturePath("asia.geojson")) }

  private func feature(_ geometry: String, properties: String = "{}", id: String = "") -> String {
    #"{"type": "Feature", \#(id)"geometry": \#(geometry), "properties": \#(properties)}"#
  }

  private func point(_ coordinates: String, properties: String = "{}") -> String {
    feature(#"{"type": "Point", "coordinates": \#(coordinates)}"#, properties: properties)
  }

  private func collection(_ features: String...) -> String {
    #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ", "))]}"#
  }

  func testReadsPointsAndSkipsTheRest() throws {
    let set = try asia()
    XCTAssertEqual(
      set.locations.map(\.title), ["東京タワー", "Nishiki Market", "Suva harbour", "(No Description)"])
    XCTAssertEqual(set.warnings, ["skipped 2 features that are not points"])
    XCTAssertNil(set.user)
  }

  func testFeatureFields() throws {
    let locations = try asia().locations
    XCTAssertEqual(
      locations[0],
      Location(
        id: "7", latitude: 35.6586, longitude: 139.7454, locationDescription: "東京タワー", category: "Landmark",
        date: utc(2026, 10, 1, 23, 15)))
    XCTAssertEqual(
      locations[1],
      Location(
        id: "nishiki", latitude: 35.0116, longitude: 135.7727, locationDescription: "Nishiki Market",
        category: "Grocery Store"))
    XCTAssertEqual(locations[2].category, "No Category")
    XCTAssertEqual(locations[3].coordinate.longitude, -171.7514)
  }

  func testDerivedIDsForFeaturesWithoutOne() throws {
    let locations = try asia().locations
    XCTAssertEqual(
      locations[2].id,
      Location.derivedID(
        latitude: -18.1416, longitude: 178.4419, locationDescription: "Suva harbour", date: nil))
    XCTAssertTrue(locations[3].id.hasPrefix("loc-"))
  }

  func testDescriptionThenNameThenTitle() throws {
    let text = collection(
      point("[1, 2]", properties: #"{"name": "Name", "title": "Title"}"#),
      point("[1, 3]", properties: #"{"title": "Title"}"#),
      point("[1, 4]", properties: #"{"description": "", "name": "Name"}"#))
    XCTAssertEqual(try readText(text, name: "x.geojson").locations.map(\.title), ["Name", "Title", "Name"])
  }

  func testSingleFeature() throws {
    let set = try readText(
      point("[2.2945, 48.8584]", properties: #"{"name": "Tour Eiffel"}"#), name: "eiffel.json")
    XCTAssertEqual(set.locations.map(\.title), ["Tour Eiffel"])
    XCTAssertEqual(set.locations[0].latitude, 48.8584)
  }

  func testFeatureWithoutGeometryIsSkipped() throws {
    let set = try readText(collection(feature("null"), point("[0, 0]")), name: "x.geojson")
    XCTAssertEqual(set.locations.count, 1)
    XCTAssertEqual(set.warnings, ["skipped 1 feature that is not a point"])
  }

  func testFeatureOrderNumbersIncludeSkippedOnes() throws {
    let text = collection(
      feature(#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#),
      point("[0, 0]", properties: #"{"category": "Temple"}"#))
    let set = try readText(text, name: "x.geojson")
    XCTAssertEqual(
      set.warnings,
      [
        "feature 2: unknown category \"Temple\" (kept; known: No Category, Apple Store, Bar, Bookstore, Club, "
          + "Grocery Store, Historic Building, House, Icecream Vendor, Landmark, Park)",
        "skipped 1 feature that is not a point",
      ])
  }

  func testPlacemarkAndPhotoProperties() throws {
    let text = point(
      "[-122.009, 37.3349]",
      properties:
        #"{"placemark": {"locality": "Cupertino"}, "photo": "apple-park.jpg", "date": "2026-11-29"}"#)
    let location = try readText(text, name: "x.geojson").locations[0]
    XCTAssertEqual(location.placemark, Placemark(locality: "Cupertino"))
    XCTAssertEqual(location.photoPath, "apple-park.jpg")
    XCTAssertEqual(location.date, utc(2026, 11, 29))
  }

  func testGeoJSONInAJSONFileIsFoundByContent() throws {
    XCTAssertEqual(try readText(collection(point("[1, 2]")), name: "places.json").locations.count, 1)
  }

  func testEmptyCollection() throws {
    XCTAssertEqual(try readText(collection(), name: "x.geojson"), LocationSet())
  }
}
