import Foundation
import MapMath
import Places
import Rendering
import TestSupport
import Tiles
import XCTest

/// Golden images of whole maps (ARCHITECTURE.md §7): rendered from the committed fixture tiles and compared as
/// decoded pixels with tolerances. `MYMAP_RECORD_GOLDENS=1 swift test --filter GoldenMapTests` re-records
/// them; look at every re-recorded image before committing it.
final class GoldenMapTests: XCTestCase {
  private func fixtureTiles() throws -> any TileSource {
    try openTileSource(at: RepositoryPaths.fixture("tiles/world-z0-3.mbtiles").path)
  }

  private func place(
    _ id: String, _ latitude: Double, _ longitude: Double, _ title: String, _ category: String
  )
    -> PointAnnotation
  {
    PointAnnotation(
      identifier: id, coordinate: Coordinate(latitude: latitude, longitude: longitude), title: title,
      subtitle: category)
  }

  private func render(
    _ annotations: [any Annotation], user: UserPosition? = nil, size: PixelSize, scale: Double = 1,
    configure: (inout RenderRequest) -> Void = { _ in }
  ) throws -> RenderResult {
    var request = RenderRequest(annotations: annotations, user: user)
    request.size = size
    request.scale = scale
    request.tiles = try fixtureTiles()
    configure(&request)
    return try Snapshotter.render(request)
  }

  func testOnePlace() throws {
    let result = try render(
      [place("eiffel", 48.85837, 2.29448, "Eiffel Tower", "Landmark")],
      size: PixelSize(width: 480, height: 320))
    // One place: the seed's 1000 m region, but the fixture tiles end at zoom 5, so the fit stops at 5 + 2.
    XCTAssertEqual(result.layout.camera.zoom, 7)
    let item = try XCTUnwrap(result.layout.annotations.first)
    XCTAssertNotNil(item.callout)
    GoldenImage.assertMatches(Data(result.data), named: "one-place")
  }

  func testManyPlacesFromTheExampleTrip() throws {
    let trip = try LocationsFile.read(
      path: RepositoryPaths.examples.appendingPathComponent("europe-trip.json").path)
    // All thirteen places of the README's example over the example's own Europe tiles.
    var request = RenderRequest(annotations: trip.locations)
    request.size = PixelSize(width: 800, height: 600)
    request.tiles = try openTileSource(
      at: RepositoryPaths.examples.appendingPathComponent("tiles/osm-europe.mbtiles").path)
    // Every pin (two of them in Paris on one spot, which --cluster auto would merge).
    request.clustering = .never
    let result = try Snapshotter.render(request)
    XCTAssertEqual(result.layout.annotations.count, 13)
    XCTAssertEqual(result.layout.tiles.missing, 0)
    GoldenImage.assertMatches(Data(result.data), named: "many-places")
  }

  func testCrowdedCalloutsAreDroppedNotOverlapped() throws {
    // Twelve cities in a small map: not every callout can fit.
    let cities: [(String, Double, Double)] = [
      ("London", 51.5072, -0.1276), ("Paris", 48.8566, 2.3522), ("Brussels", 50.8503, 4.3517),
      ("Amsterdam", 52.3676, 4.9041), ("Luxembourg", 49.6116, 6.1319), ("Cologne", 50.9375, 6.9603),
      ("Frankfurt am Main", 50.1109, 8.6821), ("Strasbourg", 48.5734, 7.7521), ("Zürich", 47.3769, 8.5417),
      ("Lyon", 45.7640, 4.8357), ("Bordeaux", 44.8378, -0.5792), ("Nantes", 47.2184, -1.5536),
    ]
    let places = cities.enumerated().map {
      place("c\($0.offset)", $0.element.1, $0.element.2, $0.element.0, "Historic Building")
    }
    let result = try render(places, size: PixelSize(width: 420, height: 300))
    XCTAssertFalse(result.layout.droppedCallouts.isEmpty, "a 420×300 map cannot hold twelve callouts")
    XCTAssertTrue(result.warnings.contains { $0.description.contains("callouts did not fit") })
    let callouts = result.layout.annotations.compactMap(\.callout)
    for (index, first) in callouts.enumerated() {
      for second in callouts[(index + 1)...] {
        XCTAssertFalse(first.intersects(second), "\(first) overlaps \(second)")
      }
    }
    GoldenImage.assertMatches(Data(result.data), named: "crowded-callouts")
  }

