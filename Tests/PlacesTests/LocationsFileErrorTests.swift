import Foundation
import Places
import XCTest

/// Every error a user can meet reading a locations file, as the one line they would see.
final class LocationsFileErrorTests: XCTestCase {
  private let knownCategories =
    "No Category, Apple Store, Bar, Bookstore, Club, Grocery Store, Historic Building, House, Icecream Vendor, "
    + "Landmark, Park"

  // MARK: Files

  func testFileNotFound() {
    XCTAssertThrowsError(try LocationsFile.read(path: "/nonexistent/europe.json")) { error in
      XCTAssertEqual("\(error)", "/nonexistent/europe.json: no such file")
      XCTAssertEqual(error as? LocationsFileError, .fileNotFound(file: "/nonexistent/europe.json"))
    }
  }

  func testDirectory() {
    XCTAssertThrowsError(try LocationsFile.read(path: fixtures.path)) { error in
      XCTAssertEqual("\(error)", "\(fixtures.path): cannot read the file: it is a directory")
    }
  }

  func testEmptyFile() {
    let message = "europe.json: the file is empty; expected mymap locations JSON, GeoJSON, GPX or CSV"
    XCTAssertEqual(errorLine(""), message)
    XCTAssertEqual(errorLine(" \n\t\r\n"), message)
    XCTAssertThrowsError(try LocationsFile.read(data: Data([0xEF, 0xBB, 0xBF, 0x0A]), name: "europe.json")) {
      XCTAssertEqual("\($0)", message)
    }
  }

  func testKMLIsNotSupported() {
    let message = "trip.kml: KML files are not supported; use mymap locations JSON, GeoJSON, GPX or CSV"
    XCTAssertEqual(
      errorLine(
        #"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>"#,
        name: "trip.kml"),
      message)
    XCTAssertEqual(
      errorLine("<kml/>", name: "trip.xml"), message.replacingOccurrences(of: "trip.kml", with: "trip.xml"))
    XCTAssertEqual(
      errorLine("PK\u{3}\u{4}doc.kml", name: "trip.kmz"),
      "trip.kmz: KML files are not supported; use mymap locations JSON, GeoJSON, GPX or CSV")
  }

  func testUnwritable() {
    XCTAssertThrowsError(try LocationsFile.write(LocationSet(), toPath: "/nonexistent/out.json")) { error in
      XCTAssertEqual(
        "\(error)", "/nonexistent/out.json: cannot write the file: the folder /nonexistent does not exist")
    }
  }

  func testWritingOverADirectory() {
    XCTAssertThrowsError(try LocationsFile.write(LocationSet(), toPath: fixtures.path)) { error in
      XCTAssertEqual("\(error)", "\(fixtures.path): cannot write the file: it is a directory")
    }
  }

  // MARK: Syntax

  func testMalformedJSONNamesFileLineAndColumn() {
    let text = """
      {
        "locations": [
          { "latitude": 48.8584 "longitude": 2.2945 }
        ]
      }
      """
    XCTAssertEqual(errorLine(text), "europe.json:3:27: expected ',' or '}' after an object member")
  }

  func testMalformedJSONExampleFromTheBrief() {
    let text = "{ \"locations\": [\n  { \"id\": \"a\",\n    \"lat\": 37.3 \"longitude\": 2 } ] }"
    XCTAssertEqual(errorLine(text), "europe.json:3:17: expected ',' or '}' after an object member")
  }

  func testMalformedJSONOnStandardInputName() {
    XCTAssertEqual(
      errorLine("{\"locations\": [}", name: LocationsFile.standardInputName),
      "<stdin>:1:16: expected a value, found '}'")
  }

  func testNotJSONAtAll() {
    // Content that is no format at all is read as the extension says, so the error is JSON's.
    XCTAssertEqual(errorLine("hello, world\n1,2"), "europe.json:1:1: expected a value, found 'hello'")
  }

  // MARK: Neither format

