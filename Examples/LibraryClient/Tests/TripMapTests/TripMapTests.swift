import MapMath
import MapSnapshotTesting
import Rendering
import XCTest

/// The test of "Golden-image tests of your own maps" (Rendering.docc), against the reference committed in
/// `MapSnapshots/TripMapTests/paris.png`.
final class TripMapTests: XCTestCase {
  func testParis() {
    var options = MapSnapshotOptions(places: [
      PointAnnotation(
        identifier: "eiffel", coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945),
        title: "Eiffel Tower", subtitle: "Bar")
    ])
    options.size = PixelSize(width: 400, height: 300)
    assertMapSnapshot(of: options, named: "paris")
  }

  /// The built-in basemap and a named style were found from this package, with no environment variable.
  func testTheBuiltInBasemapIsFound() async throws {
    XCTAssertNil(ProcessInfo.processInfo.environment["MYMAP_BASEMAP"])
    XCTAssertNil(ProcessInfo.processInfo.environment["MYMAP_DATA"])
    var options = MapSnapshotOptions(places: [
      PointAnnotation(
        identifier: "helsinki", coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384),
        title: "Helsinki")
    ])
    options.style = try Style.named("dark")
    let snapshot = try await MapSnapshotter(options: options).snapshot()
    XCTAssertEqual(snapshot.layout.tiles.source, "builtin")
    XCTAssertEqual(snapshot.layout.annotations.map(\.id), ["helsinki"])
  }
}
