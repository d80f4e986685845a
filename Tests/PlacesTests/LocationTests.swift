import Foundation
import MapMath
import Places
import XCTest

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
