import Foundation
import Places
import TestSupport
import XCTest

final class CSVTests: XCTestCase {
  private let knownCategories =
    "No Category, Apple Store, Bar, Bookstore, Club, Grocery Store, Historic Building, House, Icecream Vendor, "
    + "Landmark, Park"

  private func csv(_ text: String) throws -> LocationSet { try readText(text, name: "places.csv") }

  private func csvError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    errorLine(text, name: "places.csv", file: file, line: line)
  }

  // MARK: A spreadsheet's export

  func testSpreadsheetExport() throws {
    let set = try LocationsFile.read(path: fixturePath("spreadsheet.csv"))
    XCTAssertEqual(
      set.locations.map(\.locationDescription),
      [
        "Brandenburger Tor", "Shakespeare and Company, Paris", "Café Central\nHerrengasse 14", "Vondelpark",
        " Piazza San Pietro ",
      ])
    XCTAssertEqual(
      set.locations[0],
      Location(
        id: "brandenburger-tor", latitude: 52.516275, longitude: 13.377704,
        locationDescription: "Brandenburger Tor", category: "Historic Building",
        date: utc(2026, 5, 14, 9, 30),
        placemark: Placemark(locality: "Berlin", country: "Germany")))
    XCTAssertEqual(set.locations[1].date, utc(2026, 5, 16, 15, 5, 12.25))
    XCTAssertEqual(set.locations[2].date, utc(2026, 6, 3, 14, 45))
    XCTAssertEqual(set.locations[4].latitude, 41.9022)
    XCTAssertEqual(set.locations[4].longitude, 12.4539)
    XCTAssertEqual(set.locations[4].category, "No Category")
    XCTAssertNil(set.locations[4].placemark)
    XCTAssertNil(set.locations[4].date)
    XCTAssertEqual(
      set.warnings,
      [
        "line 1: ignored columns that mymap does not read: \"Notes\"",
        "line 4: unknown category \"Cafe\" (kept; known: \(knownCategories))",
        "line 4: date \"2026-06-03 14:45\" has no time zone; read as UTC",
      ])
  }

  /// Found by the csv fuzzer (Fuzz/Regressions/csv/04b7f9a131ac): a quote followed by a combining mark is
  /// one Swift `Character`, and the writer did not double it, so what it wrote did not read back.
  func testAQuoteBeforeACombiningMarkIsDoubledWhenWritten() throws {
    let place = Location(
      id: "q", latitude: 4, longitude: 2, locationDescription: "o\"\u{0362}, \"\u{301}x", category: "Park")
    let written = LocationsFile.encode(LocationSet(locations: [place]), format: .csv)
    XCTAssertTrue(
      String(decoding: written, as: UTF8.self).contains("\"o\"\"\u{0362}, \"\"\u{301}x\""),
      String(decoding: written, as: UTF8.self))
    let again = try LocationsFile.read(data: written, name: "again.csv")
    XCTAssertEqual(again.locations.map(\.locationDescription), [place.locationDescription])
    let fuzzed = try Data(
      contentsOf: RepositoryPaths.root.appendingPathComponent("Fuzz/Regressions/csv/04b7f9a131ac"))
    let read = try LocationsFile.read(data: fuzzed, name: "fuzzed.csv", format: .csv)
    let rewritten = LocationsFile.encode(read, format: .csv)
    XCTAssertEqual(
      try LocationsFile.read(data: rewritten, name: "again.csv").locations.map(\.locationDescription),
      read.locations.map(\.locationDescription))
  }

  func testGivenAndDerivedIDs() throws {
    let set = try LocationsFile.read(path: fixturePath("spreadsheet.csv"))
    XCTAssertEqual(set.givenIDs, ["brandenburger-tor"])
    XCTAssertEqual(set.idsGiven, [true, false, false, false, false])
    XCTAssertEqual(
      set.locations[3].id,
      Location.derivedID(
        latitude: 52.358, longitude: 4.8686, locationDescription: "Vondelpark", date: utc(2026, 6, 1)))
  }

  func testRealCitiesSample() throws {
    // 103 rows of GeoNames' cities (CC BY 4.0), bytes unchanged: CRLF line ends, UTF-8 names, quoted fields.
    let set = try LocationsFile.read(path: RepositoryPaths.fixture("places/cities-sample.csv").path)
    XCTAssertEqual(set.locations.count, 103)
    XCTAssertEqual(set.locations[0].title, "Shanghai")
    XCTAssertEqual(set.locations[0].latitude, 31.22222)
    XCTAssertEqual(set.locations[0].longitude, 121.45806)
    XCTAssertEqual(set.locations.filter { $0.title == "São Paulo" }.count, 1)
    XCTAssertEqual(
      set.locations.suffix(3).map(\.title),
      ["Mianzhu, Deyang, Sichuan", "Misato, Saitama", "Sant Pere, Santa Caterina i La Ribera"])
    XCTAssertEqual(set.locations.last?.longitude, 2.18152)
    XCTAssertEqual(
      set.warnings,
      [
        "line 1: ignored columns that mymap does not read: "
          + "\"geonameid\", \"countrycode\", \"population\", \"timezone\""
      ])
  }

  func testRealCitiesFile() throws {
    // All of GeoNames' cities (CC BY 4.0): 34,006 rows, too large to copy into the repository.
    let path = try RepositoryPaths.requireSharedData(
      "places/cities15000.csv", for: "reading the whole GeoNames cities file"
    ).path
    let set = try LocationsFile.read(path: path)
    XCTAssertEqual(set.locations.count, 34_006)
    XCTAssertEqual(set.locations[0].title, "Shanghai")
    XCTAssertEqual(set.locations[0].latitude, 31.22222)
    XCTAssertEqual(
      set.warnings,
      [
        "line 1: ignored columns that mymap does not read: "
          + "\"geonameid\", \"countrycode\", \"population\", \"timezone\""
      ])
  }

  // MARK: Header

  func testHeaderNamesInAnyCaseAndOrder() throws {
    let set = try csv(
      "Category, LNG ,Name,LAT,PostalCode,administrativearea,SUBTHOROUGHFARE,Thoroughfare,photo,COUNTRY\n"
        + "Park,4.8686,Vondelpark,52.358,1071 AA,Noord-Holland,,Vondelpark,vondel.jpg,Netherlands\n")
    XCTAssertEqual(
      set.locations,
      [
        Location(
          latitude: 52.358, longitude: 4.8686, locationDescription: "Vondelpark", category: "Park",
          placemark: Placemark(
            thoroughfare: "Vondelpark", administrativeArea: "Noord-Holland", postalCode: "1071 AA",
            country: "Netherlands"),
          photoPath: "vondel.jpg")
      ])
    XCTAssertEqual(set.warnings, [])
  }

  func testCoordinateAliases() throws {
    for (lat, lon) in [("latitude", "longitude"), ("lat", "lon"), ("Lat", "Lng"), ("LAT", "long")] {
      XCTAssertEqual(
        try csv("\(lat),\(lon)\n1,2\n").locations.map(\.coordinate), [.init(latitude: 1, longitude: 2)])
    }
  }

  func testDescriptionThenName() throws {
    let set = try csv("latitude,longitude,description,name\n1,2,Desc,Name\n1,3,,Name only\n")
    XCTAssertEqual(set.locations.map(\.locationDescription), ["Desc", "Name only"])
  }

  func testHeaderOnlyIsNoPlaces() throws {
    XCTAssertEqual(try csv("latitude,longitude,description\r\n"), LocationSet())
    XCTAssertEqual(try csv("latitude,longitude"), LocationSet())
  }

  func testUnnamedColumnsAreMentionedOnlyWithValues() throws {
    XCTAssertEqual(try csv("latitude,longitude,\n1,2,\n3,4,\n").warnings, [])
    XCTAssertEqual(
      try csv("latitude,longitude,,rating\n1,2,,5\n3,4,x,\n").warnings,
      ["line 1: ignored columns that mymap does not read: \"rating\", column 3 (no name)"])
  }

  // MARK: Syntax

  func testRFC4180Quoting() throws {
    let set = try csv(
      "latitude,longitude,description,category\n"
        + "1,2,\"Paris, France\",Bar\n"
        + "3,4,\"say \"\"hi\"\"\",\n"
        + "5,6,\"two\nlines\",\"\"\n"
        + "7,8,\"\",\"Park\"  \n")
    XCTAssertEqual(
      set.locations.map(\.locationDescription), ["Paris, France", "say \"hi\"", "two\nlines", ""])
    XCTAssertEqual(set.locations.map(\.category), ["Bar", "No Category", "No Category", "Park"])
  }

  func testAQuoteInsideAnUnquotedFieldIsText() throws {
    XCTAssertEqual(
      try csv("latitude,longitude,description\n1,2,5\" floppy\n").locations[0].title, "5\" floppy")
  }

  func testLineEnds() throws {
    for end in ["\n", "\r\n", "\r"] {
      let text = ["latitude,longitude,description", "1,2,a", "3,4,b"].joined(separator: end)
      XCTAssertEqual(try csv(text).locations.map(\.title), ["a", "b"], "line end \(end.debugDescription)")
      XCTAssertEqual(try csv(text + end).locations.map(\.title), ["a", "b"])
      XCTAssertEqual(
        errorLine(text + end + "x,1,c", name: "places.csv"), "places.csv:4: latitude \"x\" is not a number")
    }
  }

  func testByteOrderMark() throws {
    let data = Data([0xEF, 0xBB, 0xBF] + Array("latitude,longitude\r\n1,2\r\n".utf8))
    let set = try LocationsFile.read(data: data, name: "places.csv")
    XCTAssertEqual(set.locations.map(\.coordinate), [.init(latitude: 1, longitude: 2)])
    XCTAssertEqual(set.warnings, [])
  }

  func testBlankRowsAreSkippedAndLinesStillCount() throws {
    let text = "latitude,longitude\n\n1,2\n,\n\n3,x\n"
    XCTAssertEqual(errorLine(text, name: "places.csv"), "places.csv:6: longitude \"x\" is not a number")
    XCTAssertEqual(try csv("\n\nlatitude,longitude\n\n1,2\n\n").locations.count, 1)
  }

  func testFewerFieldsThanColumnsAreEmpty() throws {
    let set = try csv("latitude,longitude,description,category\n1,2\n")
    XCTAssertEqual(set.locations, [Location(latitude: 1, longitude: 2)])
  }

  func testTrailingEmptyFieldsAreAllowed() throws {
    XCTAssertEqual(try csv("latitude,longitude\n1,2,,\n").locations.count, 1)
  }

  // MARK: Errors

  func testErrorNamesTheLineExample() {
    XCTAssertThrowsError(
      try LocationsFile.read(
        data: Data(contentsOf: URL(fileURLWithPath: fixturePath("bad-latitude.csv"))), name: "places.csv")
    ) { error in
      XCTAssertEqual("\(error)", "places.csv:7: latitude \"abc\" is not a number")
      XCTAssertEqual(
        error as? LocationsFileError,
        .invalidLine(file: "places.csv", line: 7, message: "latitude \"abc\" is not a number"))
    }
    XCTAssertThrowsError(try LocationsFile.read(path: fixturePath("bad-latitude.csv"))) { error in
      XCTAssertEqual("\(error)", fixturePath("bad-latitude.csv") + ":7: latitude \"abc\" is not a number")
    }
  }

  func testUnclosedQuote() {
    XCTAssertThrowsError(try LocationsFile.read(path: fixturePath("unclosed-quote.csv"))) { error in
      XCTAssertEqual(
        "\(error)",
        fixturePath("unclosed-quote.csv")
          + ":3: a quoted field starts on this line but its closing quote is missing")
    }
  }

  func testTextAfterAClosingQuote() {
    XCTAssertEqual(
      csvError("latitude,longitude,description\n1,2,\"The \"Old\" Inn\"\n"),
      "places.csv:2: text after the closing quote of a field (write a quote inside a quoted field as \"\")")
  }

  func testCoordinateErrors() {
    func row(_ latitude: String, _ longitude: String = "2") -> String {
      "latitude,longitude\n0,0\n\(latitude),\(longitude)\n"
    }
    XCTAssertEqual(csvError(row("91.5")), "places.csv:3: latitude 91.5 is outside -90…90")
    XCTAssertEqual(csvError(row("-90.0001")), "places.csv:3: latitude -90.0001 is outside -90…90")
    XCTAssertEqual(csvError(row("1", "200")), "places.csv:3: longitude 200 is outside -180…180")
    XCTAssertEqual(csvError(row("")), "places.csv:3: latitude is empty")
    XCTAssertEqual(csvError(row("1", " ")), "places.csv:3: longitude is empty")
    XCTAssertEqual(
      csvError(row("\"48,85\"")),
      "places.csv:3: latitude \"48,85\" is not a number (use a point as the decimal separator)")
    XCTAssertEqual(csvError(row("nan")), "places.csv:3: latitude \"nan\" is not a finite number")
    XCTAssertEqual(csvError(row("0x1p4")), "places.csv:3: latitude \"0x1p4\" is not a number")
    XCTAssertEqual(csvError(row("48°51′N")), "places.csv:3: latitude \"48°51′N\" is not a number")
  }

  func testMoreFieldsThanColumns() {
    XCTAssertEqual(
      csvError("latitude,longitude,description\n1,2,a,b\n"),
      "places.csv:2: 4 fields, but the header on line 1 names 3 columns")
  }

  func testBadDate() {
    XCTAssertEqual(
      csvError("latitude,longitude,date\n1,2,29/11/2026\n"),
      "places.csv:2: date \"29/11/2026\" is not an ISO 8601 date "
        + "(expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")")
  }

  func testDuplicateIDs() {
    XCTAssertEqual(
      csvError("id,latitude,longitude\nhome,1,2\n,3,4\nhome,5,6\n"),
      "places.csv:4: duplicate id \"home\" (line 2 has it too)")
  }

  func testHeaderErrors() {
    XCTAssertEqual(
      csvError("latitude,description\n1,x\n"),
      "places.csv:1: the header has no longitude column (name it \"longitude\", \"lon\" or \"lng\")")
    XCTAssertEqual(
      csvError("y,longitude\n1,2\n"),
      "places.csv:1: the header has no latitude column (name it \"latitude\" or \"lat\")")
    XCTAssertEqual(
      csvError("48.8584,2.2945,Tour Eiffel,Landmark,2026-01-01\n"),
      "places.csv:1: the first line must be a header naming the columns, latitude and longitude among them; "
        + "found \"48.8584\", \"2.2945\", \"Tour Eiffel\", \"Landmark\", …")
    XCTAssertEqual(
      csvError("lat,Latitude,lon\n1,2,3\n"),
      "places.csv:1: columns 1 (\"lat\") and 2 (\"Latitude\") are both the latitude")
  }

  func testSemicolonsGetAHint() {
    XCTAssertEqual(
      csvError("latitude;longitude;description\n48,85;2,29;x\n"),
      "places.csv:1: the first line must be a header naming the columns, latitude and longitude among them; "
        + "found \"latitude;longitude;description\" (the columns seem to be separated by ';'; mymap reads "
        + "comma-separated files)")
  }

  func testTextThatIsNotUTF8() {
    let data = Data(Array("latitude,longitude,description\n1,2,ok\n3,4,Caf".utf8) + [0xE9] + Array("\n".utf8))
    XCTAssertThrowsError(try LocationsFile.read(data: data, name: "places.csv")) { error in
      XCTAssertEqual("\(error)", "places.csv:3: the text is not UTF-8 (save the file as \"CSV UTF-8\")")
    }
  }

  func testAllOrNothing() {
    // The good rows before and after a bad one are not returned either.
    XCTAssertThrowsError(try csv("latitude,longitude\n1,2\n3,999\n5,6\n")) { error in
      XCTAssertEqual(
        error as? LocationsFileError,
        .invalidLine(file: "places.csv", line: 3, message: "longitude 999 is outside -180…180"))
    }
  }

  // MARK: Writing

  func testWrittenTextIsExact() {
    let set = LocationSet(locations: [
      Location(
        id: "apple-park", latitude: 37.3349, longitude: -122.009,
        locationDescription: "Apple Park, \"the ring\"",
        category: "Landmark", date: utc(2026, 11, 29, 10),
        placemark: Placemark(
          subThoroughfare: "1", thoroughfare: "Apple Park Way", locality: "Cupertino",
          administrativeArea: "CA",
          postalCode: "95014", country: "United States"), photoPath: "p.jpg"),
      Location(id: "x", latitude: 0.5, longitude: 10, locationDescription: "two\nlines"),
    ])
    XCTAssertEqual(
      String(decoding: LocationsFile.encode(set, format: .csv), as: UTF8.self),
      "latitude,longitude,description,category,date,id,subThoroughfare,thoroughfare,locality,"
        + "administrativeArea,postalCode,country,photo\n"
        + #"37.3349,-122.009,"Apple Park, ""the ring""",Landmark,2026-11-29T10:00:00Z,apple-park,1,"#
        + "Apple Park Way,Cupertino,CA,95014,United States,p.jpg\n"
        + "0.5,10,\"two\nlines\",No Category,,x,,,,,,,\n")
  }

  func testEmptyPlacemarkFieldsReadBackAsAbsent() throws {
    let set = LocationSet(locations: [
      Location(
        id: "a", latitude: 1, longitude: 2, placemark: Placemark(subThoroughfare: "", locality: "Zürich")),
      Location(id: "b", latitude: 1, longitude: 2, placemark: Placemark()),
    ])
    let copy = try LocationsFile.read(data: LocationsFile.encode(set, format: .csv), name: "p.csv")
    XCTAssertEqual(copy.locations.map(\.placemark), [Placemark(locality: "Zürich"), nil])
  }

  // MARK: Size

  func testHundredThousandRows() throws {
    var text = "id,latitude,longitude,description,category,date,locality\n"
    text.reserveCapacity(8_000_000)
    for index in 0..<100_000 {
      let latitude = Double(index % 18_000) / 100 - 90
      let longitude = Double(index % 36_000) / 100 - 180
      text +=
        "p\(index),\(latitude),\(longitude),\"Place \(index), somewhere\",Park,2026-01-01T00:00:00Z,Town \(index % 97)\n"
    }
    let data = Data(text.utf8)
    let start = Date()
    let set = try LocationsFile.read(data: data, name: "big.csv")
    let seconds = Date().timeIntervalSince(start)
    XCTAssertEqual(set.locations.count, 100_000)
    XCTAssertEqual(set.locations[99_999].id, "p99999")
    XCTAssertEqual(set.givenIDs.count, 100_000)
    print("read 100,000 CSV rows (\(data.count) bytes) in \(String(format: "%.3f", seconds)) s")
  }
}
