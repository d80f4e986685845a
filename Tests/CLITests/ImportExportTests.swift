import Foundation
import TestSupport
import XCTest

/// `mymap import` and `mymap export`: every format in and out, all or nothing, never twice the same place.
final class ImportExportTests: XCTestCase {
  private let mymapJSON = """
    { "locations": [
        { "id": "apple-park", "latitude": 37.3349, "longitude": -122.0090,
          "description": "Apple Park", "category": "Landmark", "date": "2026-11-29T10:00:00Z",
          "placemark": { "subThoroughfare": "1", "thoroughfare": "Apple Park Way", "locality": "Cupertino",
                         "administrativeArea": "CA", "postalCode": "95014", "country": "United States" } },
        { "id": "ferry-building", "latitude": 37.7955, "longitude": -122.3937,
          "description": "Ferry Building", "category": "Grocery Store", "date": "2026-11-28T16:30:00Z" } ] }
    """

  private let gpxWithTrack = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="48.8584" lon="2.2945"><time>2026-05-01T09:00:00Z</time><name>Eiffel Tower</name><type>Landmark</type></wpt>
      <wpt lat="51.5081" lon="-0.1281"><name>Trafalgar Square</name></wpt>
      <trk><name>walk</name><trkseg><trkpt lat="48.1" lon="2.1"/><trkpt lat="48.2" lon="2.2"/></trkseg></trk>
    </gpx>
    """

  /// Imports `file` and checks the summary line; returns the result.
  @discardableResult
  private func importFile(
    _ sandbox: Sandbox, _ file: String, added: Int, duplicates: Int, warnings: [String] = [],
    extra: [String] = [], line: UInt = #line
  ) throws -> CLIResult {
    let result = try sandbox.run(["import", file] + extra, line: line)
    assertSucceeded(result, line: line)
    XCTAssertEqual(
      result.stdoutText,
      "imported \(added) place\(added == 1 ? "" : "s") (\(duplicates) already in the store)\n", line: line)
    XCTAssertEqual(result.stderrLines, warnings.map { "mymap: warning: " + $0 }, line: line)
    return result
  }

  // MARK: Each format

  func testImportMymapJSONTwice() throws {
    let sandbox = try Sandbox()
    try sandbox.write(mymapJSON, to: "places.json")
    try importFile(sandbox, "places.json", added: 2, duplicates: 0)
    XCTAssertTrue(sandbox.storeExists)
    let places = try sandbox.listJSON()
    XCTAssertEqual(places.map { $0["id"] as? String }, ["ferry-building", "apple-park"])
    XCTAssertEqual(places[1]["description"] as? String, "Apple Park")
    XCTAssertEqual(places[1]["date"] as? String, "2026-11-29T10:00:00Z")
    XCTAssertEqual((places[1]["placemark"] as? [String: String])?["thoroughfare"], "Apple Park Way")
    let before = try sandbox.listJSONText()
    try importFile(sandbox, "places.json", added: 0, duplicates: 2)
    XCTAssertEqual(try sandbox.listJSONText(), before, "importing twice adds nothing")
  }

  func testImportGeoJSON() throws {
    let sandbox = try Sandbox()
    try sandbox.write(Inputs.japanGeoJSON, to: "japan.geojson")
    try importFile(sandbox, "japan.geojson", added: 2, duplicates: 0)
    let list = try sandbox.run(["list"])
    XCTAssertEqual(
      list.stdoutText,
      "Grocery Store\n" + listRow("nishiki", "Nishiki Market", "Lat: 35.01160000, Long: 135.77270000")
        + "Landmark\n" + listRow("tokyo-tower", "Tokyo Tower", "Lat: 35.65860000, Long: 139.74540000"))
    try importFile(sandbox, "japan.geojson", added: 0, duplicates: 2)
  }

  func testImportGPXWaypointsAndTracks() throws {
    let sandbox = try Sandbox()
    try sandbox.write(gpxWithTrack, to: "trip.gpx")
    let first = try sandbox.run(["import", "trip.gpx"])
    assertSucceeded(first)
    XCTAssertEqual(
      first.stdoutText, "imported 2 places (0 already in the store), 1 track (0 already in the store)\n")
    let places = try sandbox.listJSON()
    XCTAssertEqual(places.map { $0["description"] as? String }, ["Eiffel Tower", "Trafalgar Square"])
    XCTAssertEqual(places.map { $0["category"] as? String }, ["Landmark", "No Category"])
    XCTAssertEqual(places[0]["date"] as? String, "2026-05-01T09:00:00Z")
    XCTAssertNil(places[1]["date"])
    // Waypoints have no ids: the same position, description and date is the same place; the track's id
    // is derived from its points.
    let again = try sandbox.run(["import", "trip.gpx"])
    XCTAssertEqual(
      again.stdoutText, "imported 0 places (2 already in the store), 0 tracks (1 already in the store)\n")
    XCTAssertEqual(again.stderr, "")
    // --quiet drops the warning and the summary.
    let quiet = try sandbox.run(["import", "--quiet", "trip.gpx"])
    assertSucceeded(quiet)
    XCTAssertEqual(quiet.stdoutText, "")
    XCTAssertEqual(quiet.stderr, "")
  }

  func testImportCSVWithByteOrderMarkAndCRLF() throws {
    let sandbox = try Sandbox()
    let csv =
      "\u{FEFF}Latitude,Longitude,Name,Category,Date,Locality\r\n"
      + "52.5163,13.3777,\"Brandenburger Tor, Berlin\",Landmark,2026-03-01T12:00:00Z,Berlin\r\n"
      + "48.8584,2.2945,\"Say \"\"bonjour\"\"\",,,Paris\r\n"
    try sandbox.write(csv, to: "sheet.csv")
    try importFile(sandbox, "sheet.csv", added: 2, duplicates: 0)
    // The new store was filled beside its name and renamed: nothing else is left in its folder.
    XCTAssertEqual(try sandbox.files(in: ".home/mymap"), ["locations.sqlite"])
    let list = try sandbox.run(["list"])
    assertSucceeded(list)
    let ids = try sandbox.listedIDs()
    XCTAssertEqual(ids.count, 2)
    XCTAssertEqual(
      list.stdoutText,
      "Landmark\n" + listRow(ids[0], "Brandenburger Tor, Berlin", "Berlin") + "No Category\n"
        + listRow(ids[1], "Say \"bonjour\"", "Paris"))
    try importFile(sandbox, "sheet.csv", added: 0, duplicates: 2)
  }

  func testImportFromStandardInput() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["import", "-"], stdin: Data(mymapJSON.utf8))
    assertSucceeded(result)
    XCTAssertEqual(result.stdoutText, "imported 2 places (0 already in the store)\n")
    XCTAssertEqual(try sandbox.listedIDs(), ["ferry-building", "apple-park"])
    // CSV from a pipe is imported as it is read, its warnings after it, with --json as well.
    let csv = "lat,lon,description,category,note\n1,2,One,Kiosk,x\n3,4,Two,Bar,y\n1,2,One,Kiosk,z\n"
    let piped = try sandbox.run(["import", "-", "--json"], stdin: Data(csv.utf8))
    assertSucceeded(piped)
    let report = try XCTUnwrap(JSONSerialization.jsonObject(with: piped.stdout) as? [String: Any])
    XCTAssertEqual(report["places"] as? Int, 3)
    XCTAssertEqual(report["imported"] as? Int, 2)
    XCTAssertEqual(report["alreadyInStore"] as? Int, 1)
    let known =
      "No Category, Apple Store, Bar, Bookstore, Club, Grocery Store, Historic Building, House, "
      + "Icecream Vendor, Landmark, Park"
    let warnings = [
      #"line 1: ignored columns that mymap does not read: "note""#,
      #"line 2: unknown category "Kiosk" (kept; known: "# + known + ")",
      #"line 4: unknown category "Kiosk" (kept; known: "# + known + ")",
    ]
    XCTAssertEqual(report["warnings"] as? [String], warnings)
    XCTAssertEqual(piped.stderr, warnings.map { "mymap: warning: \($0)\n" }.joined())
    XCTAssertEqual(try sandbox.listedIDs().count, 4)
  }

  /// The My Locations app's own `DataModel.sqlite` (Core Data), copied into the sandbox; the copy is read,
  /// never written.
  func testImportMyLocationsCoreDataStore() throws {
    let fixture = RepositoryPaths.root.appendingPathComponent(
      "Tests/PlacesTests/Fixtures/coredata/DataModel.sqlite")
    guard FileManager.default.fileExists(atPath: fixture.path) else {
      throw TestPrerequisiteMissing("no Core Data fixture at \(fixture.path)")
    }
    let sandbox = try Sandbox()
    let original = try Data(contentsOf: fixture)
    let copy = try sandbox.write(original, to: "app/DataModel.sqlite")
    let first = try sandbox.run(["import", copy])
    assertSucceeded(first)
    XCTAssertEqual(first.stdoutText, "imported 6 places (0 already in the store)\n")
    let places = try sandbox.listJSON()
    XCTAssertEqual(
      Set(places.compactMap { $0["description"] as? String }),
      [
        "Apple Park Visitor Center", "Infinite Loop", "Memorial Park", "", "Books Inc.",
        "Stevens Creek Reservoir",
      ])
    let visitor = try XCTUnwrap(places.first { $0["description"] as? String == "Apple Park Visitor Center" })
    XCTAssertEqual(visitor["id"] as? String, "cd-106abd40781532d5")
    XCTAssertEqual(visitor["category"] as? String, "Apple Store")
    XCTAssertEqual(visitor["date"] as? String, "2024-05-14T09:30:00.25Z")
    let show = try sandbox.run(["show", "cd-106ab"])
    XCTAssertTrue(
      show.stdoutText.contains("\nAddress:     10600 N Tantau Ave, Cupertino, CA 95014, United States\n"),
      show.stdoutText)

    let second = try sandbox.run(["import", copy])
    assertSucceeded(second)
    XCTAssertEqual(second.stdoutText, "imported 0 places (6 already in the store)\n")
    XCTAssertEqual(try sandbox.listJSON().count, 6)
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: copy)), original, "the app's store is not changed")
    XCTAssertEqual(try sandbox.files(in: "app"), ["DataModel.sqlite"], "nor is anything written beside it")
  }

  // MARK: All or nothing

  func testOneBadRecordImportsNothing() throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      """
      { "locations": [
        { "id": "ok", "latitude": 1, "longitude": 2 },
        { "id": "bad", "latitude": 91, "longitude": 2 },
        { "id": "ok2", "latitude": 1, "longitude": 3 } ] }
      """, to: "bad.json")
    try sandbox.write("latitude,longitude,description\n1,2,fine\n95,2,too far north\n", to: "bad.csv")
    try sandbox.write(
      gpxWithTrack.replacingOccurrences(of: #"lat="51.5081""#, with: #"lat="-91""#), to: "bad.gpx")

    // Without a store: none is created. (CSV is imported as it is read, into a new store that takes the
    // store's name only at the end: nothing of it is left.)
    assertFailed(
      try sandbox.run(["import", "bad.json"]), status: 3,
      message: "bad.json: location 2: latitude 91.0 is outside -90…90")
    XCTAssertFalse(sandbox.storeExists)
    assertFailed(
      try sandbox.run(["import", "bad.csv"]), status: 3, message: "bad.csv:3: latitude 95 is outside -90…90")
    XCTAssertFalse(sandbox.storeExists)
    let storeFolder = sandbox.home.appendingPathComponent("mymap").path
    XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: storeFolder)) ?? [], [])

    // With a store: it stays as it was.
    try sandbox.write(mymapJSON, to: "good.json")
    try importFile(sandbox, "good.json", added: 2, duplicates: 0)
    let before = try sandbox.listJSONText()
    assertFailed(
      try sandbox.run(["import", "bad.json"]), status: 3,
      message: "bad.json: location 2: latitude 91.0 is outside -90…90")
    assertFailed(
      try sandbox.run(["import", "bad.csv"]), status: 3, message: "bad.csv:3: latitude 95 is outside -90…90")
    assertFailed(
      try sandbox.run(["import", "bad.gpx"]), status: 3, message: "bad.gpx:4: wpt lat -91 is outside -90…90")
    // A dry run of a bad file lists nothing, though its listing is made as the places are read.
    for (file, message) in [
      ("bad.json", "bad.json: location 2: latitude 91.0 is outside -90…90"),
      ("bad.csv", "bad.csv:3: latitude 95 is outside -90…90"),
      ("bad.gpx", "bad.gpx:4: wpt lat -91 is outside -90…90"),
    ] {
      assertFailed(try sandbox.run(["import", "--dry-run", file]), status: 3, message: message)
    }
    assertFailed(
      try sandbox.run(["import", "missing.json"]), status: 3, message: "missing.json: no such file")
    XCTAssertEqual(try sandbox.listJSONText(), before)
  }

  /// Ctrl-C during a CSV import into a new store: exit 130, nothing imported, and no store or file of it
  /// left; what an import killed earlier left beside the store is gone too.
  func testCtrlCStopsACSVImportAndLeavesNoStore() throws {
    let sandbox = try Sandbox()
    var rows = "lat,lon,description\n"
    for index in 0..<300_000 {
      rows += "\(Double(index % 170) / 2),\(Double(index % 350) / 2),Place \(index)\n"
    }
    try sandbox.write(rows, to: "big.csv")
    let folder = sandbox.home.appendingPathComponent("mymap")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    for suffix in ["", "-wal"] {
      try Data("left".utf8).write(
        to: folder.appendingPathComponent(
          ".locations.sqlite.tmp-\(finished.processIdentifier)-import\(suffix)"))
    }
    let running = try sandbox.start(["import", "big.csv"])
    let staging = ".locations.sqlite.tmp-\(running.process.processIdentifier)-import"
    try FetchTesting.waitUntil("the new store is being filled", running) {
      FileManager.default.fileExists(atPath: folder.appendingPathComponent(staging).path)
    }
    kill(running.process.processIdentifier, SIGINT)
    let result = running.wait()
    XCTAssertEqual(result.status, 130, result.transcript)
    XCTAssertEqual(result.stdoutText, "")
    XCTAssertTrue(
      result.stderr.contains(/^mymap: error: stopped after [0-9]+ places; nothing was imported\n$/),
      result.stderr)
    XCTAssertFalse(sandbox.storeExists)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  // MARK: Dry run

  func testDryRunWithoutAStoreCreatesNone() throws {
    let sandbox = try Sandbox()
    try sandbox.write(mymapJSON, to: "places.json")
    try FileManager.default.createDirectory(atPath: sandbox.path("tmp"), withIntermediateDirectories: true)
    let result = try sandbox.run(
      ["import", "--dry-run", "places.json"], environment: ["TMPDIR": sandbox.path("tmp")])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(
      result.stdoutText,
      listRow("apple-park", "Apple Park", "1 Apple Park Way, Cupertino")
        + listRow("ferry-building", "Ferry Building", "Lat: 37.79550000, Long: -122.39370000")
        + "would import 2 of 2 places (0 already in the store); nothing was changed\n")
    XCTAssertFalse(sandbox.storeExists)
    XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("mymap").path))
    XCTAssertEqual(try sandbox.files(in: "tmp"), [], "the scratch store is removed")
  }

  func testACSVDryRunListsAsItReadsAndCreatesNoStore() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("tmp"), withIntermediateDirectories: true)
    try sandbox.write(
      "lat,lon,description,category\n1,2,One,Park\n3,4,Two,Kiosk\n1,2,One,Park\n", to: "p.csv")
    let result = try sandbox.run(
      ["import", "--dry-run", "p.csv"], environment: ["TMPDIR": sandbox.path("tmp")])
    assertSucceeded(result)
    let rows = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(rows.count, 8, result.stdoutText)
    XCTAssertTrue(rows[0].hasPrefix("  loc-") && rows[0].hasSuffix("  One"), String(rows[0]))
    XCTAssertEqual(rows[4], rows[0], "the same place again is listed again")
    XCTAssertEqual(rows[6], "would import 2 of 3 places (1 already in the store); nothing was changed")
    XCTAssertTrue(
      result.stderr.hasPrefix(#"mymap: warning: line 3: unknown category "Kiosk""#), result.stderr)
    XCTAssertFalse(sandbox.storeExists)
    XCTAssertEqual(try sandbox.files(in: "tmp"), [], "the scratch store is removed")
    // Into a folder that cannot be made, the error names the store the user asked for.
    try sandbox.write("not a folder", to: "file")
    assertFailed(
      try sandbox.run(["import", "p.csv", "--store", sandbox.path("file/locations.sqlite")]), status: 1,
      prefix: "cannot open the places store '\(sandbox.path("file/locations.sqlite"))'")
  }

  func testDryRunWithAStoreChangesNothing() throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      #"{ "locations": [ { "id": "apple-park", "latitude": 37.3349, "longitude": -122.009 } ] }"#,
      to: "one.json")
    try importFile(sandbox, "one.json", added: 1, duplicates: 0)
    let before = try sandbox.listJSONText()
    try sandbox.write(mymapJSON, to: "places.json")
    let result = try sandbox.run(["import", "--dry-run", "places.json"])
    assertSucceeded(result)
    XCTAssertTrue(
      result.stdoutText.hasSuffix(
        "would import 1 of 2 places (1 already in the store); nothing was changed\n"),
      result.stdoutText)
    XCTAssertEqual(try sandbox.listJSONText(), before)
  }

  // MARK: Export

  /// Three places with every kind of field, added and imported.
  private func fillStore(_ sandbox: Sandbox) throws {
    try sandbox.add([
      "--lat", "37.33182", "--lon", "-122.03118", "-d", #"Apple "HQ", Cupertino"#, "-c", "Apple Store",
      "--address", "1|Infinite Loop|Cupertino|CA|95014|United States",
    ])
    try sandbox.add(["--here", "52.3731,4.8922", "-c", "Bar", "--photo", "/photos/bar.jpg"])
    try sandbox.add([
      "--here", "-33.8568,151.2153", "-d", "Opera — Sydney ☀", "--date", "2026-01-02T03:04:05.5Z",
      "--address", "|Bennelong Point|Sydney",
    ])
    try sandbox.write(gpxWithTrack, to: "trip.gpx")
    assertSucceeded(try sandbox.run(["import", "-q", "trip.gpx"]))
  }

  func testExportToStandardOutputInEachFormat() throws {
    let sandbox = try Sandbox()
    try sandbox.write(mymapJSON, to: "places.json")
    assertSucceeded(try sandbox.run(["import", "places.json"]))

    let csv = try sandbox.run(["export", "--format", "csv"])
    assertSucceeded(csv)
    XCTAssertEqual(csv.stderr, "")
    XCTAssertEqual(
      csv.stdoutText,
      """
      latitude,longitude,description,category,date,id,subThoroughfare,thoroughfare,locality,administrativeArea,postalCode,country,photo
      37.7955,-122.3937,Ferry Building,Grocery Store,2026-11-28T16:30:00Z,ferry-building,,,,,,,
      37.3349,-122.009,Apple Park,Landmark,2026-11-29T10:00:00Z,apple-park,1,Apple Park Way,Cupertino,CA,95014,United States,

