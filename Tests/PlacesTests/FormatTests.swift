import Foundation
import MapMath
import Places
import TestSupport
import XCTest

/// What every format shares: the one entry point that tells them apart, and writing then reading back.
final class FormatTests: XCTestCase {
  private var temporaryDirectory: URL!

  override func setUpWithError() throws {
    temporaryDirectory = FileManager.default.temporaryDirectory
      .appendingPathComponent("PlacesFormatTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try FileManager.default.removeItem(at: temporaryDirectory)
  }

  private let samples: [LocationsFormat: String] = [
    .mymapJSON: #"{"locations": [{"latitude": 1, "longitude": 2, "description": "json"}]}"#,
    .geoJSON:
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 1]}, "properties": {"name": "geojson"}}"#,
    .gpx: #"<?xml version="1.0"?><gpx version="1.1"><wpt lat="1" lon="2"><name>gpx</name></wpt></gpx>"#,
    .csv: "latitude,longitude,description\n1,2,csv\n",
  ]

  /// Places with every field and the values that are easy to get wrong, for round trips.
  private let awkward = LocationSet(locations: [
    Location(
      id: "apple-park", latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park",
      category: "Landmark", date: utc(2026, 11, 29, 10),
      placemark: Placemark(
        subThoroughfare: "1", thoroughfare: "Apple Park Way", locality: "Cupertino", administrativeArea: "CA",
        postalCode: "95014", country: "United States"),
      photoPath: "photos/apple park.jpg"),
    Location(
      latitude: -89.999999999, longitude: 179.99999999999997,
      locationDescription: "quote \" backslash \\ tab \t comma , <b>&amp;</b> ]]> 📍 東京\r\nnext line",
      category: "Cafe", date: Date(timeIntervalSince1970: 1_780_000_000.123456),
      placemark: Placemark(locality: "Zürich")),
    Location(latitude: 1e-9, longitude: -0.0, date: Date(timeIntervalSince1970: -86_400 * 365.25 * 100)),
    Location(latitude: 90, longitude: -180, locationDescription: "  spaces kept  "),
    Location(id: "42", latitude: -90, longitude: 180, locationDescription: "", category: "No Category"),
  ])

  // MARK: Detection

  func testEveryFormatIsFoundByContentWhateverTheName() throws {
    for (format, text) in samples {
      for name in ["places.json", "places.geojson", "places.gpx", "places.csv", "places", "places.txt", "-"] {
        let set = try readText(text, name: name)
        XCTAssertEqual(set.locations.map(\.title), [format.rawValue], name)
        XCTAssertEqual(set.locations.map(\.coordinate), [Coordinate(latitude: 1, longitude: 2)], name)
      }
    }
  }

  func testContentAfterWhiteSpaceAndByteOrderMark() throws {
    for (format, text) in samples {
      let data = Data([0xEF, 0xBB, 0xBF] + Array(" \r\n\t".utf8) + Array(text.utf8))
      XCTAssertEqual(try LocationsFile.read(data: data, name: "x").locations.count, 1, format.rawValue)
    }
  }

  func testDataThatIsASliceOfALargerBuffer() throws {
    for text in samples.values {
      let whole = Data(("junk\n\n" + text).utf8)
      let slice = whole.dropFirst(5)  // indices start at 5, with a blank line first
      XCTAssertEqual(try LocationsFile.read(data: slice, name: "x").locations.count, 1, text)
    }
  }

  func testCSVInAJSONFile() throws {
    XCTAssertEqual(try readText("latitude,longitude\n1,2").locations.map(\.latitude), [1])
  }

  func testUnrecognizableContentWithoutAHelpfulName() {
    XCTAssertEqual(
      errorLine("hello, world\nsecond line", name: "notes.txt"),
      "notes.txt: not a locations file: expected mymap locations JSON, GeoJSON, GPX or CSV, "
        + "found text starting with \"hello, world\"")
    XCTAssertEqual(
      errorLine(String(repeating: "x", count: 60), name: "-"),
      "-: not a locations file: expected mymap locations JSON, GeoJSON, GPX or CSV, "
        + "found text starting with \"\(String(repeating: "x", count: 40))…\"")
    XCTAssertThrowsError(
      try LocationsFile.read(data: Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 1]), name: "map.png")
    ) {
      XCTAssertEqual(
        "\($0)",
        "map.png: not a locations file: expected mymap locations JSON, GeoJSON, GPX or CSV, found binary data"
      )
    }
  }

  func testTheExtensionChoosesTheErrorForUnrecognizableContent() {
    XCTAssertEqual(
      errorLine("y,x\n1,2\n", name: "places.csv"),
      "places.csv:1: the first line must be a header naming the columns, latitude and longitude among them; "
        + "found \"y\", \"x\"")
    XCTAssertEqual(
      errorLine("hello", name: "walk.gpx"),
      "walk.gpx: not a locations file: expected a GPX file (XML with a <gpx> root element), "
        + "found text starting with \"hello\"")
  }

  func testAFormatAskedForWinsOverContent() {
    XCTAssertEqual(
      errorLine(samples[.gpx]!, name: "x", format: .csv),
      "x:1: the first line must be a header naming the columns, latitude and longitude among them; "
        // Messages quote at most 80 characters of the input.
        + "found \"<?xml version=\\\"1.0\\\"?><gpx version=\\\"1.1\\\"><wpt lat=\\\"1\\\" lon=\\\"2\\\"><name>gpx</name></w…\" (89 bytes)"
    )
    XCTAssertEqual(
      errorLine(samples[.csv]!, name: "x", format: .mymapJSON), "x:1:1: expected a value, found 'latitude'")
  }

  func testSQLiteBytesAreNotReadFromData() {
    let data = Data("SQLite format 3\0".utf8 + [UInt8](repeating: 0, count: 84))
    XCTAssertThrowsError(try LocationsFile.read(data: data, name: "DataModel.sqlite")) { error in
      XCTAssertEqual(
        "\(error)",
        "DataModel.sqlite: not a locations file: expected mymap locations JSON, GeoJSON, GPX or CSV, found an "
          + "SQLite database (a My Locations DataModel.sqlite is read from its path, not from these bytes)")
    }
  }

  func testCoreDataStoreIsReadByPath() throws {
    let path = fixturePath("coredata/DataModel.sqlite")
    guard FileManager.default.fileExists(atPath: path) else {
      throw TestPrerequisiteMissing("no Core Data fixture")
    }
    XCTAssertEqual(try LocationsFile.read(path: path), try CoreDataStore.read(path: path))
  }

  // MARK: Round trips

  func testEveryFormatRoundTrips() throws {
    for format in LocationsFormat.allCases {
      let data = LocationsFile.encode(awkward, format: format)
      let copy = try LocationsFile.read(data: data, name: "copy.\(format.rawValue)")
      XCTAssertEqual(copy.locations, awkward.locations, format.rawValue)
      XCTAssertEqual(copy.idsGiven, [true, true, true, true, true], "written files give every id")
      XCTAssertEqual(LocationsFile.encode(copy, format: format), data, "\(format.rawValue) is deterministic")
      // And found by content alone.
      XCTAssertEqual(try LocationsFile.read(data: data, name: "copy").locations, awkward.locations)
    }
  }

  func testEveryFixtureConvertsToEveryFormat() throws {
    let names = [
      "europe.json", "asia.geojson", "mixed.geojson", "garmin.gpx", "osmand-favourites.gpx", "gpx10.gpx",
      "spreadsheet.csv",
    ]
    for name in names {
      let original = try LocationsFile.read(path: fixturePath(name))
      for format in LocationsFormat.allCases {
        let copy = try LocationsFile.read(
          data: LocationsFile.encode(original, format: format), name: "copy.\(format.rawValue)")
        XCTAssertEqual(copy.locations, original.locations, "\(name) as \(format.rawValue)")
        XCTAssertEqual(copy.user, format == .mymapJSON ? original.user : nil)
      }
    }
  }

  func testEncodeWithoutAFormatIsMymapJSON() {
    XCTAssertEqual(LocationsFile.encode(awkward), LocationsFile.encode(awkward, format: .mymapJSON))
  }

  func testWriteChoosesTheFormatByExtension() throws {
    let expected: [String: String] = [
      "out.json": "{", "out.geojson": "{\n  \"type\": \"FeatureCollection\"", "out.GPX": "<?xml",
      "out.csv": "latitude,longitude,", "out.txt": "{\n  \"locations\"",
    ]
    for (name, start) in expected {
      let path = temporaryDirectory.appendingPathComponent(name).path
      try LocationsFile.write(awkward, toPath: path)
      XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(start), name)
      XCTAssertEqual(try LocationsFile.read(path: path).locations, awkward.locations, name)
    }
  }

  func testWriteWithAFormat() throws {
    let path = temporaryDirectory.appendingPathComponent("places.json").path
    try LocationsFile.write(awkward, toPath: path, format: .csv)
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: path)), LocationsFile.encode(awkward, format: .csv))
    XCTAssertEqual(try LocationsFile.read(path: path).locations, awkward.locations)
  }

  func testUnwritableWithAFormat() {
    XCTAssertThrowsError(try LocationsFile.write(awkward, toPath: "/nonexistent/out.gpx", format: .gpx)) {
      error in
      XCTAssertEqual(
        "\(error)", "/nonexistent/out.gpx: cannot write the file: the folder /nonexistent does not exist")
    }
  }

  // MARK: Ids

  func testIDsGivenFollowTheFile() throws {
    let europe = try LocationsFile.read(path: fixturePath("europe.json"))
    XCTAssertEqual(europe.idsGiven, [true, true, true, false, false, false])
    XCTAssertEqual(europe.givenIDs, ["brandenburger-tor", "shakespeare-and-company", "apple-regent-street"])
    // Still right after filtering, as the CLI filters before importing or drawing.
    var filtered = europe
    filtered.locations = europe.locations.filter { $0.category != "Bookstore" }
    XCTAssertEqual(filtered.idsGiven, [true, true, false, false, false])
  }

  func testASetBuiltInCodeGivesItsIDs() {
    let set = LocationSet(locations: [Location(latitude: 1, longitude: 2)])
    XCTAssertEqual(set.idsGiven, [true])
    XCTAssertEqual(LocationSet(locations: set.locations, givenIDs: []).idsGiven, [false])
  }
}
