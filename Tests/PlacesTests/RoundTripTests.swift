import Foundation
import JSON
import MapMath
import Places
import XCTest

final class RoundTripTests: XCTestCase {
  private var temporaryDirectory: URL!

  override func setUpWithError() throws {
    temporaryDirectory = FileManager.default.temporaryDirectory
      .appendingPathComponent("PlacesTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try FileManager.default.removeItem(at: temporaryDirectory)
  }

  func testDerivedIDsAreTheSameOnEveryRead() throws {
    let first = try LocationsFile.read(path: fixturePath("europe.json"))
    let second = try LocationsFile.read(
      data: Data(contentsOf: fixtures.appendingPathComponent("europe.json")), name: "copy.json")
    XCTAssertEqual(first.locations.map(\.id), second.locations.map(\.id))
    XCTAssertEqual(
      first.locations[3].id,
      Location.derivedID(
        latitude: 52.358, longitude: 4.8686, locationDescription: "Vondelpark", date: utc(2026, 6, 1)))
    XCTAssertEqual(Set(first.locations.map(\.id)).count, first.locations.count)
  }

  func testTheSamePlaceTwiceGetsNumberedIDs() throws {
    let place = #"{"latitude": 48.8584, "longitude": 2.2945, "description": "Tour Eiffel"}"#
    let set = try readText(#"{"locations": [\#(place), \#(place), \#(place)]}"#)
    let base = Location.derivedID(
      latitude: 48.8584, longitude: 2.2945, locationDescription: "Tour Eiffel", date: nil)
    XCTAssertEqual(set.locations.map(\.id), [base, base + "-2", base + "-3"])
  }

  /// Each copy used to probe `-2`, `-3`… from the start: 30,000 identical rows took minutes. The ids stay
  /// the ones that probe gives, also around explicit ids that take some of the numbers.
  func testManyCopiesOfOnePlaceAreNumberedInOnePass() throws {
    let base = Location.derivedID(latitude: 1, longitude: 2, locationDescription: "", date: nil)
    var csv = "id,latitude,longitude\n\(base)-3,5,5\n"
    csv += String(repeating: ",1,2\n", count: 30_000)
    csv += "\(base)-7,6,6\n"
    let set = try LocationsFile.read(data: Data(csv.utf8), name: "copies.csv")
    XCTAssertEqual(set.locations.count, 30_002)
    let derived = set.locations.dropFirst().dropLast().map(\.id)
    XCTAssertEqual(
      Array(derived.prefix(7)),
      [
        base, "\(base)-2", "\(base)-4", "\(base)-5", "\(base)-6",
        "\(base)-8", "\(base)-9",
      ])
    XCTAssertEqual(derived.last, "\(base)-30002")
    XCTAssertEqual(Set(set.locations.map(\.id)).count, 30_002)
  }

  func testAnExplicitIDWinsOverAnEqualDerivedOne() throws {
    let base = Location.derivedID(latitude: 1, longitude: 2, locationDescription: "", date: nil)
    let set = try readText(
      #"{"locations": [{"latitude": 1, "longitude": 2}, {"id": "\#(base)", "latitude": 3, "longitude": 4}]}"#)
    XCTAssertEqual(set.locations.map(\.id), [base + "-2", base])
  }

  func testWrittenTextIsExact() {
    let set = LocationSet(
      locations: [
        Location(
          id: "apple-park", latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park",
          category: "Landmark", date: utc(2026, 11, 29, 10),
          placemark: Placemark(
            subThoroughfare: "1", thoroughfare: "Apple Park Way", locality: "Cupertino",
            administrativeArea: "CA",
            postalCode: "95014", country: "United States")),
        Location(id: "x", latitude: 0.5, longitude: 10, photoPath: "p.jpg"),
      ],
      user: UserPosition(coordinate: .init(latitude: 37.3318, longitude: -122.0312), accuracy: 12.5),
      warnings: ["not written"])
    XCTAssertEqual(
      String(decoding: LocationsFile.encode(set), as: UTF8.self),
      """
      {
        "user": {
          "latitude": 37.3318,
          "longitude": -122.0312,
          "accuracy": 12.5
        },
        "locations": [
          {
            "id": "apple-park",
            "latitude": 37.3349,
            "longitude": -122.009,
            "description": "Apple Park",
            "category": "Landmark",
            "date": "2026-11-29T10:00:00Z",
            "placemark": {
              "subThoroughfare": "1",
              "thoroughfare": "Apple Park Way",
              "locality": "Cupertino",
              "administrativeArea": "CA",
              "postalCode": "95014",
              "country": "United States"
            }
          },
          {
            "id": "x",
            "latitude": 0.5,
            "longitude": 10,
            "description": "",
            "category": "No Category",
            "photo": "p.jpg"
          }
        ]
      }

      """)
  }

  func testEmptySetIsWritten() {
    XCTAssertEqual(
      String(decoding: LocationsFile.encode(LocationSet()), as: UTF8.self), "{\n  \"locations\": []\n}\n")
  }

  func testJSONRoundTripThroughAFile() throws {
    let original = try LocationsFile.read(path: fixturePath("europe.json"))
    let path = temporaryDirectory.appendingPathComponent("europe-copy.json").path
    try LocationsFile.write(original, toPath: path)
    let copy = try LocationsFile.read(path: path)
    XCTAssertEqual(copy.locations, original.locations)
    XCTAssertEqual(copy.user, original.user)
    XCTAssertEqual(copy.warnings, original.warnings)  // the unknown category is still there, still kept
  }

  func testGeoJSONConvertsToMymapJSON() throws {
    let original = try LocationsFile.read(path: fixturePath("asia.geojson"))
    let copy = try LocationsFile.read(data: LocationsFile.encode(original), name: "asia.json")
    XCTAssertEqual(copy.locations, original.locations)
    XCTAssertEqual(copy.warnings, [])
  }

  func testWritingIsDeterministic() throws {
    let set = try LocationsFile.read(path: fixturePath("europe.json"))
    XCTAssertEqual(
      LocationsFile.encode(set),
      LocationsFile.encode(try LocationsFile.read(path: fixturePath("europe.json"))))
    XCTAssertEqual(
      LocationsFile.encode(set),
      LocationsFile.encode(try readText(String(decoding: LocationsFile.encode(set), as: UTF8.self))))
  }

  func testAwkwardValuesSurvive() throws {
    let set = LocationSet(locations: [
      Location(
        latitude: -89.999999999, longitude: 179.99999999999997,
        locationDescription: "quote \" backslash \\ tab \t 📍",
        category: "Cafe", date: Date(timeIntervalSince1970: 1_780_000_000.123456),
        placemark: Placemark(subThoroughfare: "", locality: "Zürich")),
      Location(latitude: 1e-9, longitude: -0.0, date: Date(timeIntervalSince1970: -86_400 * 365.25 * 100)),
    ])
    let copy = try readText(String(decoding: LocationsFile.encode(set), as: UTF8.self))
    XCTAssertEqual(copy.locations, set.locations)
  }

  func testWriteReplacesAnExistingFile() throws {
    let path = temporaryDirectory.appendingPathComponent("out.json").path
    try Data("old contents that are longer than the new ones".utf8).write(to: URL(fileURLWithPath: path))
    try LocationsFile.write(LocationSet(), toPath: path)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\n  \"locations\": []\n}\n")
  }

  func testFormatByExtension() {
    XCTAssertEqual(LocationsFormat(fileName: "trip/asia.GeoJSON"), .geoJSON)
    XCTAssertEqual(LocationsFormat(fileName: "europe.json"), .mymapJSON)
    XCTAssertEqual(LocationsFormat(fileName: "walk.gpx"), .gpx)
    XCTAssertEqual(LocationsFormat(fileName: "Places.CSV"), .csv)
    XCTAssertNil(LocationsFormat(fileName: "trip.kml"))
    XCTAssertNil(LocationsFormat(fileName: ".json"))
    XCTAssertNil(LocationsFormat(fileName: "json"))
  }

  func testFormatByContent() throws {
    XCTAssertEqual(LocationsFormat.detect(try JSONParser.parse(#"{"type": "FeatureCollection"}"#)), .geoJSON)
    XCTAssertEqual(LocationsFormat.detect(try JSONParser.parse(#"{"type": "Feature"}"#)), .geoJSON)
    XCTAssertEqual(LocationsFormat.detect(try JSONParser.parse(#"{"locations": []}"#)), .mymapJSON)
    XCTAssertEqual(LocationsFormat.detect(try JSONParser.parse(#"{"user": {}}"#)), .mymapJSON)
    XCTAssertNil(LocationsFormat.detect(try JSONParser.parse(#"{"type": "Point"}"#)))
    XCTAssertNil(LocationsFormat.detect(try JSONParser.parse("[]")))
  }
}
