import Foundation
import Places
import XCTest

final class LocationsJSONStreamTests: XCTestCase {
  private func streamed(_ places: [Location]) -> String {
    var stream = LocationsJSONStream()
    var text = stream.start()
    for place in places { text += stream.place(place) }
    return text + stream.finish()
  }

  func testTheStreamWritesWhatEncodeWrites() {
    let places = [
      Location(
        id: "a", latitude: 37.33182, longitude: -122.03118, locationDescription: "Apple HQ",
        category: "Apple Store", date: Date(timeIntervalSince1970: 1_764_410_400),
        placemark: Placemark(subThoroughfare: "1", thoroughfare: "Infinite Loop", locality: "Cupertino")),
      Location(id: "b", latitude: 52.3731, longitude: 4.8922, category: "Bar"),
      Location(id: "c\n\"quoted\"", latitude: -33.9, longitude: 151.2, locationDescription: "Opera"),
    ]
    for count in 0...places.count {
      let subset = Array(places.prefix(count))
      XCTAssertEqual(
        streamed(subset),
        String(decoding: LocationsFile.encode(LocationSet(locations: subset)), as: UTF8.self),
        "\(count) places")
    }
  }
}