  func testTripAcrossTheAntimeridianTakesTheShortWay() throws {
    let places = [
      place("auckland", -36.8485, 174.7633, "Auckland", "Landmark"),
      place("suva", -18.1416, 178.4419, "Suva", "Bar"),
      place("apia", -13.8333, -171.7667, "Apia", "Park"),
      place("honolulu", 21.3069, -157.8583, "Honolulu", "Apple Store"),
      place("petropavlovsk", 53.0452, 158.6483, "Petropavlovsk-Kamchatsky", "Historic Building"),
    ]
    let result = try render(places, size: PixelSize(width: 620, height: 700)) {
      $0.zoomSnapping = .fractional
    }
    XCTAssertNotEqual(
      result.layout.camera.zoom, result.layout.camera.zoom.rounded(), "expected a fractional zoom")
    // The short way across 180° is about 44° wide; the long way round would need zoom 0 or 1.
    XCTAssertGreaterThanOrEqual(result.layout.camera.zoom, 2)
    let bounds = result.layout.bounds
    XCTAssertGreaterThan(bounds.west, bounds.east, "the view should cross the 180° meridian")
    for item in result.layout.annotations {
      XCTAssertTrue(
        PixelRect(x: 0, y: 0, width: 640, height: 720).contains(item.pin),
        "\(item.id) pin is outside the image")
    }
    XCTAssertEqual(result.layout.tiles.missing, 0)
    GoldenImage.assertMatches(Data(result.data), named: "antimeridian-trip")
  }

  func testScaleTwoDrawsEverythingTwiceAsLarge() throws {
    let places = [
      place("london", 51.51227, -0.12398, "Apple Covent Garden", "Apple Store"),
      place("paris", 48.85257, 2.34713, "Shakespeare and Company", "Bookstore"),
    ]
    let user = UserPosition(coordinate: Coordinate(latitude: 49.6, longitude: -1.6), accuracy: 40_000)
    let one = try render(places, user: user, size: PixelSize(width: 420, height: 320))
    let two = try render(places, user: user, size: PixelSize(width: 420, height: 320), scale: 2)
    XCTAssertEqual(two.layout.width, 840)
    XCTAssertEqual(two.layout.height, 640)
    XCTAssertEqual(two.layout.droppedCallouts, [])
    XCTAssertEqual(one.layout.camera.zoom, two.layout.camera.zoom)
    for (a, b) in zip(one.layout.annotations, two.layout.annotations) {
      XCTAssertEqual(b.point.x, a.point.x * 2, accuracy: 0.02)
      XCTAssertEqual(b.pin.width, a.pin.width * 2, accuracy: 0.02)
      XCTAssertEqual(b.callout?.width ?? 0, (a.callout?.width ?? 0) * 2, accuracy: 0.02)
    }
    GoldenImage.assertMatches(Data(two.data), named: "scale-2", tolerance: .standard(scale: 2))
  }

  func testMissingTilesAreDrawnAsPlaceholders() throws {
    // The fixture has zoom 4–5 only for the Pacific and Western Europe: Brazil at zoom 5 is missing.
    let result = try render(
      [place("rio", -22.9519, -43.2105, "Cristo Redentor", "Landmark")],
      size: PixelSize(width: 400, height: 300))
    XCTAssertGreaterThan(result.layout.tiles.missing, 0)
    XCTAssertEqual(result.layout.tiles.drawn + result.layout.tiles.missing, result.layout.tiles.needed)
    GoldenImage.assertMatches(Data(result.data), named: "missing-tiles")
  }

  func testTitlesInNonLatinScriptsRenderWithTheInstalledFonts() throws {
    let places = [
      place("tokyo", 35.6586, 139.7454, "東京タワー", "Landmark"),
      place("seoul", 37.5512, 126.9882, "N서울타워", "Landmark"),
      place("cairo", 30.0444, 31.2357, "القاهرة", "Park"),
      place("moscow", 55.7520, 37.6175, "Красная площадь", "Historic Building"),
      place("athens", 37.9715, 23.7257, "Ακρόπολη", "Historic Building"),
      place("jerusalem", 31.7767, 35.2345, "ירושלים", "Historic Building"),
    ]
    // Every title is the point here: Cairo's and Jerusalem's pin heads touch, which would cluster them.
    let result = try render(places, size: PixelSize(width: 720, height: 420)) { $0.clustering = .never }
    XCTAssertFalse(
      result.warnings.contains { $0.description.contains("no font") }, "missing glyphs: \(result.warnings)")
    GoldenImage.assertMatches(Data(result.data), named: "non-latin-scripts")
  }

