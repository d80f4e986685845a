import Foundation
import MapMath
import TestSupport
import XCTest

@testable import Places

final class LocationTests: XCTestCase {
  func testTitleIsTheDescription() {
    let location = Location(latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park")
    XCTAssertEqual(location.title, "Apple Park")
  }

  func testEmptyDescriptionTitle() {
    XCTAssertEqual(Location(latitude: 37.3349, longitude: -122.009).title, "(No Description)")
  }

  func testWhitespaceDescriptionIsKeptAsTheSeedDoes() {
    XCTAssertEqual(Location(latitude: 0, longitude: 0, locationDescription: " ").title, " ")
  }

  func testSubtitleIsTheCategory() {
    let location = Location(latitude: 0, longitude: 0, category: "Landmark")
    XCTAssertEqual(location.subtitle, "Landmark")
  }

  func testAnnotationConformance() {
    let location = Location(
      id: "apple-park", latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park",
      category: "Landmark")
    let annotation: any Annotation = location
    XCTAssertEqual(annotation.identifier, "apple-park")
    XCTAssertEqual(annotation.coordinate, Coordinate(latitude: 37.3349, longitude: -122.009))
    XCTAssertEqual(annotation.title, "Apple Park")
    XCTAssertEqual(annotation.subtitle, "Landmark")
  }

  func testAddressFallbacksWithoutPlacemark() {
    let location = Location(latitude: 37.3349, longitude: -122.009)
    XCTAssertEqual(location.fullAddress, "No Address Found")
    XCTAssertEqual(location.shortAddress, "Lat: 37.33490000, Long: -122.00900000")
    XCTAssertEqual(location.coordinateText, "Lat: 37.33490000, Long: -122.00900000")
  }

  func testAddressFallbacksWithEmptyPlacemark() {
    let location = Location(latitude: -33.856784, longitude: 151.215297, placemark: Placemark(country: ""))
    XCTAssertEqual(location.fullAddress, "No Address Found")
    XCTAssertEqual(location.shortAddress, "Lat: -33.85678400, Long: 151.21529700")
  }

  func testAddressesWithPlacemark() {
    let location = Location(
      latitude: 37.3349, longitude: -122.009,
      placemark: Placemark(subThoroughfare: "1", thoroughfare: "Apple Park Way", locality: "Cupertino"))
    XCTAssertEqual(location.fullAddress, "1 Apple Park Way, Cupertino, ")
    XCTAssertEqual(location.shortAddress, "1 Apple Park Way, Cupertino")
  }

  func testCoordinateTextRoundsToEightDecimals() {
    let location = Location(latitude: 0.123456789, longitude: -0.000000004)
    XCTAssertEqual(location.coordinateText, "Lat: 0.12345679, Long: -0.00000000")
  }

  func testGivenIDIsKept() {
    XCTAssertEqual(Location(id: "home", latitude: 1, longitude: 2).id, "home")
  }

  func testDerivedIDIsAFixedHashOfCoordinateDescriptionAndDate() {
    let date = utc(2026, 11, 29, 10)
    let location = Location(
      latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park", date: date)
    // A literal, so a change to the hashing (which would change every file's ids) fails here.
    XCTAssertEqual(location.id, "loc-81b5b495c3d9474e")
    XCTAssertEqual(
      Location.derivedID(
        latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park", date: date),
      location.id)
  }

  func testDerivedIDIsTheHashOfTheJoinedText() {
    // The hash is taken piece by piece; it must stay the hash of the text the ids were always made from.
    func reference(_ latitude: Double, _ longitude: Double, _ description: String, _ date: Double?) -> String
    {
      var key = "\(latitude + 0)|\(longitude + 0)|\(description)|"
      if let date { key += "\(date)" }
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      let hex = String(hash, radix: 16)
      return "loc-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
    var generator = SeededGenerator(seed: 29)
    let descriptions = [
      "", "Apple Park", "Café | Bar", "東京タワー", "a\u{301}", String(repeating: "x", count: 300),
    ]
    for round in 0..<2_000 {
      let latitude = round == 0 ? -0.0 : generator.double(in: -90..<90)
      let longitude = round == 1 ? -0.0 : generator.double(in: -180..<180)
      let description = descriptions[round % descriptions.count]
      let date: Double? = round % 3 == 0 ? nil : generator.double(in: -1e9..<4e9)
      XCTAssertEqual(
        Location.derivedID(
          latitude: latitude, longitude: longitude, locationDescription: description, dateSeconds: date),
        reference(latitude, longitude, description, date))
    }
  }

  func testDerivedIDDependsOnPlaceNotCategory() {
    let base = Location(latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park")
    XCTAssertEqual(
      base.id, Location(latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park").id)
    XCTAssertEqual(
      base.id,
      Location(latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park", category: "Park").id
    )
    XCTAssertNotEqual(
      base.id, Location(latitude: 37.3349, longitude: -122.0091, locationDescription: "Apple Park").id)
    XCTAssertNotEqual(
      base.id, Location(latitude: 37.3349, longitude: -122.009, locationDescription: "Apple").id)
    XCTAssertNotEqual(
      base.id,
      Location(
        latitude: 37.3349, longitude: -122.009, locationDescription: "Apple Park", date: utc(2026, 1, 1)
      ).id)
    XCTAssertEqual(Location(latitude: -0.0, longitude: 0).id, Location(latitude: 0, longitude: -0.0).id)
  }

  func testLocationsAreSendableValues() {
    let location = Location(latitude: 1, longitude: 2)
    let sendable: any Sendable = location
    XCTAssertEqual(sendable as? Location, location)
  }
}
