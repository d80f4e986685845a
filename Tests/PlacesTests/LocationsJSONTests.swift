import Foundation
import MapMath
import Places
import XCTest

final class LocationsJSONTests: XCTestCase {
  private func europe() throws -> LocationSet { try LocationsFile.read(path: fixturePath("europe.json")) }

  func testReadsEveryPlaceInOrder() throws {
    let set = try europe()
    XCTAssertEqual(
      set.locations.map(\.title),
      [
        "Brandenburger Tor", "Shakespeare and Company", "Apple Regent Street", "Vondelpark", "Café Central",
        "(No Description)",
      ])
    XCTAssertEqual(
      set.locations.map(\.subtitle),
      ["Historic Building", "Bookstore", "Apple Store", "Park", "Cafe", "No Category"])
  }

  func testUserPosition() throws {
    XCTAssertEqual(
      try europe().user,
      UserPosition(coordinate: Coordinate(latitude: 52.52, longitude: 13.405), accuracy: 65))
  }

  func testFullRecord() throws {
    let store = try europe().locations[2]
    XCTAssertEqual(
      store,
      Location(
        id: "apple-regent-street", latitude: 51.51417, longitude: -0.14199,
        locationDescription: "Apple Regent Street", category: "Apple Store", date: utc(2026, 5, 20, 12),
        placemark: Placemark(
          subThoroughfare: "235", thoroughfare: "Regent Street", locality: "London",
          administrativeArea: "England",
          postalCode: "W1B 2EL", country: "United Kingdom"),
        photoPath: "photos/regent-street.jpg"))
  }

  func testAddressesAsAUserSeesThem() throws {
    let locations = try europe().locations
    XCTAssertEqual(locations[0].fullAddress, "Pariser Platz, Berlin, Berlin 10117, Germany")
    XCTAssertEqual(locations[0].shortAddress, "Pariser Platz, Berlin")
    XCTAssertEqual(locations[1].fullAddress, "37 Rue de la Bûcherie, Paris, Île-de-France 75005, France")
    XCTAssertEqual(locations[1].shortAddress, "37 Rue de la Bûcherie, Paris")
    XCTAssertEqual(locations[3].fullAddress, "No Address Found")
    XCTAssertEqual(locations[3].shortAddress, "Lat: 52.35800000, Long: 4.86860000")
  }

  func testDatesInEveryAcceptedForm() throws {
    let dates = try europe().locations.map(\.date)
    XCTAssertEqual(dates[1], utc(2026, 5, 16, 15, 5, 12.25))  // +02:00 with a fraction
    XCTAssertEqual(dates[3], utc(2026, 6, 1))  // a plain date
    XCTAssertEqual(dates[4], utc(2026, 6, 3, 14, 45))  // +0100
    XCTAssertNil(dates[5])
  }

  func testUnknownCategoryIsKeptWithAWarning() throws {
    let set = try europe()
    XCTAssertEqual(set.locations[4].category, "Cafe")
    XCTAssertEqual(
      set.warnings,
      [
        "location 5: unknown category \"Cafe\" (kept; known: No Category, Apple Store, Bar, Bookstore, Club, "
          + "Grocery Store, Historic Building, House, Icecream Vendor, Landmark, Park)"
      ])
  }

  func testWarningsStopAtTheLimitAndCountTheRest() throws {
    let places = (1...1_003).map { #"{"latitude": 1, "longitude": 2, "category": "Kind \#($0)"}"# }
    let set = try readText(#"{"locations": ["# + places.joined(separator: ", ") + "]}")
    XCTAssertEqual(set.locations.count, 1_003)
    XCTAssertEqual(set.locations.last?.category, "Kind 1003")
    XCTAssertEqual(set.warnings.count, InputLimits.maximumWarnings + 1)
    XCTAssertTrue(
      set.warnings[999].hasPrefix(#"location 1000: unknown category "Kind 1000""#), set.warnings[999])
    XCTAssertEqual(set.warnings.last, "… and 3 more warnings")
  }

  func testOnlyLatitudeAndLongitudeAreRequired() throws {
    let set = try readText(oneLocation(#""latitude": -33.856784, "longitude": 151.215297"#))
    XCTAssertEqual(set.locations, [Location(latitude: -33.856784, longitude: 151.215297)])
    XCTAssertNil(set.user)
    XCTAssertEqual(set.warnings, [])
  }

  func testNullMembersCountAsAbsentAndEmptyCategoryIsNoCategory() throws {
    let text = oneLocation(
      #""latitude": 1, "longitude": 2, "id": null, "description": null, "category": "", "date": null, "placemark": null"#
    )
    XCTAssertEqual(try readText(text).locations, [Location(latitude: 1, longitude: 2)])
  }

  func testWholeNumberIDsBecomeText() throws {
    XCTAssertEqual(
      try readText(oneLocation(#""id": 42, "latitude": 1, "longitude": 2"#)).locations[0].id, "42")
  }

  func testDateWithoutTimeZoneIsUTCWithAWarning() throws {
    let set = try readText(oneLocation(#""latitude": 1, "longitude": 2, "date": "2026-11-29T10:00:00""#))
    XCTAssertEqual(set.locations[0].date, utc(2026, 11, 29, 10))
    XCTAssertEqual(set.warnings, [#"location 1: date "2026-11-29T10:00:00" has no time zone; read as UTC"#])
  }

  func testUserWithoutLocations() throws {
    let set = try readText(#"{ "user": { "latitude": 37.3318, "longitude": -122.0312 } }"#)
    XCTAssertEqual(set.locations, [])
    XCTAssertEqual(set.user, UserPosition(coordinate: Coordinate(latitude: 37.3318, longitude: -122.0312)))
  }

  func testEmptyLocations() throws {
    XCTAssertEqual(try readText(#"{"locations": []}"#), LocationSet())
  }

  func testUnknownMembersAreIgnored() throws {
    let set = try readText(#"{"version": 2, "locations": [{"latitude": 1, "longitude": 2, "rating": 5}]}"#)
    XCTAssertEqual(set.locations.count, 1)
  }

  func testCoordinateLimitsAreInclusive() throws {
    let text = #"{"locations": [{"latitude": 90, "longitude": 180}, {"latitude": -90, "longitude": -180}]}"#
    XCTAssertEqual(try readText(text).locations.map(\.coordinate.isValid), [true, true])
  }

  func testDesignDocumentExample() throws {
    let text = """
      { "user": { "latitude": 37.3318, "longitude": -122.0312 },
        "locations": [
          { "id": "apple-park", "latitude": 37.3349, "longitude": -122.0090,
            "description": "Apple Park", "category": "Landmark", "date": "2026-11-29T10:00:00Z",
            "placemark": { "subThoroughfare": "1", "thoroughfare": "Apple Park Way", "locality": "Cupertino",
                           "administrativeArea": "CA", "postalCode": "95014", "country": "United States" } } ] }
      """
    let set = try readText(text)
    XCTAssertEqual(set.locations.map(\.id), ["apple-park"])
    XCTAssertEqual(set.locations[0].fullAddress, "1 Apple Park Way, Cupertino, CA 95014, United States")
    XCTAssertEqual(set.locations[0].date, utc(2026, 11, 29, 10))
    XCTAssertEqual(set.warnings, [])
  }
}
