import Foundation
import Places
import XCTest

final class GPXTests: XCTestCase {
  private let knownCategories =
    "No Category, Apple Store, Bar, Bookstore, Club, Grocery Store, Historic Building, House, Icecream Vendor, "
    + "Landmark, Park"

  // MARK: Real exports

  func testGarminExport() throws {
    let set = try LocationsFile.read(path: fixturePath("garmin.gpx"))
    XCTAssertEqual(
      set.locations.map(\.title), ["Zürich HB", "Zytglogge & Kramgasse", "Kapellbrücke <covered bridge>"])
    XCTAssertEqual(
      set.locations[0],
      Location(
        latitude: 47.376887, longitude: 8.541694, locationDescription: "Zürich HB",
        category: "Historic Building", date: utc(2026, 6, 1, 9, 12, 30),
        placemark: Placemark(
          thoroughfare: "Bahnhofplatz 15", locality: "Zürich", administrativeArea: "ZH", postalCode: "8001",
          country: "Switzerland")))
    XCTAssertEqual(set.locations[1].date, utc(2026, 6, 1, 14, 3))
    XCTAssertEqual(set.locations[1].category, "Landmark")
    XCTAssertNil(set.locations[1].placemark)
    XCTAssertEqual(set.locations[2].category, "user")
    XCTAssertNil(set.locations[2].date)
    XCTAssertEqual(
      set.warnings,
      [
        "line 45: unknown category \"user\" (kept; known: \(knownCategories))"
      ])
    XCTAssertNil(set.user)
    // The route and the two tracks, Garmin's extensions (colour, heart rate) skipped.
    XCTAssertEqual(set.tracks.map(\.name), ["Zürich – Bern", "Morning walk", "Old town loop"])
    XCTAssertEqual(set.tracks.map(\.kind), [.route, .track, .track])
    XCTAssertEqual(
      set.tracks[1].segments,
      [
        [
          TrackPoint(latitude: 47.3767, longitude: 8.5399, elevation: 410.2, time: utc(2026, 6, 1, 7, 1, 12)),
          TrackPoint(latitude: 47.3771, longitude: 8.5404, elevation: 409.8, time: utc(2026, 6, 1, 7, 1, 44)),
        ]
      ])
    XCTAssertEqual(set.tracks[0].segments[0].map(\.time), [nil, nil])
    XCTAssertTrue(set.tracks.allSatisfy { $0.id.hasPrefix($0.kind == .track ? "trk-" : "rte-") })
  }

  func testGarminWaypointsHaveDerivedIDs() throws {
    let set = try LocationsFile.read(path: fixturePath("garmin.gpx"))
    XCTAssertEqual(
      set.locations[1].id,
      Location.derivedID(
        latitude: 46.948002, longitude: 7.447447, locationDescription: "Zytglogge & Kramgasse",
        date: utc(2026, 6, 1, 14, 3)))
    XCTAssertEqual(set.givenIDs, [])
    XCTAssertEqual(set.idsGiven, [false, false, false])
  }

  func testOsmAndFavourites() throws {
    let set = try LocationsFile.read(path: fixturePath("osmand-favourites.gpx"))
    XCTAssertEqual(set.locations.map(\.title), ["Kauppatori", "Ravintola Sea Horse", "Uspenski Cathedral"])
    XCTAssertEqual(set.locations.map(\.category), ["Grocery Store", "Restaurants", "No Category"])
    XCTAssertEqual(
      set.locations.map(\.date), [utc(2026, 7, 14, 16, 20, 5), utc(2026, 7, 14, 14, 2, 41), nil])
    XCTAssertEqual(set.locations.map(\.placemark), [nil, nil, nil])
    XCTAssertEqual(
      set.warnings, ["line 17: unknown category \"Restaurants\" (kept; known: \(knownCategories))"])
  }

