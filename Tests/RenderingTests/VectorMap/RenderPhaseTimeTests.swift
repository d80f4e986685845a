import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import Rendering

/// A render says how long each of its stages took (the benchmark's figures), in the order they ran.
final class RenderPhaseTimeTests: XCTestCase {
  func testAStreetMapReportsItsStagesInOrder() throws {
    let place = PointAnnotation(
      identifier: "station", coordinate: Coordinate(latitude: 60.1713, longitude: 24.9412), title: "Station")
    var request = RenderRequest(annotations: [place])
    request.size = PixelSize(width: 400, height: 300)
    request.tiles = try openTileSource(at: VectorMapFixtures.tilesPath)
    request.mapStyle = try VectorMapFixtures.style("light")
    let result = try Snapshotter.render(request)
    XCTAssertEqual(
      result.phaseTimes.map(\.name),
      ["prepare", "tiles", "style + labels", "draw and encode"])
    XCTAssertTrue(result.phaseTimes.allSatisfy { $0.seconds >= 0 && $0.seconds < 60 }, "\(result.phaseTimes)")
  }

  func testAMapWithoutTilesReportsOneBasemapStageAndAnSVGItsDrawingAndEncodingApart() throws {
    var request = RenderRequest(annotations: [])
    request.size = PixelSize(width: 200, height: 100)
    request.center = Coordinate(latitude: 0, longitude: 0)
    request.zoom = 2
    XCTAssertEqual(
      try Snapshotter.render(request).phaseTimes.map(\.name), ["prepare", "basemap", "draw and encode"])
    request.format = .svg
    XCTAssertEqual(
      try Snapshotter.render(request).phaseTimes.map(\.name),
      ["prepare", "basemap", "draw map", "draw overlays", "encode"])
  }
}
