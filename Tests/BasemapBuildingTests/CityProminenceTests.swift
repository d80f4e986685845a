import BasemapBuilding
import XCTest

/// Which GeoNames places the basemap names, and how prominently.
final class CityProminenceTests: XCTestCase {
  private func city(_ name: String, _ country: String, _ lat: Double, _ lon: Double, _ people: Double)
    -> CityProminence.City
  {
    CityProminence.City(name: name, countryCode: country, latitude: lat, longitude: lon, population: people)
  }

  /// GeoNames lists Paris's arrondissements (twice, under two names) and a "Gare" beside Paris; they are
  /// sections of it, not towns. A capital across a river in another country, a capital inside a larger
  /// city and a real suburb stay.
  func testSectionsOfACityAreDroppedAndItsNeighboursKept() {
    let cities = [
      city("Kinshasa", "CD", -4.32, 15.31, 16_000_000),
      city("Paris", "FR", 48.85341, 2.3488, 2_138_551),
      city("Brazzaville", "CG", -4.266, 15.283, 1_982_000),
      city("Delhi", "IN", 28.65195, 77.23149, 11_034_555),
      city("New Delhi", "IN", 28.62137, 77.2148, 317_797),
      city("Paris 13 Gobelins", "FR", 48.8322, 2.3561, 181_271),
      city("Paris 13e Arrondissement", "FR", 48.8262, 2.35986, 177_833),
      city("Boulogne-Billancourt", "FR", 48.83545, 2.24128, 121_334),
      city("Gare", "FR", 48.83337, 2.37513, 75_580),
    ]
    let capitals: Set = [
      CityProminence.capitalKey(countryCode: "FR", name: "Paris"),
      CityProminence.capitalKey(countryCode: "CG", name: "Brazzaville"),
      CityProminence.capitalKey(countryCode: "IN", name: "New Delhi"),
    ]
    let ranked = CityProminence.rank(cities, capitals: capitals)
    XCTAssertEqual(
      ranked.map(\.city.name),
      ["Kinshasa", "Paris", "Brazzaville", "Delhi", "New Delhi", "Boulogne-Billancourt"])
    // Paris: itself and Boulogne, times the capital factor; Boulogne its own people.
    XCTAssertEqual(ranked[1].prominence, CityProminence.capitalFactor * (2_138_551 + 121_334))
    XCTAssertEqual(ranked[5].prominence, 121_334)
    // Kinshasa does not count Brazzaville, across the border.
    XCTAssertEqual(ranked[0].prominence, 16_000_000)
    // Delhi holds the capital, New Delhi, and is ranked as one.
    XCTAssertEqual(ranked[3].prominence, CityProminence.capitalFactor * (11_034_555 + 317_797))
    XCTAssertEqual(ranked[4].prominence, CityProminence.capitalFactor * 317_797)
  }

  /// A capital is found whatever accents the two lists write.
  func testCapitalsMatchWithoutAccentsOrCase() {
    XCTAssertEqual(
      CityProminence.capitalKey(countryCode: "co", name: " Bogota"),
      CityProminence.capitalKey(countryCode: "CO", name: "Bogotá"))
    let ranked = CityProminence.rank(
      [city("Bogotá", "CO", 4.6, -74.08, 7_674_366)],
      capitals: [CityProminence.capitalKey(countryCode: "CO", name: "Bogota")])
    XCTAssertEqual(ranked.first?.prominence, CityProminence.capitalFactor * 7_674_366)
  }

  /// Near the pole and across 180°, neighbours are still found, each once.
  func testNeighboursAcrossTheAntimeridianAndNearThePole() {
    let ranked = CityProminence.rank(
      [
        city("East", "XX", 10, 179.95, 1_000_000), city("West", "XX", 10, -179.95, 100_000),
        city("Polar", "YY", 89.95, 0, 1_000_000), city("Polar Near", "YY", 89.95, 120, 100_000),
        city("Polar Far", "YY", 89.5, 180, 10_000),
      ], capitals: [])
    XCTAssertEqual(ranked.map(\.city.name), ["East", "West", "Polar", "Polar Near", "Polar Far"])
    XCTAssertEqual(ranked.map(\.prominence), [1_100_000, 100_000, 1_100_000, 100_000, 10_000])
  }
}