  func testGPX10File() throws {
    let set = try LocationsFile.read(path: fixturePath("gpx10.gpx"))
    XCTAssertEqual(
      set.locations,
      [
        Location(
          latitude: 51.501364, longitude: -0.14193, locationDescription: "PALACE", category: "Landmark",
          date: utc(2009, 8, 21, 11, 30)),
        Location(latitude: 51.508076, longitude: -0.07595, locationDescription: "Tower of London"),
        Location(
          latitude: 51.51417, longitude: -0.14199, locationDescription: "Café Royal", category: "Cafe",
          date: utc(2009, 8, 22, 10, 5)),
      ])
    XCTAssertEqual(
      set.warnings,
      [
        "line 21: unknown category \"Cafe\" (kept; known: \(knownCategories))",
        "line 21: time \"2009-08-22T10:05:00\" has no time zone; read as UTC",
      ])
    XCTAssertEqual(set.tracks.map(\.name), ["ACTIVE LOG"])
    XCTAssertEqual(
      set.tracks[0].segments, [[TrackPoint(latitude: 51.5014, longitude: -0.1419, elevation: 9)]])
  }

  // MARK: Fields

  func testDescFillsInForAMissingOrEmptyName() throws {
    let set = try readText(
      gpx(
        """
        <wpt lat="1" lon="2"><name>Name</name><desc>Desc</desc></wpt>
        <wpt lat="1" lon="3"><desc>Only desc</desc></wpt>
        <wpt lat="1" lon="4"><name></name><desc>Empty name</desc></wpt>
        <wpt lat="1" lon="5"><cmt>Comment only</cmt></wpt>
        """), name: "walk.gpx")
    XCTAssertEqual(set.locations.map(\.locationDescription), ["Name", "Only desc", "Empty name", ""])
  }

  func testGPXWithoutNamespace() throws {
    let set = try readText(
      "<gpx version=\"1.0\"><wpt lat=\"-33.8568\" lon=\"151.2153\"><name>Opera House</name></wpt></gpx>",
      name: "sydney.gpx")
    XCTAssertEqual(
      set.locations, [Location(latitude: -33.8568, longitude: 151.2153, locationDescription: "Opera House")])
  }

  func testMymapExtensions() throws {
    let text = gpx(
      """
      <wpt lat="37.3349" lon="-122.009">
        <name>Apple Park</name>
        <extensions>
          <m:id>apple-park</m:id>
          <m:placemark><m:subThoroughfare>1</m:subThoroughfare><m:locality>Cupertino</m:locality></m:placemark>
          <m:photo>photos/apple-park.jpg</m:photo>
        </extensions>
      </wpt>
      <wpt lat="1" lon="2"><m:id>gpx-1.0-style</m:id></wpt>
      """, namespaces: " xmlns:m=\"urn:mymap:gpx:1\"")
    let set = try readText(text, name: "walk.gpx")
    XCTAssertEqual(
      set.locations[0],
      Location(
        id: "apple-park", latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park",
        placemark: Placemark(subThoroughfare: "1", locality: "Cupertino"), photoPath: "photos/apple-park.jpg")
    )
    XCTAssertEqual(set.locations[1].id, "gpx-1.0-style")
    XCTAssertEqual(set.givenIDs, ["apple-park", "gpx-1.0-style"])
  }

  func testExtensionsInOtherNamespacesAreIgnored() throws {
    let text = gpx(
      "<wpt lat=\"1\" lon=\"2\"><extensions><x:id>not-ours</x:id><x:name>Other</x:name></extensions></wpt>",
      namespaces: " xmlns:x=\"urn:someone-else\"")
    let location = try readText(text, name: "walk.gpx").locations[0]
    XCTAssertEqual(location, Location(latitude: 1, longitude: 2))
  }

  func testRoutePointsAndTrackPointsAreNotPlaces() throws {
    let set = try readText(
      gpx("<rte><rtept lat=\"1\" lon=\"2\"><name>A</name></rtept></rte>"), name: "route.gpx")
    XCTAssertEqual(set.locations, [])
    XCTAssertEqual(set.warnings, [])
    XCTAssertEqual(set.tracks.map(\.pointCount), [1])
    let tracks = try readText(gpx("<trk/><trk/><trk/>"), name: "t.gpx")
    XCTAssertEqual(tracks.warnings, ["skipped 3 tracks without points"])
    let both = try readText(gpx("<trk/><rte/><rte/>"), name: "t.gpx")
    XCTAssertEqual(both.warnings, ["skipped 3 tracks without points"])
  }

  func testEmptyGPX() throws {
    XCTAssertEqual(try readText(gpx(""), name: "empty.gpx"), LocationSet())
  }

  func testSpacesAroundCoordinatesAndTime() throws {
    let set = try readText(
      gpx("<wpt lat=\" 1.5 \" lon=\"2\"><time>\n  2026-11-29\n</time></wpt>"), name: "w.gpx")
    XCTAssertEqual(set.locations.map(\.latitude), [1.5])
    XCTAssertEqual(set.locations.map(\.date), [utc(2026, 11, 29)])
  }

