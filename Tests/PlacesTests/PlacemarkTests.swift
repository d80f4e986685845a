import Places
import XCTest

final class PlacemarkTests: XCTestCase {
  private let applePark = Placemark(
    subThoroughfare: "1", thoroughfare: "Apple Park Way", locality: "Cupertino", administrativeArea: "CA",
    postalCode: "95014", country: "United States")

  func testFullAddressWithEveryField() {
    XCTAssertEqual(applePark.fullAddress, "1 Apple Park Way, Cupertino, CA 95014, United States")
  }

  func testShortAddressWithEveryField() {
    XCTAssertEqual(applePark.shortAddress, "1 Apple Park Way, Cupertino")
  }

  func testNoFieldsGiveEmptyTexts() {
    XCTAssertEqual(Placemark().fullAddress, "")
    XCTAssertEqual(Placemark().shortAddress, "")
    XCTAssertTrue(Placemark().isEmpty)
    XCTAssertTrue(Placemark(locality: "").isEmpty)
    XCTAssertFalse(applePark.isEmpty)
  }

  func testMissingHouseNumberStartsWithTheStreet() {
    var placemark = applePark
    placemark.subThoroughfare = nil
    XCTAssertEqual(placemark.fullAddress, "Apple Park Way, Cupertino, CA 95014, United States")
    XCTAssertEqual(placemark.shortAddress, "Apple Park Way, Cupertino")
  }

  // The seed writes each present part followed by its own separator, so a partial address keeps the
  // separator of its last part.
  func testOnlyCityKeepsItsSeparatorInTheFullAddress() {
    let placemark = Placemark(locality: "Cupertino")
    XCTAssertEqual(placemark.fullAddress, "Cupertino, ")
    XCTAssertEqual(placemark.shortAddress, "Cupertino")
  }

  func testMissingCountryEndsWithThePostalCodeSeparator() {
    var placemark = applePark
    placemark.country = nil
    XCTAssertEqual(placemark.fullAddress, "1 Apple Park Way, Cupertino, CA 95014, ")
  }

  func testMissingStreetKeepsTheHouseNumbersSpace() {
    let placemark = Placemark(subThoroughfare: "1", locality: "Cupertino")
    XCTAssertEqual(placemark.fullAddress, "1 Cupertino, ")
    XCTAssertEqual(placemark.shortAddress, "1 Cupertino")
  }

  func testMissingCityInShortAddress() {
    let placemark = Placemark(subThoroughfare: "1", thoroughfare: "Apple Park Way", country: "United States")
    XCTAssertEqual(placemark.shortAddress, "1 Apple Park Way, ")
    XCTAssertEqual(placemark.fullAddress, "1 Apple Park Way, United States")
  }

  func testStateAndPostalCodeOnly() {
    XCTAssertEqual(Placemark(administrativeArea: "CA", postalCode: "95014").fullAddress, "CA 95014, ")
    XCTAssertEqual(
      Placemark(postalCode: "95014", country: "United States").fullAddress, "95014, United States")
    XCTAssertEqual(
      Placemark(administrativeArea: "CA", country: "United States").fullAddress, "CA United States")
  }

  func testOnlyCountry() {
    XCTAssertEqual(Placemark(country: "Germany").fullAddress, "Germany")
    XCTAssertEqual(Placemark(country: "Germany").shortAddress, "")
  }

  func testEmptyStringsCountAsAbsent() {
    let placemark = Placemark(
      subThoroughfare: "", thoroughfare: "Pariser Platz", locality: "Berlin", administrativeArea: "",
      postalCode: "10117", country: "Germany")
    XCTAssertEqual(placemark.fullAddress, "Pariser Platz, Berlin, 10117, Germany")
    XCTAssertEqual(placemark.shortAddress, "Pariser Platz, Berlin")
  }
}
