import Foundation
import XCTest

/// `mymap add`, `list`, `show`, `edit`, `delete` and `categories`, run as a user runs them: the real binary,
/// a store of its own in each sandbox, exact output and exit codes.
final class StoreCommandTests: XCTestCase {
  private let appleHQ = [
    "--lat", "37.33182", "--lon", "-122.03118", "--description", "Apple HQ", "--category", "Apple Store",
    "--address", "1|Infinite Loop|Cupertino|CA|95014|United States",
  ]

  private let categoryList =
    "No Category, Apple Store, Bar, Bookstore, Club, Grocery Store, Historic Building, House, Icecream Vendor,"
    + " Landmark, Park"

  // MARK: add

  func testAddPrintsTheNewIDAndNothingElse() throws {
    let sandbox = try Sandbox()
    XCTAssertFalse(sandbox.storeExists)
    let before = Date()
    let id = try sandbox.add(appleHQ)
    let after = Date()
    XCTAssertTrue(sandbox.storeExists, "add creates the store at $MYMAP_HOME/locations.sqlite")
    XCTAssertEqual(try sandbox.files(), [], "add writes nothing in the working folder")

    let places = try sandbox.listJSON()
    XCTAssertEqual(places.count, 1)
    let place = try XCTUnwrap(places.first)
    XCTAssertEqual(place["id"] as? String, id)
    XCTAssertEqual(number(place["latitude"]), 37.33182)
    XCTAssertEqual(number(place["longitude"]), -122.03118)
    XCTAssertEqual(place["description"] as? String, "Apple HQ")
    XCTAssertEqual(place["category"] as? String, "Apple Store")
    XCTAssertEqual(
      place["placemark"] as? [String: String],
      [
        "subThoroughfare": "1", "thoroughfare": "Infinite Loop", "locality": "Cupertino",
        "administrativeArea": "CA", "postalCode": "95014", "country": "United States",
      ])
    XCTAssertNil(place["photo"])
    // The date is now (the JSON keeps fractions of a second; whole seconds are enough here).
    let dateText = try XCTUnwrap(place["date"] as? String)
    let date = try XCTUnwrap(ISO8601DateFormatter().date(from: String(dateText.prefix(19)) + "Z"), dateText)
    XCTAssertGreaterThanOrEqual(date, before.addingTimeInterval(-1))
    XCTAssertLessThanOrEqual(date, after)
  }

  func testAddHereWithoutDescription() throws {
    let sandbox = try Sandbox()
    let id = try sandbox.add(["--here", "52.3731,4.8922", "--category", "Bar"])
    let list = try sandbox.run(["list"])
    assertSucceeded(list)
    XCTAssertEqual(list.stderr, "")
    XCTAssertEqual(
      list.stdoutText, "Bar\n" + listRow(id, "(No Description)", "Lat: 52.37310000, Long: 4.89220000"))
    let place = try XCTUnwrap(sandbox.listJSON().first)
    XCTAssertEqual(place["description"] as? String, "", "an empty description is stored empty")
    XCTAssertNil(place["placemark"])
  }

  func testAddSouthernAndWesternPositionsAndTheDefaultCategory() throws {
    let sandbox = try Sandbox()
    let sydney = try sandbox.add(["--lat", "-33.8568", "--lon", "151.2153", "--date", "2026-01-01"])
    let lima = try sandbox.add(["--here", "-12.0464,-77.0428", "--date", "2026-01-02"])
    let places = try sandbox.listJSON()
    XCTAssertEqual(places.map { $0["id"] as? String }, [sydney, lima])
    XCTAssertEqual(places.map { number($0["latitude"]) }, [-33.8568, -12.0464])
    XCTAssertEqual(places.map { number($0["longitude"]) }, [151.2153, -77.0428])
    XCTAssertEqual(places.map { $0["category"] as? String }, ["No Category", "No Category"])
  }

  func testCategoryIsMatchedWithoutCaseAndStoredWithItsSpelling() throws {
    let sandbox = try Sandbox()
    let store = try sandbox.add(["--here", "1,1", "--category", "apple store"])
    let bar = try sandbox.add(["--here", "2,2", "-c", "BAR"])
    let cream = try sandbox.add(["--here", "3,3", "-c", "icecream VENDOR"])
    let places = try sandbox.listJSON()
    XCTAssertEqual(places.map { $0["id"] as? String }, [store, bar, cream])
    XCTAssertEqual(places.map { $0["category"] as? String }, ["Apple Store", "Bar", "Icecream Vendor"])
  }