  // MARK: Errors

  func testMalformedXMLNamesTheLine() {
    XCTAssertThrowsError(try LocationsFile.read(path: fixturePath("broken-tag.gpx"))) { error in
      XCTAssertEqual(
        "\(error)",
        fixturePath("broken-tag.gpx")
          + ":7: malformed XML: a closing tag does not match the element it closes")
    }
  }

  func testUnescapedAmpersand() {
    XCTAssertEqual(
      errorLine(gpx("<wpt lat=\"1\" lon=\"2\">\n<name>Fish & Chips</name></wpt>"), name: "walk.gpx"),
      "walk.gpx:4: malformed XML: '&' or '<' not followed by a name (write a literal & as &amp; and < as &lt;)"
    )
  }

  func testErrorsNameTheLineWhateverTheLineEnds() {
    for end in ["\n", "\r", "\r\n"] {
      let text = ["<gpx>", "<wpt lat=\"1\" lon=\"1\"/>", "<wpt lat=\"91\" lon=\"1\"/></gpx>"].joined(
        separator: end)
      XCTAssertEqual(errorLine(end + text, name: "w.gpx"), "w.gpx:4: wpt lat 91 is outside -90…90")
    }
  }

  func testTruncatedFile() {
    XCTAssertEqual(
      errorLine("<gpx>\n<wpt lat=\"1\" lon=\"2\">\n<name>x</name>", name: "walk.gpx"),
      "walk.gpx:3: malformed XML: the document ends too early, or has more after its root element")
  }

  func testOtherXMLErrors() {
    XCTAssertEqual(
      errorLine("<gpx>\n<wpt lat=\"1\" lat=\"2\"/></gpx>", name: "w.gpx"),
      "w.gpx:2: malformed XML: an attribute given twice in one tag")
    XCTAssertEqual(
      errorLine("<gpx>\n<wpt lat=1 lon=2/></gpx>", name: "w.gpx"),
      "w.gpx:2: malformed XML: an attribute value must be in quotes")
    XCTAssertEqual(
      errorLine("<gpx>\n<x:wpt/></gpx>", name: "w.gpx"),
      "w.gpx:2: malformed XML: a namespace prefix that is not declared")
    XCTAssertEqual(
      errorLine("<gpx><name>&nbsp;</name></gpx>", name: "w.gpx"),
      "w.gpx:1: malformed XML: an undefined entity (write a literal & as &amp;)")
  }

  func testEncodingsOtherThanUTF8AndLatin1AreRefused() throws {
    // libxml2 converts other encodings through iconv; a failed conversion, stopped from its error report,
    // crashed it (found by Fuzz/Harnesses/gpx.swift).
    for declaration in [
      "<?xml version=\"1.0\" encoding=\"UTF-7\"\0", "<?xml version=\"1.0\" encoding='ISO-8859-8'?>\n<gpx/>",
    ] {
      let encoding = declaration.contains("UTF-7") ? "UTF-7" : "ISO-8859-8"
      XCTAssertEqual(
        errorLine(declaration, name: "w.gpx"),
        "w.gpx:1: the file declares the encoding \"\(encoding)\", which mymap does not read; save it as UTF-8"
      )
    }
    let latin1 =
      Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>Caf".utf8)
      + Data([0xE9]) + Data("</name></wpt></gpx>".utf8)
    let set = try LocationsFile.read(data: latin1, name: "w.gpx")
    XCTAssertEqual(set.locations.map(\.locationDescription), ["Café"])
  }