  func testSVGAndPDFDefineThePinOnceAndPlaceItByReference() throws {
    // 300 pins, one pin drawn: each is a reference to it, not its paths and gradients again.
    var places: [any Annotation] = []
    for row in 0..<15 {
      for column in 0..<20 {
        places.append(
          place("p\(row)-\(column)", 48 + Double(row) * 0.2, 2 + Double(column) * 0.3, "P", "Park"))
      }
    }
    let svgResult = try render(places, size: PixelSize(width: 800, height: 600)) {
      $0.format = .svg
      $0.clustering = .never
      $0.showCallouts = false
    }
    let svg = String(decoding: svgResult.data, as: UTF8.self)
    XCTAssertEqual(svg.components(separatedBy: "<radialGradient").count - 1, 1, "one pin head drawn")
    let uses = svg.components(separatedBy: "<use xlink:href=\"#surface").dropFirst()
    let perTarget = Dictionary(grouping: uses) { $0.prefix { $0 != "\"" } }.mapValues(\.count)
    XCTAssertEqual(perTarget.values.max(), 300, "\(perTarget)")
    // Each placed at its place: the same offset from every place's point to its pin's origin.
    let translations = svg.components(separatedBy: "transform=\"matrix(1,0,0,1,").dropFirst().map {
      $0.prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0) }
    }.filter { $0.count == 2 }
    let points = svgResult.layout.annotations.map(\.point)
    XCTAssertEqual(points.count, 300)
    let offsets = Set(
      zip(
        translations.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }, points.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
      )
      .map { "\((($0[0] - $1.x) * 100).rounded()),\((($0[1] - $1.y) * 100).rounded())" })
    // The symbol's corner: the pin's extent and 2 pt more, left of and above the tip (head radius 7.5).
    XCTAssertEqual(offsets, ["-1050.0,-3800.0"])
    // Drawn 300 times, the pins alone were over 1 MB of SVG and 350 KB of PDF (the basemap is some 50 KB).
    XCTAssertLessThan(svgResult.data.count, 300_000)
    let pdf = try render(places, size: PixelSize(width: 800, height: 600)) {
      $0.format = .pdf
      $0.clustering = .never
      $0.showCallouts = false
    }
    XCTAssertLessThan(pdf.data.count, 150_000)
  }

  func testSVGKeepsOverlaysAsVectorsAndEmbedsTheTiles() throws {
    let places = [
      place("london", 51.51227, -0.12398, "Apple Covent Garden", "Apple Store"),
      place("paris", 48.85257, 2.34713, "Shakespeare and Company", "Bookstore"),
    ]
    let result = try render(places, size: PixelSize(width: 400, height: 300)) { $0.format = .svg }
    let svg = String(decoding: result.data, as: UTF8.self)
    XCTAssertTrue(svg.hasPrefix("<?xml"))
    XCTAssertTrue(svg.contains("width=\"400px\" height=\"300px\" viewBox=\"0 0 400 300\""))
    // The basemap is one embedded PNG mosaic; pins, callouts and text are vector paths and glyph symbols.
    XCTAssertEqual(svg.components(separatedBy: "<image ").count - 1, 1)
    XCTAssertTrue(svg.contains("data:image/png;base64,"))
    XCTAssertGreaterThan(svg.components(separatedBy: "<path ").count - 1, 20)
    XCTAssertTrue(svg.contains("<symbol overflow=\"visible\" id=\"glyph0-0\">"))
    XCTAssertTrue(svg.contains("xlink:href=\"#glyph"))
    // The seed's pin green appears as a gradient stop of every pin head.
    XCTAssertTrue(svg.contains("rgb(32%,82%,40%)") || svg.contains("rgb(32.156863%,81.960784%,40%)"))
  }
}