      """)

    let json = try sandbox.run(["export", "--format", "JSON"])
    assertSucceeded(json)
    XCTAssertEqual(
      try places(inJSON: json.stdout).map { $0["id"] as? String }, ["ferry-building", "apple-park"])

    let geojson = try sandbox.run(["export", "--format", "geojson"])
    assertSucceeded(geojson)
    let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: geojson.stdout) as? [String: Any])
    XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
    let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
    XCTAssertEqual(features.map { $0["id"] as? String }, ["ferry-building", "apple-park"])
    let geometry = try XCTUnwrap(features[1]["geometry"] as? [String: Any])
    XCTAssertEqual((geometry["coordinates"] as? [Any])?.map { number($0) }, [-122.009, 37.3349])

    let gpx = try sandbox.run(["export", "--format", "gpx"])
    assertSucceeded(gpx)
    XCTAssertTrue(gpx.stdoutText.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#), gpx.stdoutText)
    XCTAssertTrue(gpx.stdoutText.contains(#"<wpt lat="37.3349" lon="-122.009">"#), gpx.stdoutText)
    XCTAssertTrue(gpx.stdoutText.contains("<name>Apple Park</name>"), gpx.stdoutText)

    // Filters, as for list.
    let landmarks = try sandbox.run(["export", "--format", "csv", "--category", "LANDMARK"])
    XCTAssertEqual(landmarks.stdoutText.split(separator: "\n").count, 2)
    let late = try sandbox.run(["export", "--format", "json", "--since", "2026-11-29"])
    XCTAssertEqual(try places(inJSON: late.stdout).map { $0["id"] as? String }, ["apple-park"])
    XCTAssertEqual(try sandbox.files(), ["places.json"], "export to stdout writes no file")
  }

  func testExportToAFileTakesTheFormatFromItsExtension() throws {
    let sandbox = try Sandbox()
    try fillStore(sandbox)
    for format in ["json", "geojson", "gpx", "csv"] {
      let result = try sandbox.run(["export", "--out", "places.\(format)"])
      assertSucceeded(result)
      XCTAssertEqual(result.stdoutText, "")
      // The store holds trip.gpx's track, which CSV cannot hold.
      XCTAssertEqual(
        result.stderr, format == "csv" ? "mymap: warning: CSV holds places only: 1 track not written\n" : "")
      let stdout = try sandbox.run(["export", "--format", format])
      XCTAssertEqual(sandbox.contents(of: "places.\(format)"), stdout.stdout, format)
    }
    let tagged = try sandbox.run(["export", "-o", "out.txt", "--format", "csv"])
    assertSucceeded(tagged)
    XCTAssertEqual(sandbox.contents(of: "out.txt"), sandbox.contents(of: "places.csv"))
    XCTAssertEqual(
      try sandbox.files(),
      ["out.txt", "places.csv", "places.geojson", "places.gpx", "places.json", "trip.gpx"])

    let which = "which format? give --format json|geojson|gpx|csv (or an --out file ending in one)"
    assertFailed(try sandbox.run(["export"]), status: 2, message: which)
    assertFailed(try sandbox.run(["export", "--out", "places.txt"]), status: 2, message: which)
    assertFailed(
      try sandbox.run(["export", "--format", "kml"]), status: 2,
      message: "invalid value 'kml' for --format: expected json, geojson, gpx or csv")
    assertFailed(
      try sandbox.run(["export", "--out", "nowhere/places.csv"]), status: 1,
      prefix: "cannot write nowhere/places.csv: the folder ")
    XCTAssertFalse(try sandbox.files().contains("places.txt"))
  }

  /// Fills the sandbox's store with `count` places straight through SQL (an import would take longer
  /// than the test): `idPrefix1`… at a spread of positions, all dated. The store must exist.
  private func addPlaces(_ sandbox: Sandbox, count: Int, idPrefix: String) throws {
    try sqliteExecute(
      sandbox.storePath,
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
      INSERT INTO location (id, latitude, longitude, description, category, date)
      SELECT '\(idPrefix)' || i, (i % 170) / 2.0, (i % 350) / 2.0, 'Place ' || i, 'Bar', 1700000000 + i FROM n;
      """)
  }

  /// An export is written a piece at a time: one larger than a piece reads back whole, and Ctrl-C
  /// halfway stops it (exit 130). (That a failure halfway leaves a file as it was is below.)
  func testALargeExportReadsBackAndCtrlCStopsIt() throws {
    let sandbox = try Sandbox()
    try sandbox.write(gpxWithTrack, to: "trip.gpx")
    assertSucceeded(try sandbox.run(["import", "-q", "trip.gpx"]))  // Two places and a track.
    try addPlaces(sandbox, count: 5_000, idPrefix: "p")
    for format in ["json", "geojson", "gpx"] {
      assertSucceeded(try sandbox.run(["export", "--out", "all.\(format)"]))
      XCTAssertGreaterThan(sandbox.contents(of: "all.\(format)")?.count ?? 0, 10 << 16, format)
      let dryRun = try sandbox.run([
        "import", "all.\(format)", "--dry-run", "--json", "--store", "copy.sqlite",
      ])
      assertSucceeded(dryRun)
      let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: dryRun.stdout) as? [String: Any])
      XCTAssertEqual(summary["places"] as? Int, 5_002, format)
    }

    // Ctrl-C: into a FIFO this test reads, so that the export waits, blocked on a full pipe, when the
    // signal comes; it stops at the next thousand places and says what it left.
    let fifo = sandbox.path("out.fifo")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let running = try sandbox.start(["export", "--format", "json", "--out", fifo])
    let reader = try XCTUnwrap(FileHandle(forReadingAtPath: fifo))
    let first = reader.readData(ofLength: 1 << 16)
    kill(running.process.processIdentifier, SIGINT)
    usleep(300_000)  // The signal's handler runs meanwhile; the export cannot go on with the pipe full.
    let rest = reader.readDataToEndOfFile()
    let result = running.wait()
    XCTAssertEqual(result.status, 130, result.transcript)
    XCTAssertEqual(result.stderr, "mymap: error: stopped; the output is incomplete\n")
    XCTAssertLessThan(first.count + rest.count, sandbox.contents(of: "all.json")?.count ?? 0)
    XCTAssertFalse(String(decoding: first + rest, as: UTF8.self).hasSuffix("]\n}\n"), "the file is not ended")
  }

  /// A store failure halfway through an export (a track's points damaged) leaves a file as it was; on
  /// standard output, where the places before it went, the message says the output is incomplete.
  func testAStoreFailureHalfwayThroughAnExport() throws {
    let sandbox = try Sandbox()
    try fillStore(sandbox)
    try addPlaces(sandbox, count: 2_000, idPrefix: "p")  // More than one piece comes before the tracks.
    try sqliteExecute(sandbox.storePath, "UPDATE track SET points = x'00'")
    let message = "the places store failed: the points of track 'trk-"
    let toStandardOutput = try sandbox.run(["export", "--format", "json"])
    XCTAssertEqual(toStandardOutput.status, 1, toStandardOutput.transcript)
    XCTAssertTrue(
      toStandardOutput.stdoutText.hasPrefix("{\n  \"locations\": [\n"), toStandardOutput.stdoutText)
    XCTAssertTrue(
      toStandardOutput.stderr.hasPrefix("mymap: error: \(message)")
        && toStandardOutput.stderr.hasSuffix("' are damaged; the output is incomplete\n"),
      toStandardOutput.stderr)
    try sandbox.write("old", to: "all.json")
    let toFile = try sandbox.run(["export", "--out", "all.json"])
    XCTAssertEqual(toFile.status, 1, toFile.transcript)
    XCTAssertTrue(toFile.stderr.hasSuffix("' are damaged\n"), toFile.stderr)
    XCTAssertEqual(sandbox.contents(of: "all.json"), Data("old".utf8))
    XCTAssertFalse(try sandbox.files().contains { $0.hasPrefix(".all.json") })
    // CSV holds no tracks: it reads none, so the damage does not stop it.
    assertSucceeded(try sandbox.run(["export", "--out", "all.csv"]))
  }

  /// Export, then import into a fresh store: the same places, field for field.
  func testExportThenImportGivesTheSamePlaces() throws {
    let sandbox = try Sandbox()
    try fillStore(sandbox)
    let original = try sandbox.listJSONText()
    XCTAssertEqual(try places(inJSON: Data(original.utf8)).count, 5)
    for format in ["json", "geojson", "gpx", "csv"] {
      assertSucceeded(try sandbox.run(["export", "--out", "export.\(format)"]))
      let store = sandbox.path("copy-\(format).sqlite")
      let imported = try sandbox.run(["import", "export.\(format)", "--store", store])
      assertSucceeded(imported)
      let track = format == "csv" ? "" : ", 1 track (0 already in the store)"
      XCTAssertEqual(imported.stdoutText, "imported 5 places (0 already in the store)\(track)\n", format)
      let copy = try sandbox.run(["list", "--json", "--store", store])
      assertSucceeded(copy)
      XCTAssertEqual(copy.stdoutText, original, "\(format) round trip")
      // And into the original store: every place is already there.
      let again = try sandbox.run(["import", "export.\(format)"])
      let trackAgain = format == "csv" ? "" : ", 0 tracks (1 already in the store)"
      XCTAssertEqual(again.stdoutText, "imported 0 places (5 already in the store)\(trackAgain)\n", format)
    }
    XCTAssertEqual(try sandbox.listJSONText(), original)
  }
}