  func testANULByteIsRefusedWithWhatToDo() throws {
    // `<` NUL `?` NUL made libxml2 switch to UTF-16 and then read through a NULL pointer: this 80-byte file
    // (Fuzz/Regressions/gpx/580f2b8e21ff) crashed `mymap import` with a segmentation fault.
    let crash = Data([
      0x3C, 0x00, 0x3F, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x50,
      0x00, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x26, 0x22, 0x22, 0x22, 0x22, 0x22, 0xDB, 0x22, 0x22,
      0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x5B,
      0x22, 0x22, 0x22, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x22, 0x2A, 0x22, 0x22, 0x22,
      0x22, 0x22, 0x00, 0x00, 0x22, 0x3F, 0x3E, 0x68, 0x74, 0x3C, 0x77, 0x70, 0x74, 0x2F, 0x3E, 0x0A,
    ])
    let message =
      "the file holds a NUL byte, which XML text never does (UTF-16, UTF-32 or not text at all); save it as UTF-8"
    XCTAssertThrowsError(try LocationsFile.read(data: crash, name: "w.gpx")) {
      XCTAssertEqual("\($0)", "w.gpx:1: " + message)
    }
    XCTAssertEqual(
      errorLine(gpx("<wpt lat=\"1\" lon=\"2\"/>\n<name>a\0b</name>"), name: "w.gpx"), "w.gpx:4: " + message)
  }

  func testAProcessingInstructionWithoutContentIsRead() throws {
    // FoundationXML passed libxml2's NULL content of `<?x?>` to strlen and crashed (found by
    // Fuzz/Harnesses/gpx.swift); mymap's own reader skips it as any other.
    let set = try readText(gpx("<wpt lat=\"1\" lon=\"2\"/>\n<?x-y?>"), name: "w.gpx")
    XCTAssertEqual(set.locations.map(\.latitude), [1])
    XCTAssertNoThrow(try readText("<?x?><gpx/>", name: "w.gpx"))
    XCTAssertNoThrow(try readText(gpx("<?x ?><?y data?>"), name: "w.gpx"))
  }

  func testWaypointCoordinateErrors() {
    func wpt(_ attributes: String) -> String { gpx("<wpt lat=\"1\" lon=\"1\"/>\n<wpt \(attributes)/>") }
    XCTAssertEqual(errorLine(wpt("lon=\"2\""), name: "w.gpx"), "w.gpx:4: wpt has no lat attribute")
    XCTAssertEqual(errorLine(wpt("lat=\"2\""), name: "w.gpx"), "w.gpx:4: wpt has no lon attribute")
    XCTAssertEqual(errorLine(wpt(""), name: "w.gpx"), "w.gpx:4: wpt has no lat and lon attributes")
    XCTAssertEqual(
      errorLine(wpt("lat=\"abc\" lon=\"2\""), name: "w.gpx"), "w.gpx:4: wpt lat \"abc\" is not a number")
    XCTAssertEqual(errorLine(wpt("lat=\"\" lon=\"2\""), name: "w.gpx"), "w.gpx:4: wpt lat is empty")
    XCTAssertEqual(
      errorLine(wpt("lat=\"1\" lon=\"181\""), name: "w.gpx"), "w.gpx:4: wpt lon 181 is outside -180…180")
    XCTAssertEqual(
      errorLine(wpt("lat=\"NaN\" lon=\"1\""), name: "w.gpx"),
      "w.gpx:4: wpt lat \"NaN\" is not a finite number")
  }

  func testLatitudeOutOfRangeInAFile() {
    XCTAssertThrowsError(try LocationsFile.read(path: fixturePath("bad-coordinate.gpx"))) { error in
      XCTAssertEqual("\(error)", fixturePath("bad-coordinate.gpx") + ":6: wpt lat 91.5 is outside -90…90")
      XCTAssertEqual(
        error as? LocationsFileError,
        .invalidLine(
          file: fixturePath("bad-coordinate.gpx"), line: 6, message: "wpt lat 91.5 is outside -90…90"))
    }
  }