  func testBadPositionsAndCategoriesAreUsageErrorsThatStoreNothing() throws {
    let cases: [([String], String)] = [
      (["--lat", "91", "--lon", "0"], "invalid value '91' for --lat: latitude must be between -90 and 90"),
      (["--lat", "-91", "--lon", "0"], "invalid value '-91' for --lat: latitude must be between -90 and 90"),
      (
        ["--lat", "0", "--lon", "180.5"],
        "invalid value '180.5' for --lon: longitude must be between -180 and 180"
      ),
      (["--lat", "NaN", "--lon", "0"], "invalid value 'NaN' for --lat: expected a latitude in degrees"),
      (["--lat", "0", "--lon", "inf"], "invalid value 'inf' for --lon: expected a longitude in degrees"),
      (["--lat", "north", "--lon", "0"], "invalid value 'north' for --lat: expected a latitude in degrees"),
      (["--here", "91,0"], "invalid value '91,0' for --here: latitude must be between -90 and 90"),
      (
        ["--here", "1,nan"],
        "invalid value '1,nan' for --here: expected LAT,LON in degrees, like 48.8566,2.3522"
      ),
      (
        ["--here", "52.37"],
        "invalid value '52.37' for --here: expected LAT,LON in degrees, like 48.8566,2.3522"
      ),
      (["--lat", "1"], "--lat and --lon go together"),
      (["--lon", "1"], "--lat and --lon go together"),
      (["--here", "1,2", "--lat", "1"], "give either --here or --lat and --lon, not both"),
      (["--here", "1,2", "--lat", "1", "--lon", "2"], "give either --here or --lat and --lon, not both"),
      ([], "where is the place? give --lat and --lon, or --here LAT,LON"),
      (["--description", "Somewhere"], "where is the place? give --lat and --lon, or --here LAT,LON"),
      (
        ["--here", "1,2", "--category", "Cafe"],
        "invalid value 'Cafe' for --category: not a category; 'mymap categories' lists them: \(categoryList)"
      ),
      (
        ["--here", "1,2", "--date", "yesterday"],
        "invalid value 'yesterday' for --date: expected an ISO 8601 date like 2026-11-29 or 2026-11-29T10:00:00Z"
      ),
    ]
    let sandbox = try Sandbox()
    for (arguments, message) in cases {
      let result = try sandbox.run(["add"] + arguments)
      assertFailed(result, status: 2, message: message)
      XCTAssertFalse(sandbox.storeExists, "a refused add creates no store: \(arguments)")
    }
    // With a store: a refused add leaves it as it was.
    let id = try sandbox.add(["--here", "1,2"])
    assertFailed(
      try sandbox.run(["add", "--lat", "91", "--lon", "0"]), status: 2,
      message: "invalid value '91' for --lat: latitude must be between -90 and 90")
    XCTAssertEqual(try sandbox.listedIDs(), [id])
  }

  // MARK: list

  /// Five places in four categories, added out of date order; returns their ids by name.
  private func addFivePlaces(_ sandbox: Sandbox) throws -> [String: String] {
    [
      "memorial": try sandbox.add([
        "--here", "37.3233,-122.0443", "-d", "Memorial Park", "-c", "Park", "--date", "2026-03-01T10:00:00Z",
        "--address", "21221|Stevens Creek Blvd|Cupertino|CA|95014|United States",
      ]),
      "bar": try sandbox.add([
        "--here", "52.3731234567,4.8922", "-c", "Bar", "--date", "2026-01-05T20:00:00Z",
      ]),
      "golden": try sandbox.add([
        "--here", "37.7694,-122.4862", "-d", "Golden Gate Park", "-c", "park", "--date",
        "2026-02-01T12:00:00Z",
      ]),
      "visitor": try sandbox.add([
        "--here", "37.33264,-122.00577", "-d", "Apple Park Visitor Center", "-c", "Apple Store",
        "--date", "2026-04-01T09:00:00Z", "--address", "10600|N Tantau Ave|Cupertino",
      ]),
      "main": try sandbox.add([
        "--here", "-33.8568,151.2153", "-d", "Somewhere", "--date", "2026-01-01T00:00:00Z", "--address",
        "|Main Street",
      ]),
    ]
  }

