import Foundation
import JSON
import Places
import TestSupport
import XCTest

/// What a hostile or unlucky file meets: limits with a clear error each, and messages that quote at most
/// a short excerpt of the input, whatever its size.
final class InputLimitsTests: XCTestCase {
  private let huge = String(repeating: "a", count: 1_000_000)

  func testATextFieldLongerThanTheLimitIsAnErrorNamingTheRecord() {
    let long = String(repeating: "é", count: InputLimits.maximumTextBytes / 2 + 1)
    XCTAssertEqual(
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "description": "\#(long)""#)),
      "europe.json: location 1: description is \(InputLimits.maximumTextBytes + 2) bytes long; the limit is 16 KiB"
    )
    XCTAssertEqual(
      errorLine("latitude,longitude,locality\n1,2,\(huge)\n", name: "p.csv"),
      "p.csv:2: placemark.locality is 1000000 bytes long; the limit is 16 KiB")
    XCTAssertEqual(
      errorLine(#"<gpx><wpt lat="1" lon="2"><name>\#(huge)</name></wpt></gpx>"#, name: "p.gpx"),
      "p.gpx:1: description is 1000000 bytes long; the limit is 16 KiB")
    let atTheLimit = String(repeating: "x", count: InputLimits.maximumTextBytes)
    XCTAssertNoThrow(
      try readText(oneLocation(#""latitude": 1, "longitude": 2, "description": "\#(atTheLimit)""#)))
  }

  func testMessagesQuoteAShortExcerptOfTheInput() {
    let lines = [
      errorLine(oneLocation(#""latitude": "\#(huge)", "longitude": 2"#)),
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "date": "\#(huge)""#)),
      errorLine(oneLocation(#""latitude": 1, "longitude": 2, "placemark": "\#(huge)""#)),
      errorLine(oneLocation(#""latitude": 1\#(String(repeating: "0", count: 1_000_000)), "longitude": 2"#)),
      errorLine(oneLocation(#""latitude": 1e\#(String(repeating: "9", count: 1_000_000)), "longitude": 2"#)),
      errorLine("latitude,longitude\n\(huge),2\n", name: "p.csv"),
      errorLine("\(huge),b\n1,2\n", name: "p.csv"),
      errorLine(#"{"\#(huge)": 1, "\#(huge)": 2}"#),
      errorLine(#"{"type": "\#(huge)"}"#),
      errorLine(#"<gpx><wpt lat="\#(huge)" lon="2"/></gpx>"#, name: "p.gpx"),
      errorLine(#"<gpx><wpt lat="1" lon="2"><time>\#(huge)</time></wpt></gpx>"#, name: "p.gpx"),
    ]
    for line in lines {
      XCTAssertLessThan(line.utf8.count, 400, String(line.prefix(300)))
      XCTAssertFalse(line.isEmpty)
    }
    XCTAssertEqual(
      lines[1],
      "europe.json: location 1: date \"\(String(repeating: "a", count: 80))…\" (1000000 bytes) is not an ISO 8601"
        + " date (expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")")
    XCTAssertEqual(lines[4], "europe.json:1:32: number of 1000002 characters is too large")
  }

  func testAHeaderWithAMillionColumnsGivesAShortWarning() throws {
    let header = "latitude,longitude," + (0..<1_000_000).map { "c\($0)" }.joined(separator: ",")
    let set = try readText(header + "\n1,2\n", name: "p.csv")
    XCTAssertEqual(set.locations.count, 1)
    XCTAssertEqual(
      set.warnings,
      [
        "line 1: ignored columns that mymap does not read: \"c0\", \"c1\", \"c2\", \"c3\", \"c4\", \"c5\", \"c6\","
          + " \"c7\" and 999992 more"
      ])
  }

  func testLocationsThatAreNullAreAnErrorNotAnEmptyFile() {
    XCTAssertEqual(
      errorLine(#"{"locations": null}"#), "europe.json: \"locations\" must be an array, not null")
    XCTAssertEqual(
      errorLine(#"{"user": {"latitude": 1, "longitude": 2}, "locations": null}"#),
      "europe.json: \"locations\" must be an array, not null")
  }

  func testNumberIDsAreKeptNotIgnored() throws {
    XCTAssertEqual(try readText(oneLocation(#""id": 5, "latitude": 1, "longitude": 2"#)).locations[0].id, "5")
    let geoJSON =
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": 5, "properties": {},"#
      + #" "geometry": {"type": "Point", "coordinates": [2, 1]}}, {"type": "Feature", "properties": {"id": 6},"#
      + #" "geometry": {"type": "Point", "coordinates": [2, 1]}}]}"#
    XCTAssertEqual(try readText(geoJSON).locations.map(\.id), ["5", "6"])
    XCTAssertEqual(
      errorLine(oneLocation(#""id": true, "latitude": 1, "longitude": 2"#)),
      "europe.json: location 1: id must be a string or a whole number, not true")
  }

  func testAFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-limits")
    let path = folder.url("sparse.csv").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("latitude,longitude\n".utf8)))
    XCTAssertEqual(truncate(path, off_t(InputLimits.maximumFileBytes) + 1), 0)
    XCTAssertThrowsError(try LocationsFile.read(path: path)) { error in
      XCTAssertEqual(
        (error as? LocationsFileError)?.description,
        "\(path): the file is larger than 256 MiB, the most mymap reads as one locations file")
    }
  }

  /// JSON and GPX files are mapped and read a record at a time (as imports read them), so their size is
  /// no limit: a sparse file past 256 MiB gets the error its content earns.
  func testJSONAndGPXFilesLargerThanTheLimitAreReadMapped() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-limits")
    for (name, content, expected) in [
      ("sparse.json", "{\"locations\": []", ":1:17: expected ',' or '}'"),
      ("sparse.gpx", "<gpx>", ":1:"),
    ] {
      let path = folder.url(name).path
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
      XCTAssertEqual(truncate(path, off_t(InputLimits.maximumFileBytes) + 1), 0)
      XCTAssertThrowsError(try LocationsFile.read(path: path)) { error in
        let message = (error as? LocationsFileError)?.description ?? "\(error)"
        XCTAssertTrue(message.hasPrefix(path + expected), message)
        XCTAssertFalse(message.contains("larger than"), message)
      }
    }
  }

  func testAFIFOIsReadToItsEnd() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-limits")
    let path = folder.url("places.json").path
    XCTAssertEqual(mkfifo(path, 0o600), 0)
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: path)
      handle?.write(Data(oneLocation(#""latitude": 1, "longitude": 2"#).utf8))
      try? handle?.close()
    }
    writer.start()
    XCTAssertEqual(try LocationsFile.read(path: path).locations.count, 1)
  }

  func testAnEndlessDeviceIsRefusedAtTheLimit() {
    XCTAssertThrowsError(try LocationsFile.read(path: "/dev/zero")) { error in
      XCTAssertEqual(
        (error as? LocationsFileError)?.description,
        "/dev/zero: the file is larger than 256 MiB, the most mymap reads as one locations file")
    }
  }
}
