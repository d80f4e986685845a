import Foundation
import MapMath
import Places
import Rendering
import TestSupport
import Tiles
import XCTest

/// Golden images of the map's decorations over the README's Europe trip and its tiles: numbered pins with
/// their legend, pins coloured by category with the category legend, and a title with dates and a scale
/// bar. `MYMAP_RECORD_GOLDENS=1 swift test --filter DecorationGoldenTests` re-records them; look at each.
final class DecorationGoldenTests: XCTestCase {
  private static let trip = RepositoryPaths.examples.appendingPathComponent("europe-trip.json").path
  private static let tiles = RepositoryPaths.examples.appendingPathComponent("tiles/osm-europe.mbtiles").path

  /// The trip at 640×480 over its tiles, configured by the test.
  private func europe(configure: (inout RenderRequest) throws -> Void) throws -> RenderResult {
    var request = RenderRequest(annotations: try LocationsFile.read(path: Self.trip).locations)
    (request.size, request.tiles) = (PixelSize(width: 640, height: 480), try openTileSource(at: Self.tiles))
    // Every place with its own pin (the Eiffel Tower and Shakespeare and Company would share a cluster).
    request.clustering = .never
    try configure(&request)
    return try Snapshotter.render(request)
  }

  func testNumberedPinsWithTheirLegend() throws {
    let result = try europe { $0.labels = .numbers }
    XCTAssertEqual(result.layout.annotations.compactMap(\.number), Array(1...13))
    XCTAssertEqual(result.layout.legend?.rows.count, 13)
    GoldenImage.assertMatches(Data(result.data), named: "numbered-legend")
  }

  func testPinsColouredByCategory() throws {
    let result = try europe { request in
      request.style = try Style.load(
        contentsOf: RepositoryPaths.root.appendingPathComponent("Styles/categories.json"))
      request.labels = .auto
    }
    XCTAssertEqual(result.layout.legend?.categories.count, 7)
    GoldenImage.assertMatches(Data(result.data), named: "category-colours")
  }

  func testATitleWithDatesAndAScaleBar() throws {
    let result = try europe { request in
      request.labels = .auto
      request.title = MapTitle(title: "Europe, summer 2025", subtitle: "2 Jun 2025 – 8 Jul 2025 · 13 places")
      request.scaleBar = .metric
    }
    XCTAssertEqual(Set(result.layout.plates.map(\.kind)).isSuperset(of: ["title", "scaleBar"]), true)
    GoldenImage.assertMatches(Data(result.data), named: "title-dates-scale")
  }
}
