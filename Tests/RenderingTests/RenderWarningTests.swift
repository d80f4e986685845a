import Foundation
import MapMath
import Tiles
import XCTest

@testable import Rendering

/// Typed warnings say, for the command line, exactly what it said when warnings were text; library errors
/// carry data and name no command-line option (the command line adds its own words: CLITests).
final class RenderWarningTests: XCTestCase {
  /// A tile source whose one tile is not an image.
  private struct GarbageSource: TileSource {
    var tileSize: Int { 256 }
    var zoomRange: ClosedRange<Int> { 0...0 }
    var attribution: String? { nil }
    var description: String { "garbage.mbtiles" }
    func tileData(_ id: TileID) throws -> Data? { Data("not a png".utf8) }
  }

  func testEveryWarningSaysWhatItAlwaysSaid() throws {
    let tile = try XCTUnwrap(TileID(z: 0, x: 0, y: 0))
    let failure = try XCTUnwrap(try TileLoader(source: GarbageSource()).load([tile]).failed.first)
    let cases: [(RenderWarning, String)] = [
      (
        .calloutsLeftOut(count: 4, total: 13),
        "4 of 13 callouts did not fit and were left out (their places keep their pins)"
      ),
      (
        .glyphsMissing(count: 7, fonts: [.cjk]),
        "7 characters in titles have no font to draw them (install fonts-noto-cjk)"
      ),
      (
        .glyphsMissing(count: 2, fonts: [.cjk, .emoji]),
        "2 characters in titles have no font to draw them (install fonts-noto-cjk and fonts-noto-color-emoji)"
      ),
      (
        .glyphsMissing(count: 1, fonts: []),
        "1 characters in titles have no font to draw them (install a font that covers them)"
      ),
      (
        .tilesMissing(count: 2, needed: 6, source: "europe.mbtiles"),
        "2 of 6 tiles are not in europe.mbtiles; drawn as placeholders"
      ),
      (
        .tileUndrawable(failure, source: "garbage.mbtiles"),
        "tile 0/0/0 of garbage.mbtiles: \(failure.reason); drawn as a placeholder"
      ),
      (.moreTilesUndrawable(count: 5), "5 more tiles could not be decoded"),
      (
        .tilePreparation("3 of 9 tiles are not on the server (HTTP 404); 3 tiles drawn as placeholders"),
        "3 of 9 tiles are not on the server (HTTP 404); 3 tiles drawn as placeholders"
      ),
    ]
    for (warning, text) in cases { XCTAssertEqual(warning.description, text) }
    XCTAssertFalse(failure.reason.isEmpty)
  }

  func testARenderWarnsInOrderWithTypedValues() throws {
    // Twelve callouts on a small map, over a tile source without those tiles (it has Brazil only up to zoom 3): the callouts first, then the tiles.
    var request = RenderKit.request(
      (0..<12).map {
        RenderKit.place("p\($0)", -22.9 - Double($0) * 0.01, -43.2, title: "Place number \($0)")
      },
      width: 200, height: 150)
    request.tiles = try RenderKit.fixtureTiles()
    request.center = Coordinate(latitude: -22.95, longitude: -43.2)
    request.zoom = 6
    let result = try Snapshotter.render(request)
    let dropped = result.layout.droppedCallouts.count
    XCTAssertGreaterThan(dropped, 0)
    XCTAssertEqual(result.warnings.first, .calloutsLeftOut(count: dropped, total: 12))
    guard case .tilesMissing(let missing, let needed, let source)? = result.warnings.last else {
      return XCTFail("\(result.warnings)")
    }
    XCTAssertEqual(missing, result.layout.tiles.missing)
    XCTAssertEqual(needed, result.layout.tiles.needed)
    XCTAssertEqual(source, RenderKit.fixtureTilesPath)
    XCTAssertEqual(result.warnings.count, 2)
  }

  func testLibraryErrorsNameNoCommandLineOption() throws {
    let tile = try XCTUnwrap(TileID(z: 0, x: 0, y: 0))
    let failure = try XCTUnwrap(try TileLoader(source: GarbageSource()).load([tile]).failed.first)
    let errors: [RenderError] = [
      .nothingToShow, .incompleteBasemap(missing: 3, needed: 4, source: "a.mbtiles"),
      .unusableTiles(first: failure, unusable: 2, missing: 1, needed: 4, source: "a.mbtiles"),
    ]
    for error in errors { XCTAssertFalse(error.description.contains("--"), error.description) }
    XCTAssertEqual(
      RenderError.incompleteBasemap(missing: 3, needed: 4, source: "a.mbtiles").description,
      "3 of 4 tiles are missing from a.mbtiles, and every tile is required")
  }
}