  func testBadTimeNamesItsLine() {
    XCTAssertEqual(
      errorLine(
        gpx("<wpt lat=\"1\" lon=\"2\">\n  <name>x</name>\n  <time>yesterday</time>\n</wpt>"), name: "w.gpx"),
      "w.gpx:5: time \"yesterday\" is not an ISO 8601 date (expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")"
    )
  }

  func testDuplicateIDs() {
    let text = gpx(
      """
      <wpt lat="1" lon="2"><extensions><mymap:id>home</mymap:id></extensions></wpt>
      <wpt lat="3" lon="4"/>
      <wpt lat="5" lon="6"><extensions><mymap:id>home</mymap:id></extensions></wpt>
      """, namespaces: " xmlns:mymap=\"urn:mymap:gpx:1\"")
    XCTAssertEqual(errorLine(text, name: "w.gpx"), "w.gpx:5: duplicate id \"home\" (line 3 has it too)")
  }

  func testRootElementMustBeGPX() {
    XCTAssertEqual(
      errorLine("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>", name: "feed.gpx"),
      "feed.gpx: not a locations file: expected a GPX file (XML with a <gpx> root element), "
        + "found XML whose root element is <rss>")
  }

  func testGPXFormatAskedForOtherContent() {
    XCTAssertEqual(
      errorLine(#"{"locations": []}"#, name: "x.json", format: .gpx),
      "x.json: not a locations file: expected a GPX file (XML with a <gpx> root element), "
        + "found text starting with \"{\\\"locations\\\": []}\"")
  }

  // MARK: Writing

  func testWrittenTextIsExact() {
    let set = LocationSet(locations: [
      Location(
        id: "apple-park", latitude: 37.3349, longitude: -122.009,
        locationDescription: "Apple <Park> & \"Co\"",
        category: "Landmark", date: utc(2026, 11, 29, 10),
        placemark: Placemark(subThoroughfare: "1", locality: "Cupertino"), photoPath: "p.jpg"),
      Location(id: "x", latitude: 0.5, longitude: 10),
    ])
    XCTAssertEqual(
      String(decoding: LocationsFile.encode(set, format: .gpx), as: UTF8.self),
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="mymap" xmlns="http://www.topografix.com/GPX/1/1" \
      xmlns:mymap="urn:mymap:gpx:1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
      xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
        <wpt lat="37.3349" lon="-122.009">
          <time>2026-11-29T10:00:00Z</time>
          <name>Apple &lt;Park&gt; &amp; &quot;Co&quot;</name>
          <type>Landmark</type>
          <extensions>
            <mymap:id>apple-park</mymap:id>
            <mymap:placemark>
              <mymap:subThoroughfare>1</mymap:subThoroughfare>
              <mymap:locality>Cupertino</mymap:locality>
            </mymap:placemark>
            <mymap:photo>p.jpg</mymap:photo>
          </extensions>
        </wpt>
        <wpt lat="0.5" lon="10">
          <extensions>
            <mymap:id>x</mymap:id>
          </extensions>
        </wpt>
      </gpx>

      """)
  }

  func testEmptySetIsWritten() throws {
    let data = LocationsFile.encode(LocationSet(), format: .gpx)
    XCTAssertEqual(try readText(String(decoding: data, as: UTF8.self), name: "empty.gpx"), LocationSet())
  }

  func testCharactersXMLCannotHoldAreLeftOut() throws {
    let set = LocationSet(locations: [
      Location(id: "a", latitude: 1, longitude: 2, locationDescription: "bell\u{7}!")
    ])
    let copy = try LocationsFile.read(data: LocationsFile.encode(set, format: .gpx), name: "a.gpx")
    XCTAssertEqual(copy.locations.map(\.locationDescription), ["bell!"])
  }
}

extension GPXTests {
  func testBlankLinesBeforeTheDeclarationAreSkippedAndCounted() throws {
    let text = "\n\n" + gpx("<wpt lat=\"1\" lon=\"2\"/>\n<wpt lat=\"95\" lon=\"2\"/>")
    XCTAssertEqual(errorLine(text, name: "w.gpx"), "w.gpx:6: wpt lat 95 is outside -90…90")
    XCTAssertEqual(errorLine("\n<gpx>\n<wpt>&</wpt></gpx>", name: "w.gpx").prefix(8), "w.gpx:3:")
  }

  func testWaypointsBesideALongTrack() throws {
    // Over 10 MB, where XMLParser(data:) gives up on Linux.
    var text =
      #"<?xml version="1.0"?><gpx version="1.1"><wpt lat="1" lon="2"><name>Start</name></wpt><trk><trkseg>"#
    let point =
      #"<trkpt lat="47.376700" lon="8.539900"><ele>410.2</ele><time>2026-06-01T07:01:12Z</time></trkpt>"#
    text.reserveCapacity(12_000_000)
    for _ in 0..<120_000 { text += point + "\n" }
    text += "</trkseg></trk><wpt lat=\"3\" lon=\"4\"><name>End</name></wpt></gpx>\n"
    XCTAssertGreaterThan(text.utf8.count, 11_000_000)
    let set = try readText(text, name: "long.gpx")
    XCTAssertEqual(set.locations.map(\.title), ["Start", "End"])
    XCTAssertEqual(set.warnings, [])
    XCTAssertEqual(set.tracks.map(\.pointCount), [120_000])
  }
}
