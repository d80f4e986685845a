import Foundation
import MapMath
import Rendering
import TestSupport
import Tiles
import XCTest

/// What a render does with a tile source (anyone's type) whose numbers cannot be drawn, with requests whose
/// numbers are not numbers, and with tiles that cannot be used: a typed error or a named placeholder, never
/// a trap.
final class HostileTileRenderTests: XCTestCase {
  private let paris = RenderKit.place("paris", 48.8566, 2.3522)

  private func request(tiles: any TileSource) -> RenderRequest {
    var request = RenderKit.request([paris], width: 200, height: 150)
    request.tiles = tiles
    return request
  }

  func testASourceWhoseTileSizeCannotBeDrawnIsATileSourceError() {
    for size in [0, -256, 8, 1_000_000_000, Int.max] {
      XCTAssertThrowsError(try Snapshotter.render(request(tiles: LyingSource(tileSize: size))), "\(size)") {
        XCTAssertEqual(
          $0 as? RenderError,
          .tileSource(
            "tile source liar declares tiles of \(size) pixels (its tile size); tiles must be 16 to 1024"
              + " pixels a side"))
      }
    }
  }

  func testASourceWithZoomsOutsideTheGridIsATileSourceError() {
    for zooms in [-5...3, 0...31, -100...100] {
      XCTAssertThrowsError(try Snapshotter.render(request(tiles: LyingSource(zoomRange: zooms)))) {
        XCTAssertEqual(
          $0 as? RenderError,
          .tileSource(
            "tile source liar has zooms \(zooms.lowerBound)–\(zooms.upperBound); zooms go from 0 to 30"))
      }
    }
  }

  func testValuesThatAreNotNumbersAreRefusedBeforeTheCamera() {
    let nan = Double.nan
    let place = RenderKit.request([RenderKit.place("nowhere", nan, 2)])
    var centre = RenderKit.request([paris])
    centre.center = Coordinate(latitude: 10, longitude: .infinity)
    let user = RenderKit.request([paris], user: UserPosition(coordinate: paris.coordinate, accuracy: nan))
    var zoom = RenderKit.request([paris])
    zoom.zoom = nan
    var span = RenderKit.request([paris])
    span.spanMeters = -.infinity
    let expected = [
      "the place nowhere is not a coordinate (latitude nan, longitude 2.0)",
      "the centre is not a coordinate (latitude 10.0, longitude inf)",
      "the user's accuracy must be a number of metres ≥ 0 (got nan)",
      "the zoom must be between 0 and 30 (got nan)",
      "the span must be a number of metres above 0 (got -inf)",
    ]
    for (index, request) in [place, centre, user, zoom, span].enumerated() {
      XCTAssertThrowsError(try Snapshotter.render(request)) {
        XCTAssertEqual($0 as? RenderError, .invalidValue(expected[index]))
      }
    }
  }

  func testAnUnusableTileIsAPlaceholderNamedInAWarningOrAnErrorWhenEveryTileIsRequired() throws {
    var request = request(tiles: LyingSource(tile: try HostileTiles.png(claiming: 0, 0)))
    request.zoom = 0
    let result = try Snapshotter.render(request)
    XCTAssertEqual(result.layout.tiles.drawn, 0)
    XCTAssertEqual(result.layout.tiles.missing, 1)
    XCTAssertEqual(
      result.warnings.map(\.description),
      ["tile 0/0/0 of liar: tile is 0×0 pixels, expected 256×256; drawn as a placeholder"])

    request.requireAllTiles = true
    XCTAssertThrowsError(try Snapshotter.render(request)) { error in
      guard
        case .unusableTiles(let first, let unusable, let missing, let needed, let source)? = error
          as? RenderError
      else { return XCTFail("expected unusableTiles, got \(error)") }
      XCTAssertEqual(first.description, "tile 0/0/0: tile is 0×0 pixels, expected 256×256")
      XCTAssertEqual([unusable, missing, needed], [1, 0, 1])
      XCTAssertEqual(source, "liar")
      XCTAssertEqual(
        "\(error)",
        "tile 0/0/0 of liar cannot be drawn: tile is 0×0 pixels, expected 256×256; nothing was written")
    }
  }
}

/// A tile source with whatever tile size and zooms a test gives it, and one tile everywhere.
private struct LyingSource: TileSource {
  var tileSize = 256
  var zoomRange = 0...3
  var tile: Data? = nil
  var attribution: String? { nil }
  var description: String { "liar" }

  func tileData(_ id: TileID) throws -> Data? { try tile ?? HostileTiles.png() }
}