  func testListGroupsByCategoryNameAndSortsByDateInside() throws {
    let sandbox = try Sandbox()
    let ids = try addFivePlaces(sandbox)
    let result = try sandbox.run(["list"])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(
      result.stdoutText,
      "Apple Store\n"
        + listRow(ids["visitor"]!, "Apple Park Visitor Center", "10600 N Tantau Ave, Cupertino")
        + "Bar\n"
        + listRow(ids["bar"]!, "(No Description)", "Lat: 52.37312346, Long: 4.89220000")
        + "No Category\n"
        // The seed keeps the separator after the last part present.
        + listRow(ids["main"]!, "Somewhere", "Main Street, ")
        + "Park\n"
        + listRow(ids["golden"]!, "Golden Gate Park", "Lat: 37.76940000, Long: -122.48620000")
        + listRow(ids["memorial"]!, "Memorial Park", "21221 Stevens Creek Blvd, Cupertino"))
  }

  func testListFilters() throws {
    let sandbox = try Sandbox()
    let ids = try addFivePlaces(sandbox)
    let byCategory = try sandbox.run(["list", "--category", "PARK", "--category", "bar"])
    assertSucceeded(byCategory)
    XCTAssertEqual(
      byCategory.stdoutText,
      "Bar\n" + listRow(ids["bar"]!, "(No Description)", "Lat: 52.37312346, Long: 4.89220000") + "Park\n"
        + listRow(ids["golden"]!, "Golden Gate Park", "Lat: 37.76940000, Long: -122.48620000")
        + listRow(ids["memorial"]!, "Memorial Park", "21221 Stevens Creek Blvd, Cupertino"))

    // --since and --until are inclusive; a plain day for --until means the whole day.
    XCTAssertEqual(
      try sandbox.listedIDs(["--since", "2026-02-01", "--until", "2026-03-01"]),
      [ids["golden"]!, ids["memorial"]!])
    XCTAssertEqual(
      try sandbox.listedIDs(["--since", "2026-01-05T20:00:00Z", "--until", "2026-02-01T12:00:00Z"]),
      [ids["bar"]!, ids["golden"]!])
    XCTAssertEqual(try sandbox.listedIDs(["--until", "2026-01-04"]), [ids["main"]!])
    XCTAssertEqual(
      try sandbox.listedIDs(["--category", "park", "--since", "2026-02-02"]), [ids["memorial"]!])

    // Nothing matches: no output at all, and still success.
    let none = try sandbox.run(["list", "--category", "Club"])
    assertSucceeded(none)
    XCTAssertEqual(none.stdoutText, "")
    XCTAssertEqual(try sandbox.listJSON(["--category", "Club"]).count, 0)

    assertFailed(
      try sandbox.run(["list", "--since", "2026-13-01"]), status: 2,
      message:
        "invalid value '2026-13-01' for --since: expected an ISO 8601 date like 2026-11-29 or 2026-11-29T10:00:00Z"
    )
  }

  func testListJSONHasEveryFieldInListOrder() throws {
    let sandbox = try Sandbox()
    let ids = try addFivePlaces(sandbox)
    let places = try sandbox.listJSON()
    XCTAssertEqual(
      places.map { $0["id"] as? String },
      ["visitor", "bar", "main", "golden", "memorial"].map { ids[$0] })
    let visitor = places[0]
    XCTAssertEqual(
      visitor.keys.sorted(), ["category", "date", "description", "id", "latitude", "longitude", "placemark"])
    XCTAssertEqual(visitor["date"] as? String, "2026-04-01T09:00:00Z")
    XCTAssertEqual(
      visitor["placemark"] as? [String: String],
      ["subThoroughfare": "10600", "thoroughfare": "N Tantau Ave", "locality": "Cupertino"])
    XCTAssertEqual(number(places[1]["latitude"]), 52.3731234567, "the JSON keeps every digit")
    XCTAssertEqual(places[3]["category"] as? String, "Park")
  }

