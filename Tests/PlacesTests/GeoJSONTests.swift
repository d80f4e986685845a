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
    XCTAssertEqual(set.warnings, ["skipped 1 feature that is neither a point nor a line"])
    XCTAssertEqual(
      set.tracks.map(\.segments),
      [[[.init(latitude: 35.69, longitude: 139.70), .init(latitude: 35.68, longitude: 139.77)]]])
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
    XCTAssertEqual(set.warnings, ["skipped 1 feature that is neither a point nor a line"])
  }

  func testFeatureOrderNumbersIncludeSkippedOnes() throws {
    let text = collection(
      feature(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 1], [0, 0]]]}"#),
      point("[0, 0]", properties: #"{"category": "Temple"}"#))
    let set = try readText(text, name: "x.geojson")
    XCTAssertEqual(
      set.warnings,
      [
        "feature 2: unknown category \"Temple\" (kept; known: No Category, Apple Store, Bar, Bookstore, Club, "
          + "Grocery Store, Historic Building, House, Icecream Vendor, Landmark, Park)",
        "skipped 1 feature that is neither a point nor a line",
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

  func testMixedGeometriesFromQGIS() throws {
    let set = try LocationsFile.read(path: fixturePath("mixed.geojson"))
    XCTAssertEqual(set.locations.map(\.title), ["Sagrada Família", "Mercat de la Boqueria"])
    XCTAssertEqual(set.locations[0].date, utc(2026, 4, 2, 9))
    XCTAssertEqual(
      set.locations[1],
      Location(
        id: "boqueria", latitude: 41.38174, longitude: 2.17172, locationDescription: "Mercat de la Boqueria",
        category: "Grocery Store",
        placemark: Placemark(
          subThoroughfare: "91", thoroughfare: "La Rambla", locality: "Barcelona", postalCode: "08001",
          country: "Spain"),
        photoPath: "photos/boqueria.jpg"))
    XCTAssertEqual(set.warnings, ["skipped 4 features that are neither points nor lines"])
    XCTAssertEqual(set.tracks.map(\.name), ["La Rambla"])
    XCTAssertEqual(set.idsGiven, [false, true])
  }

  func testIDsGiven() throws {
    XCTAssertEqual(try asia().idsGiven, [true, true, false, false])
    XCTAssertEqual(try asia().givenIDs, ["7", "nishiki"])
  }

  // MARK: Writing

  func testWrittenTextIsExact() {
    let set = LocationSet(
      locations: [
        Location(
          id: "apple-park", latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park",
          category: "Landmark", date: utc(2026, 11, 29, 10), placemark: Placemark(locality: "Cupertino"),
          photoPath: "p.jpg"),
        Location(id: "x", latitude: 0.5, longitude: 10),
      ],
      user: .init(coordinate: .init(latitude: 1, longitude: 2)))
    XCTAssertEqual(
      String(decoding: LocationsFile.encode(set, format: .geoJSON), as: UTF8.self),
      """
      {
        "type": "FeatureCollection",
        "features": [
          {
            "type": "Feature",
            "id": "apple-park",
            "geometry": {
              "type": "Point",
              "coordinates": [
                -122.009,
                37.3349
              ]
            },
            "properties": {
              "id": "apple-park",
              "description": "Apple Park",
              "category": "Landmark",
              "date": "2026-11-29T10:00:00Z",
              "placemark": {
                "locality": "Cupertino"
              },
              "photo": "p.jpg"
            }
          },
          {
            "type": "Feature",
            "id": "x",
            "geometry": {
              "type": "Point",
              "coordinates": [
                10,
                0.5
              ]
            },
            "properties": {
              "id": "x",
              "description": "",
              "category": "No Category"
            }
          }
        ]
      }

      """)
  }

  func testEmptySetIsWritten() {
    XCTAssertEqual(
      String(decoding: LocationsFile.encode(LocationSet(), format: .geoJSON), as: UTF8.self),
      "{\n  \"type\": \"FeatureCollection\",\n  \"features\": []\n}\n")
  }
}
