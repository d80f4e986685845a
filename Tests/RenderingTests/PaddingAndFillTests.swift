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

  /// Two places north and south of each other, pins only: the southern pin's tip (its place) stands on
  /// the padding, where the seed's box × 1.1 left another 5 % of the box below it.
  func testThePlacesBoxIsFittedWithoutTheSeedsMargin() throws {
    let places = [
      RenderKit.place("north", 48.90, 2.35, title: "North"),
      RenderKit.place("south", 48.80, 2.35, title: "South"),
    ]
    for scale in [1.0, 2.0] {
      var request = RenderKit.request(places, width: 400, height: 400, scale: scale)
      request.showCallouts = false
      let layout = try Snapshotter.render(request).layout
      let pins = layout.annotations.map(\.pin)
      let top = try XCTUnwrap(pins.map(\.minY).min()) / scale
      let bottom = Double(layout.height) / scale - (try XCTUnwrap(pins.map(\.maxY).max())) / scale
      XCTAssertEqual(top, 20, accuracy: 0.01, "scale \(scale)")
      XCTAssertEqual(bottom, 20, accuracy: 0.01, "scale \(scale)")
    }
  }

  /// The benchmark's city (`../shared/bench/city.json`: 25 places in San Francisco, 1200×800) on a vector
  /// basemap: the places fill the frame from the top pin's head to the bottom marker's reach (86.1 % of
  /// the height with the seed's box × 1.1, 88.0 % now).
  func testTheCityFillsTheFrame() throws {
    let places = PaddingAndFillTests.city.map { RenderKit.place($0, $1, $2, title: $3, subtitle: $4) }
    let user = UserPosition(coordinate: Coordinate(latitude: 37.7858, longitude: -122.4064))
    var request = RenderKit.request(places, user: user, width: 1200, height: 800)
    request.labels = .auto
    let layout = try Snapshotter.render(request).layout
    let ys = layout.annotations.map(\.point.y) + layout.clusters.map(\.point.y)
    let fill = (try XCTUnwrap(ys.max()) - (try XCTUnwrap(ys.min()))) / 800
    XCTAssertGreaterThanOrEqual(fill, 0.875)
    XCTAssertGreaterThanOrEqual(closestCalloutEdge(layout), 19.5)
  }

  private static let city: [(String, Double, Double, String, String)] = [
    ("m0", 37.8199, -122.4783, "Golden Gate Bridge", "Bridge"),
    ("m1", 37.7955, -122.3937, "Ferry Building", "Marketplace"),
    ("m2", 37.8024, -122.4058, "Coit Tower", "Telegraph Hill"),
    ("m3", 37.8029, -122.4484, "Palace of Fine Arts", "Marina"),
    ("m4", 37.8267, -122.423, "Alcatraz Island", "National Park"),
    ("m5", 37.8087, -122.4098, "Pier 39", "Fisherman's Wharf"),
    ("m6", 37.8021, -122.4187, "Lombard Street", "Russian Hill"),
    ("m7", 37.788, -122.4075, "Union Square", "Downtown"),
    ("m8", 37.7908, -122.4058, "Dragon Gate", "Chinatown"),
    ("m9", 37.7763, -122.4328, "Painted Ladies", "Alamo Square"),
    ("m10", 37.7715, -122.4687, "de Young Museum", "Golden Gate Park"),
    ("m11", 37.7699, -122.4661, "Academy of Sciences", "Golden Gate Park"),
    ("m12", 37.7544, -122.4477, "Twin Peaks", "Viewpoint"),
    ("m13", 37.7642, -122.427, "Mission Dolores", "Mission"),
    ("m14", 37.7786, -122.3893, "Oracle Park", "SoMa"),
    ("m15", 37.768, -122.3877, "Chase Center", "Mission Bay"),
    ("m16", 37.7897, -122.3972, "Salesforce Tower", "SoMa"),
    ("m17", 37.7952, -122.4028, "Transamerica Pyramid", "Financial District"),
    ("m18", 37.7797, -122.5115, "Lands End Lookout", "Outer Richmond"),
    ("m19", 37.7594, -122.5107, "Ocean Beach", "Outer Sunset"),
    ("m20", 37.733, -122.503, "San Francisco Zoo", "Parkside"),
    ("m21", 37.8106, -122.4771, "Fort Point", "Presidio"),
    ("m22", 37.8026, -122.4556, "Presidio Tunnel Tops", "Presidio"),
    ("m23", 37.7692, -122.4481, "Haight & Ashbury", "Haight-Ashbury"),
    ("m24", 37.7596, -122.4269, "Dolores Park", "Mission"),
  ]
}
