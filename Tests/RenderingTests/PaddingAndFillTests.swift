import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import Rendering

/// The fit and the placement agree (issue 15): every callout drawn keeps the padding from the image's edges,
/// and the places fill the frame.
final class PaddingAndFillTests: XCTestCase {
  /// The smallest distance, in points, from a drawn callout to the image's edges.
  private func closestCalloutEdge(_ layout: MapLayout) -> Double {
    let width = Double(layout.width)
    let height = Double(layout.height)
    return layout.annotations.compactMap(\.callout).map { rect in
      min(rect.minX, rect.minY, width - rect.maxX, height - rect.maxY) / layout.scale
    }.min() ?? .infinity
  }

  /// The `scale-2` golden's scene: the Paris callout's preferred place touches the user's dot, and the
  /// callout shifted clear of it once stood 6.3 points from the right edge, inside the padding of 20.
  func testCalloutsKeepThePaddingBesideTheUserDot() throws {
    let places = [
      RenderKit.place("london", 51.51227, -0.12398, title: "Apple Covent Garden", subtitle: "Apple Store"),
      RenderKit.place("paris", 48.85257, 2.34713, title: "Shakespeare and Company", subtitle: "Bookstore"),
    ]
    let user = UserPosition(coordinate: Coordinate(latitude: 49.6, longitude: -1.6), accuracy: 40_000)
    var zooms: [Double] = []
    for scale in [1.0, 2.0] {
      var request = RenderRequest(annotations: places, user: user)
      request.size = PixelSize(width: 420, height: 320)
      request.scale = scale
      request.tiles = try openTileSource(at: RepositoryPaths.fixture("tiles/world-z0-3.mbtiles").path)
      let layout = try Snapshotter.render(request).layout
      XCTAssertEqual(layout.droppedCallouts, [], "scale \(scale)")
      XCTAssertEqual(layout.annotations.compactMap(\.callout).count, 2, "scale \(scale)")
      // The padding, less the half point the fit's whole-point alignment may move the map.
      XCTAssertGreaterThanOrEqual(closestCalloutEdge(layout), 19.5, "scale \(scale)")
      zooms.append(layout.camera.zoom)
    }
    // Room made by moving the map, not by zooming out: the zoom the scene always had.
    XCTAssertEqual(zooms, [5, 5])
  }
}