  func testTopLevelArray() {
    XCTAssertEqual(
      errorLine(#"[{"latitude": 1, "longitude": 2}]"#),
      "europe.json: not a locations file: expected an object with \"locations\" (mymap JSON) or a GeoJSON "
        + "FeatureCollection or Feature, found an array")
  }

  func testTopLevelObjectWithOtherMembers() {
    XCTAssertEqual(
      errorLine(#"{"name": "Trip", "points": [], "owner": "me", "version": 1}"#),
      "europe.json: not a locations file: expected an object with \"locations\" (mymap JSON) or a GeoJSON "
        + "FeatureCollection or Feature, found an object with members \"name\", \"points\", \"owner\", …")
    XCTAssertEqual(
      errorLine("{}"),
      "europe.json: not a locations file: expected an object with \"locations\" (mymap JSON) or a GeoJSON "
        + "FeatureCollection or Feature, found an empty object")
  }

  func testGeoJSONExtensionSaysWhatWasExpected() {
    XCTAssertEqual(
      errorLine(#"{"type": "Point", "coordinates": [1, 2]}"#, name: "pin.geojson"),
      "pin.geojson: not a locations file: expected a GeoJSON FeatureCollection or Feature, "
        + "found a GeoJSON Point geometry (wrap it in a Feature)")
    XCTAssertEqual(
      errorLine(#""Tokyo""#, name: "pin.geojson"),
      "pin.geojson: not a locations file: expected a GeoJSON FeatureCollection or Feature, found the string \"Tokyo\""
    )
  }

  func testRequestedFormatMustMatchTheContent() {
    XCTAssertEqual(
      errorLine(#"{"locations": []}"#, format: .geoJSON),
      "europe.json: not a locations file: expected a GeoJSON FeatureCollection or Feature, found mymap locations JSON"
    )
    XCTAssertEqual(
      errorLine(#"{"type": "FeatureCollection", "features": []}"#, format: .mymapJSON),
      "europe.json: not a locations file: expected an object with \"locations\" (mymap JSON), found GeoJSON")
  }

  // MARK: Records

  func testLocationsMustBeAnArray() {
    XCTAssertEqual(
      errorLine(#"{"locations": {"latitude": 1}}"#),
      "europe.json: \"locations\" must be an array, not an object")
  }

  func testRecordMustBeAnObject() {
    XCTAssertEqual(
      errorLine(#"{"locations": [{"latitude": 1, "longitude": 2}, 3]}"#),
      "europe.json: location 2: expected an object, found the number 3")
  }

  func testLatitudeOutOfRangeNamesTheRecord() {
    let text = """
      {"locations": [
        {"latitude": 1, "longitude": 2}, {"latitude": 3, "longitude": 4}, {"latitude": 5, "longitude": 6},
        {"latitude": 91.0, "longitude": 2.35}
      ]}
      """
    XCTAssertEqual(errorLine(text), "europe.json: location 4: latitude 91.0 is outside -90…90")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": -90.5, "longitude": 0"#)),
      "europe.json: location 1: latitude -90.5 is outside -90…90")
  }

  func testLongitudeOutOfRange() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 0, "longitude": 200.5"#)),
      "europe.json: location 1: longitude 200.5 is outside -180…180")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 0, "longitude": -180.0001"#)),
      "europe.json: location 1: longitude -180.0001 is outside -180…180")
  }

  func testNonFiniteNumbersAsStrings() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": "NaN", "longitude": 0"#)),
      "europe.json: location 1: latitude \"NaN\" is not a finite number")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 0, "longitude": "-Infinity""#)),
      "europe.json: location 1: longitude \"-Infinity\" is not a finite number")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": " inf ", "longitude": 0"#)),
      "europe.json: location 1: latitude \" inf \" is not a finite number")
  }