  /// Places imported with a category in another case (`park`) stay in one section with `Park`.
  func testListKeepsOneSectionForCategoriesThatDifferOnlyInCase() throws {
    let sandbox = try Sandbox()
    let first = try sandbox.add(["--here", "1,1", "-d", "one", "-c", "Park", "--date", "2026-01-01"])
    try sandbox.write(
      #"{ "locations": [ { "id": "two", "latitude": 2, "longitude": 2, "description": "two", "#
        + #""category": "park", "date": "2026-01-02T00:00:00Z" } ] }"#, to: "two.json")
    assertSucceeded(try sandbox.run(["import", "--quiet", "two.json"]))
    let third = try sandbox.add(["--here", "3,3", "-d", "three", "-c", "Park", "--date", "2026-01-03"])
    let result = try sandbox.run(["list"])
    assertSucceeded(result)
    XCTAssertEqual(
      result.stdoutText,
      "Park\n" + listRow(first, "one", "Lat: 1.00000000, Long: 1.00000000")
        + listRow("two", "two", "Lat: 2.00000000, Long: 2.00000000")
        + listRow(third, "three", "Lat: 3.00000000, Long: 3.00000000"))
  }

  func testReadingCommandsWithoutAStoreSaySoAndCreateNone() throws {
    let sandbox = try Sandbox()
    let message =
      "no places stored yet (\(sandbox.storePath) does not exist); add some with 'mymap add' or 'mymap import'"
    for arguments in [
      ["list"], ["list", "--json"], ["show", "abcd1234"], ["edit", "abcd1234", "-d", "x"],
      ["delete", "abcd1234"], ["export", "--format", "csv"],
    ] {
      assertFailed(try sandbox.run(arguments), status: 2, message: message)
      XCTAssertFalse(sandbox.storeExists, "\(arguments) creates no store")
    }
    XCTAssertEqual(try sandbox.files(), [])
  }

  // MARK: show

  private func addShowPlace(_ sandbox: Sandbox) throws -> String {
    try sandbox.add(appleHQ + ["--date", "2026-11-29T10:00:00Z"])
  }

  private func detail(_ id: String, date: String) -> String {
    """
    Description: Apple HQ
    Category:    Apple Store
    Latitude:    37.33182000
    Longitude:   -122.03118000
    Address:     1 Infinite Loop, Cupertino, CA 95014, United States
    Date:        \(date)
    ID:          \(id)

    """
  }

  func testShowInUSEnglish() throws {
    let sandbox = try Sandbox()
    let id = try addShowPlace(sandbox)
    let result = try sandbox.run(["show", id], environment: ["LANG": "en_US.UTF-8", "TZ": "UTC"])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    // ICU puts a narrow no-break space (U+202F) before AM/PM.
    XCTAssertEqual(result.stdoutText, detail(id, date: "Nov 29, 2026 at 10:00\u{202F}AM"))
    XCTAssertTrue(result.stdout.contains(Data([0x31, 0x30, 0x3A, 0x30, 0x30, 0xE2, 0x80, 0xAF, 0x41, 0x4D])))

    // By the 8 characters that `list` shows, and in the user's time zone.
    let short = try sandbox.run(
      ["show", String(id.prefix(8))], environment: ["LANG": "en_US.UTF-8", "TZ": "America/Los_Angeles"])
    assertSucceeded(short)
    XCTAssertEqual(short.stdoutText, detail(id, date: "Nov 29, 2026 at 2:00\u{202F}AM"))

    // No LANG at all (nor LC_*): plain US English too.
    let plain = try sandbox.run(["show", id])
    XCTAssertEqual(plain.stdoutText, detail(id, date: "Nov 29, 2026 at 10:00\u{202F}AM"))
  }

  func testShowInGerman() throws {
    let sandbox = try Sandbox()
    let id = try addShowPlace(sandbox)
    let result = try sandbox.run(["show", id], environment: ["LANG": "de_DE.UTF-8", "TZ": "UTC"])
    assertSucceeded(result)
    XCTAssertEqual(result.stdoutText, detail(id, date: "29.11.2026, 10:00"))
    // LC_ALL wins over LANG, as in C programs; Berlin is an hour ahead of UTC in November.
    let berlin = try sandbox.run(
      ["show", id], environment: ["LANG": "en_US.UTF-8", "LC_ALL": "de_DE.UTF-8", "TZ": "Europe/Berlin"])
    XCTAssertEqual(berlin.stdoutText, detail(id, date: "29.11.2026, 11:00"))
  }

  func testShowWithoutDescriptionAddressOrDateAndWithAPhoto() throws {
    let sandbox = try Sandbox()
    let id = try sandbox.add(["--here", "52.3731,4.8922", "-c", "bar", "--photo", "/photos/bar.jpg"])
    try sandbox.write(
      #"{ "locations": [ { "id": "undated", "latitude": -1.5, "longitude": 2 } ] }"#, to: "u.json")
    assertSucceeded(try sandbox.run(["import", "u.json"]))
    let photo = try sandbox.run(["show", id])
    assertSucceeded(photo)
    let lines = photo.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(
      Array(lines.prefix(5)),
      [
        "Description: (No Description)", "Category:    Bar", "Latitude:    52.37310000",
        "Longitude:   4.89220000", "Address:     No Address Found",
      ])
    XCTAssertEqual(Array(lines.suffix(3)), ["Photo:       /photos/bar.jpg", "ID:          \(id)", ""])

    let undated = try sandbox.run(["show", "undated"])
    assertSucceeded(undated)
    XCTAssertEqual(
      undated.stdoutText,
      """
      Description: (No Description)
      Category:    No Category
      Latitude:    -1.50000000
      Longitude:   2.00000000
      Address:     No Address Found
      Date:        (no date)
      ID:          undated

      """)
  }

  func testShowJSON() throws {
    let sandbox = try Sandbox()
    let id = try addShowPlace(sandbox)
    try sandbox.add(["--here", "1,2"])
    let result = try sandbox.run(["show", String(id.prefix(8)), "--json"])
    assertSucceeded(result)
    XCTAssertEqual(
      result.stdoutText,
      """
      {
        "locations": [
          {
            "id": "\(id)",
            "latitude": 37.33182,
            "longitude": -122.03118,
            "description": "Apple HQ",
            "category": "Apple Store",
            "date": "2026-11-29T10:00:00Z",
            "placemark": {
              "subThoroughfare": "1",
              "thoroughfare": "Infinite Loop",
              "locality": "Cupertino",
              "administrativeArea": "CA",
              "postalCode": "95014",
              "country": "United States"
            }
          }
        ]
      }

      """)
  }

  func testShowUnknownAndAmbiguousIDs() throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      """
      { "locations": [ { "id": "apple-park", "latitude": 37.3349, "longitude": -122.009 },
                       { "id": "apple-store", "latitude": 37.3318, "longitude": -122.0312 },
                       { "id": "app", "latitude": 1, "longitude": 1 } ] }
      """, to: "apple.json")
    assertSucceeded(try sandbox.run(["import", "apple.json"]))
    assertFailed(try sandbox.run(["show", "nope"]), status: 2, message: "no place with id 'nope'")
    assertFailed(
      try sandbox.run(["show", "apple"]), status: 2,
      message: "the id 'apple' is ambiguous: 'apple-park', 'apple-store' start with it; give more of the id")
    // Fewer than 4 characters must be a whole id.
    assertFailed(try sandbox.run(["show", "ap"]), status: 2, message: "no place with id 'ap'")
    XCTAssertTrue(try sandbox.run(["show", "app"]).stdoutText.hasSuffix("ID:          app\n"))
    XCTAssertTrue(try sandbox.run(["show", "apple-s"]).stdoutText.hasSuffix("ID:          apple-store\n"))
  }