  func testBareNaNIsASyntaxError() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": NaN, "longitude": 0"#)),
      "europe.json:1:32: expected a value, found 'NaN'")
  }

  func testHugeNumberIsASyntaxError() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1e999, "longitude": 0"#)),
      "europe.json:1:32: number 1e999 is too large")
  }

  func testNonNumericCoordinates() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": "37.5", "longitude": 0"#)),
      "europe.json: location 1: latitude must be a number, not the string \"37.5\" (remove the quotes)")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": "north", "longitude": 0"#)),
      "europe.json: location 1: latitude must be a number, not the string \"north\"")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": true"#)),
      "europe.json: location 1: longitude must be a number, not true")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": [1], "longitude": 2"#)),
      "europe.json: location 1: latitude must be a number, not an array")
  }

  func testMissingCoordinates() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1"#)), "europe.json: location 1: longitude is missing")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": null, "longitude": 2"#)),
      "europe.json: location 1: latitude is missing")
    XCTAssertEqual(
      errorLine(oneLocation(#""description": "Somewhere""#)),
      "europe.json: location 1: latitude and longitude are missing")
    XCTAssertEqual(
      errorLine(oneLocation(#""lat": 1, "lng": 2"#)),
      "europe.json: location 1: latitude and longitude are missing (rename \"lat\" to \"latitude\", \"lng\" to "
        + "\"longitude\")")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "lon": 2"#)),
      "europe.json: location 1: longitude is missing (rename \"lon\" to \"longitude\")")
  }

  func testWrongMemberTypes() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "description": 42"#)),
      "europe.json: location 1: description must be a string, not the number 42")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "category": ["Bar"]"#)),
      "europe.json: location 1: category must be a string, not an array")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "id": true"#)),
      "europe.json: location 1: id must be a string or a whole number, not true")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "id": 1.5"#)),
      "europe.json: location 1: id must be a string or a whole number, not the number 1.5")
  }

  func testBadDates() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "date": "29/11/2026""#)),
      "europe.json: location 1: date \"29/11/2026\" is not an ISO 8601 date "
        + "(expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "date": "2026-02-30""#)),
      "europe.json: location 1: date \"2026-02-30\" is not an ISO 8601 date "
        + "(expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "date": 1764410400"#)),
      "europe.json: location 1: date must be a string, not the number 1764410400")
  }

  func testBadPlacemark() {
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "placemark": "Berlin""#)),
      "europe.json: location 1: placemark must be an object, not the string \"Berlin\"")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "placemark": {"postalCode": 95014}"#)),
      "europe.json: location 1: placemark.postalCode must be a string, not the number 95014 "
        + "(write it in double quotes)")
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "placemark": {"country": false}"#)),
      "europe.json: location 1: placemark.country must be a string, not false")
  }

  func testDuplicateIDs() {
    let text = """
      {"locations": [{"id": "home", "latitude": 1, "longitude": 2}, {"latitude": 3, "longitude": 4},
                     {"id": "home", "latitude": 5, "longitude": 6}]}
      """
    XCTAssertEqual(errorLine(text), "europe.json: location 3: duplicate id \"home\" (location 1 has it too)")
  }

  func testUserErrors() {
    XCTAssertEqual(
      errorLine(#"{"user": {"latitude": 100, "longitude": 0}, "locations": []}"#),
      "europe.json: user: latitude 100.0 is outside -90…90")
    XCTAssertEqual(
      errorLine(#"{"user": {"latitude": 1}}"#), "europe.json: user: longitude is missing")
    XCTAssertEqual(
      errorLine(#"{"user": [37.3, -122.0]}"#),
      "europe.json: user: expected an object with latitude and longitude, found an array")
    XCTAssertEqual(
      errorLine(#"{"user": {"latitude": 1, "longitude": 2, "accuracy": -5}}"#),
      "europe.json: user: accuracy must be a number of metres, zero or more, not the number -5")
  }

  func testUnknownCategoryIsAWarningNotAnError() throws {
    let set = try readText(
      #"{"locations": [{"latitude": 1, "longitude": 2}, {"latitude": 1, "longitude": 2}, "#
        + #"{"latitude": 1, "longitude": 2, "category": "Cafe"}]}"#)
    XCTAssertEqual(set.warnings, ["location 3: unknown category \"Cafe\" (kept; known: \(knownCategories))"])
  }

  // MARK: GeoJSON

  func testGeoJSONSwappedCoordinates() {
    let text = #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [37.3349, -122.009]}}"#
    XCTAssertEqual(
      errorLine(text, name: "pins.geojson"),
      "pins.geojson: feature 1: latitude -122.009 is outside -90…90 (GeoJSON coordinates are [longitude, latitude])"
    )
  }

  func testGeoJSONLongitudeOutOfRange() {
    let text = #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [181, 10]}}"#
    XCTAssertEqual(
      errorLine(text, name: "pins.geojson"), "pins.geojson: feature 1: longitude 181.0 is outside -180…180")
  }

  func testGeoJSONLatitudeOutOfRangeWithoutSwapHint() {
    let text = #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [120, 95]}}"#
    XCTAssertEqual(
      errorLine(text, name: "pins.geojson"), "pins.geojson: feature 1: latitude 95.0 is outside -90…90")
  }

  func testGeoJSONBadPointCoordinates() {
    func point(_ coordinates: String) -> String {
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point"\#(coordinates)}}]}"#
    }
    XCTAssertEqual(
      errorLine(point(""), name: "p.geojson"), "p.geojson: feature 1: the Point has no coordinates")
    XCTAssertEqual(
      errorLine(point(#", "coordinates": [1]"#), name: "p.geojson"),
      "p.geojson: feature 1: geometry.coordinates must be [longitude, latitude], not an array of 1")
    XCTAssertEqual(
      errorLine(point(#", "coordinates": "1,2""#), name: "p.geojson"),
      "p.geojson: feature 1: geometry.coordinates must be [longitude, latitude], not the string \"1,2\"")
    XCTAssertEqual(
      errorLine(point(#", "coordinates": ["NaN", 1]"#), name: "p.geojson"),
      "p.geojson: feature 1: longitude \"NaN\" is not a finite number")
    XCTAssertEqual(
      errorLine(point(#", "coordinates": [1, null]"#), name: "p.geojson"),
      "p.geojson: feature 1: latitude must be a number, not null")
  }

  func testGeoJSONStructure() {
    XCTAssertEqual(
      errorLine(#"{"type": "FeatureCollection"}"#, name: "p.geojson"),
      "p.geojson: the FeatureCollection has no \"features\" array")
    XCTAssertEqual(
      errorLine(#"{"type": "FeatureCollection", "features": {}}"#, name: "p.geojson"),
      "p.geojson: \"features\" must be an array, not an object")
    XCTAssertEqual(
      errorLine(#"{"type": "FeatureCollection", "features": [null]}"#, name: "p.geojson"),
      "p.geojson: feature 1: expected a Feature object, found null")
    XCTAssertEqual(
      errorLine(
        #"{"type": "FeatureCollection", "features": [{"type": "Point", "coordinates": [1, 2]}]}"#,
        name: "p.geojson"),
      "p.geojson: feature 1: \"type\" must be \"Feature\", not the string \"Point\"")
    XCTAssertEqual(
      errorLine(#"{"type": "Feature", "geometry": [1, 2]}"#, name: "p.geojson"),
      "p.geojson: feature 1: geometry must be an object or null, not an array")
    XCTAssertEqual(
      errorLine(
        #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": []}"#,
        name: "p.geojson"),
      "p.geojson: feature 1: properties must be an object or null, not an array")
    XCTAssertEqual(
      errorLine(
        #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"name": 42}}"#,
        name: "p.geojson"),
      "p.geojson: feature 1: properties.name must be a string, not the number 42")
  }

  func testGeoJSONDuplicateFeatureIDs() {
    let feature = #"{"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#
    let text = #"{"type": "FeatureCollection", "features": [\#(feature), \#(feature)]}"#
    XCTAssertEqual(
      errorLine(text, name: "p.geojson"), "p.geojson: feature 2: duplicate id \"7\" (feature 1 has it too)")
  }

  func testErrorsAreTyped() {
    XCTAssertThrowsError(try readText(oneLocation(#""latitude": 91, "longitude": 0"#))) { error in
      XCTAssertEqual(
        error as? LocationsFileError,
        .invalidRecord(file: "europe.json", record: "location 1", message: "latitude 91.0 is outside -90…90"))
    }
    XCTAssertThrowsError(try readText("[1 2]")) { error in
      XCTAssertEqual(
        error as? LocationsFileError,
        .malformedJSON(
          file: "europe.json", line: 1, column: 4, message: "expected ',' or ']' after an array element"))
    }
  }
}