  /// Every id `list` shows names its place for `show`, even when two ids share their first 8 characters.
  func testEveryIDThatListShowsWorksWithShow() throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      """
      { "locations": [ { "id": "ferry-building", "latitude": 37.7955, "longitude": -122.3937, "description": "A" },
                       { "id": "ferry-building-2", "latitude": 37.7956, "longitude": -122.3936, "description": "B" },
                       { "id": "ferry", "latitude": 37.8, "longitude": -122.4, "description": "C" } ] }
      """, to: "ferry.json")
    assertSucceeded(try sandbox.run(["import", "ferry.json"]))
    let list = try sandbox.run(["list"])
    assertSucceeded(list)
    let shown = list.stdoutText.split(separator: "\n").dropFirst().enumerated().filter { $0.offset % 2 == 0 }
      .map { $0.element.split(separator: " ").first.map(String.init) ?? "" }
    XCTAssertEqual(shown.count, 3, list.stdoutText)
    for (short, description) in zip(shown, ["A", "B", "C"]) {
      let show = try sandbox.run(["show", short])
      assertSucceeded(show)
      XCTAssertTrue(
        show.stdoutText.hasPrefix("Description: \(description)\n"), "show \(short): \(show.stdoutText)")
    }
  }

  // MARK: edit

  func testEditChangesOnlyTheGivenFields() throws {
    let sandbox = try Sandbox()
    let id = try sandbox.add(appleHQ + ["--date", "2026-11-29T10:00:00Z", "--photo", "/p/hq.jpg"])
    let other = try sandbox.add(["--here", "1,2", "-d", "Other"])
    let before = try sandbox.listJSON()

    let edit = try sandbox.run([
      "edit", String(id.prefix(8)), "--description", "Infinite Loop", "--category", "park",
    ])
    assertSucceeded(edit)
    XCTAssertEqual(edit.stdoutText, "")
    XCTAssertEqual(edit.stderr, "")
    var expected = before.first { $0["id"] as? String == id }!
    expected["description"] = "Infinite Loop"
    expected["category"] = "Park"
    let after = try sandbox.listJSON()
    XCTAssertEqual(after.count, 2)
    let edited = try XCTUnwrap(after.first { $0["id"] as? String == id })
    XCTAssertEqual(NSDictionary(dictionary: edited), NSDictionary(dictionary: expected))
    XCTAssertEqual(
      NSDictionary(dictionary: after.first { $0["id"] as? String == other }!),
      NSDictionary(dictionary: before.first { $0["id"] as? String == other }!), "the other place is untouched"
    )

    // --address '' removes the address; --here moves the place; --photo '' removes the photo.
    assertSucceeded(
      try sandbox.run(["edit", id, "--address", "", "--here", "37.3349,-122.009", "--photo", ""]))
    let moved = try XCTUnwrap(sandbox.listJSON().first { $0["id"] as? String == id })
    XCTAssertNil(moved["placemark"])
    XCTAssertNil(moved["photo"])
    XCTAssertEqual(number(moved["latitude"]), 37.3349)
    XCTAssertEqual(number(moved["longitude"]), -122.009)
    XCTAssertEqual(moved["description"] as? String, "Infinite Loop")
    XCTAssertEqual(moved["date"] as? String, "2026-11-29T10:00:00Z")
    let show = try sandbox.run(["show", id])
    XCTAssertTrue(show.stdoutText.contains("\nAddress:     No Address Found\n"), show.stdoutText)

    // --description '' empties the description.
    assertSucceeded(try sandbox.run(["edit", id, "-d", ""]))
    XCTAssertEqual(try sandbox.listJSON().first { $0["id"] as? String == id }?["description"] as? String, "")
  }

  func testEditRefusalsChangeNothing() throws {
    let sandbox = try Sandbox()
    let id = try sandbox.add(appleHQ)
    let before = try sandbox.listJSONText()
    assertFailed(
      try sandbox.run(["edit", "nothere", "-d", "x"]), status: 2, message: "no place with id 'nothere'")
    assertFailed(
      try sandbox.run(["edit", id, "-d", "x", "-c", "Cafe"]), status: 2,
      message:
        "invalid value 'Cafe' for --category: not a category; 'mymap categories' lists them: \(categoryList)")
    assertFailed(
      try sandbox.run(["edit", id, "--lat", "12"]), status: 2, message: "--lat and --lon go together")
    assertFailed(
      try sandbox.run(["edit", id, "--lat", "12", "--lon", "200"]), status: 2,
      message: "invalid value '200' for --lon: longitude must be between -180 and 180")
    XCTAssertEqual(try sandbox.listJSONText(), before)
  }

  // MARK: delete

  func testDeleteIsAllOrNothing() throws {
    let sandbox = try Sandbox()
    let first = try sandbox.add(["--here", "1,1", "--date", "2026-01-01"])
    let second = try sandbox.add(["--here", "2,2", "--date", "2026-01-02"])
    let third = try sandbox.add(["--here", "3,3", "--date", "2026-01-03"])

    assertFailed(
      try sandbox.run(["delete", first, "nothere", third]), status: 2, message: "no place with id 'nothere'")
    XCTAssertEqual(try sandbox.listedIDs(), [first, second, third], "nothing was deleted")

    // A full id, an 8-character prefix, and the same place twice: two places.
    let result = try sandbox.run(["delete", first, String(third.prefix(8)), first])
    assertSucceeded(result)
    XCTAssertEqual(result.stdoutText, "deleted 2 places\n")
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(try sandbox.listedIDs(), [second])

    let last = try sandbox.run(["delete", second])
    XCTAssertEqual(last.stdoutText, "deleted 1 place\n")
    let empty = try sandbox.run(["list"])
    assertSucceeded(empty)
    XCTAssertEqual(empty.stdoutText, "", "an empty store lists nothing")
    XCTAssertEqual(try sandbox.listJSONText(), "{\n  \"locations\": []\n}\n")

    assertFailed(try sandbox.run(["delete"]), status: 2, message: "missing argument ID")
  }

  // MARK: categories

  func testCategoriesAreTheSeedsInItsOrder() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["categories"])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(result.stdoutText, seedCategories.joined(separator: "\n") + "\n")
    XCTAssertEqual(try sandbox.files(), [])
    XCTAssertFalse(sandbox.storeExists, "listing the categories needs no store")
  }
}
