import Foundation
import ImageCodecs
import MapMath
import Tiles
import XCTest

@testable import Rendering

// MARK: - Helpers shared by the Rendering unit tests

/// Fixtures and small tools for the Rendering unit tests (the files named after what they test).
enum RenderKit {
  /// The checkout's root: this file is `Tests/RenderingTests/SnapshotterTests.swift`.
  static let root = URL(fileURLWithPath: #filePath).standardizedFileURL
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `Tests/Fixtures/tiles/world-z0-3.mbtiles`: z0–3 worldwide, z4–5 only for the Pacific and Western Europe.
  static var fixtureTilesPath: String {
    root.appendingPathComponent("Tests/Fixtures/tiles/world-z0-3.mbtiles").path
  }

  static func fixtureTiles() throws -> any TileSource {
    try Tiles.openTileSource(at: fixtureTilesPath)
  }

  static func place(
    _ id: String, _ latitude: Double, _ longitude: Double, title: String? = nil,
    subtitle: String? = "Landmark"
  ) -> PointAnnotation {
    PointAnnotation(
      identifier: id, coordinate: Coordinate(latitude: latitude, longitude: longitude), title: title ?? id,
      subtitle: subtitle)
  }

  static func request(
    _ annotations: [any Annotation], user: UserPosition? = nil, width: Double = 320, height: Double = 240,
    scale: Double = 1, format: OutputFormat = .png
  ) -> RenderRequest {
    var request = RenderRequest(annotations: annotations, user: user)
    request.size = PixelSize(width: width, height: height)
    request.scale = scale
    request.format = format
    return request
  }

  /// The attribution plate of the standard style in its preferred corner (bottom right) of an image of
  /// `imageSize` points; nil for an empty text.
  static func attributionPlate(_ text: String, imageSize: PixelSize) -> PixelRect? {
    var request = RenderRequest(annotations: [])
    request.size = imageSize
    request.style.basemap.attribution = text
    return AttributionPlate.overlay(for: request, measuring: MeasuringContext())?.preferredRect
  }

  static func decode(_ result: RenderResult) throws -> RasterImage {
    try PNGCodec.decode(Data(result.data))
  }

  /// The pin head's rectangle in image pixels for a place drawn at `point` (pixels) at `scale`.
  static func headRect(at point: PixelPoint, scale: Double, style: Style = .standard) -> PixelRect {
    let head = PinGeometry(style: style.pin).headRect
    return PixelRect(
      x: point.x + head.x * scale, y: point.y + head.y * scale, width: head.width * scale,
      height: head.height * scale)
  }

  /// ARCHITECTURE.md §3, written out independently of `Camera.pixel(for:)`.
  static func designPixel(of coordinate: Coordinate, camera: Camera) -> PixelPoint {
    func world(_ c: Coordinate) -> (x: Double, y: Double) {
      let latitude = min(max(c.latitude, -85.051_128_78), 85.051_128_78) * .pi / 180
      return ((c.longitude + 180) / 360, (1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2)
    }
    let p = world(coordinate)
    let c = world(camera.center)
    let x = p.x - (p.x - c.x).rounded()  // the world copy nearest to the centre
    let k = 256 * pow(2, camera.zoom) * camera.scale
    return PixelPoint(
      x: camera.size.width * camera.scale / 2 + (x - c.x) * k,
      y: camera.size.height * camera.scale / 2 + (p.y - c.y) * k)
  }
}

/// An RGBA pixel as integers, with a readable description for failure messages.
struct RGBA: CustomStringConvertible {
  let r: Int
  let g: Int
  let b: Int
  let a: Int

  init(_ image: RasterImage, _ x: Int, _ y: Int) {
    let p = image.pixel(x: x, y: y)
    r = Int(p.red)
    g = Int(p.green)
    b = Int(p.blue)
    a = Int(p.alpha)
  }

  var description: String { "(\(r), \(g), \(b), \(a))" }
  var luminance: Double { 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b) }

  func distance(to color: Color) -> Int {
    let expected = [color.red, color.green, color.blue].map { Int(($0 * 255).rounded()) }
    return max(abs(r - expected[0]), abs(g - expected[1]), abs(b - expected[2]))
  }

  func distance(to other: RGBA) -> Int { max(abs(r - other.r), abs(g - other.g), abs(b - other.b)) }
}

// MARK: - Snapshotter: errors, overrides, and what the pixels show

final class SnapshotterTests: XCTestCase {
  private func renderError(_ request: RenderRequest) -> RenderError? {
    do {
      _ = try Snapshotter.render(request)
      return nil
    } catch {
      return error
    }
  }

  // MARK: Errors

  func testZeroSizeIsInvalid() {
    let places = [RenderKit.place("a", 48.85, 2.35)]
    for (width, height) in [(0.0, 240.0), (320, 0), (0, 0), (-5, 240), (320.5, 240)] {
      let error = renderError(RenderKit.request(places, width: width, height: height))
      XCTAssertEqual(
        error,
        .invalidSize("image size must be whole numbers of at least 1×1 (got \(width)×\(height))"),
        "\(width)×\(height)")
    }
  }

  func testOverOneHundredMegapixelsIsInvalid() {
    let places = [RenderKit.place("a", 48.85, 2.35)]
    XCTAssertEqual(
      renderError(RenderKit.request(places, width: 10_001, height: 10_000)),
      .invalidSize("a 10001×10000 image is over the limit of 100 megapixels"))
    // The limit is on pixels, so the scale counts: 7100 × 7100 points at scale 2 is 201.64 megapixels.
    XCTAssertEqual(
      renderError(RenderKit.request(places, width: 7100, height: 7100, scale: 2)),
      .invalidSize("a 14200×14200 image is over the limit of 100 megapixels"))
  }

  func testHugeAndInfiniteSizesAreInvalidNotACrash() {
    let places = [RenderKit.place("a", 48.85, 2.35)]
    XCTAssertEqual(
      renderError(RenderKit.request(places, width: 1e300, height: 1)),
      .invalidSize(
        "a \(String(format: "%.0f", 1e300))×1 image is over the limit of 100 megapixels"))
    for (width, height) in [(Double.infinity, 240.0), (320, .infinity), (.nan, 240)] {
      XCTAssertEqual(
        renderError(RenderKit.request(places, width: width, height: height)),
        .invalidSize("image size must be whole numbers of at least 1×1 (got \(width)×\(height))"))
    }
  }

  func testTheAttributionMovesAwayFromAPinInItsCorner() throws {
    // A camera that puts the place in the bottom-right corner, where the plate would be.
    let place = Coordinate(latitude: 45, longitude: 10)
    let world = WebMercator.project(place)
    let worldPixels = 256 * pow(2, 5.0)
    let center = WebMercator.unproject(
      WorldPoint(x: world.x - (780 - 400) / worldPixels, y: world.y - (595 - 300) / worldPixels))
    var request = RenderKit.request(
      [PointAnnotation(identifier: "se", coordinate: place, title: "South-east")], width: 800, height: 600)
    request.tiles = try RenderKit.fixtureTiles()
    request.center = center
    request.zoom = 5
    request.showCallouts = false
    let result = try Snapshotter.render(request)
    let pin = try XCTUnwrap(result.layout.annotations.first?.pin)
    XCTAssertGreaterThan(pin.maxX, 760, "the pin stands in the bottom-right corner")
    let plate = try XCTUnwrap(result.attribution)
    XCTAssertFalse(pin.intersects(plate), "the pin is under the attribution \(plate)")
    XCTAssertLessThan(plate.minX, 400, "the plate moved to the bottom-left corner")
    XCTAssertGreaterThan(plate.minY, 500)
  }

  func testAPNGWiderThanCairoCanHoldIsAnInvalidSize() throws {
    var request = RenderKit.request([], width: 40_000, height: 10, format: .png)
    request.center = Coordinate(latitude: 0, longitude: 0)
    XCTAssertEqual(
      renderError(request),
      .invalidSize(
        "a PNG can be at most 32767 pixels a side (this one would be 40000×10); make it smaller or write SVG or PDF"
      ))
  }

  func testABasemapWiderThanCairoCanHoldIsAnErrorNotACrash() throws {
    // Vector canvases have no size limit, but the tiles are laid on one Cairo image first (at most 32767
    // pixels a side): at zoom 4 tiles are drawn 1:1, so a 40000-point-wide map needs 157 columns of them.
    for format in [OutputFormat.svg, .pdf] {
      var request = RenderKit.request([], width: 40_000, height: 10, format: format)
      request.center = Coordinate(latitude: 0, longitude: 0)
      request.zoom = 4
      request.tiles = try RenderKit.fixtureTiles()
      guard case .drawing(let reason)? = renderError(request) else {
        XCTFail("\(format): expected a drawing error, got \(String(describing: renderError(request)))")
        continue
      }
      XCTAssertTrue(reason.hasSuffix("over the limit of 32767 a side; make the image smaller"), reason)
    }
  }

  func testExactlyOneHundredMegapixelsPassesTheSizeCheck() {
    // Nothing to show fails after the size check and before anything is drawn: a cheap way to see that
    // 10000 × 10000 pixels is accepted.
    XCTAssertEqual(renderError(RenderKit.request([], width: 10_000, height: 10_000)), .nothingToShow)
    XCTAssertEqual(renderError(RenderKit.request([], width: 5000, height: 5000, scale: 2)), .nothingToShow)
  }

  func testScaleOutOfRangeIsInvalid() {
    let places = [RenderKit.place("a", 48.85, 2.35)]
    for scale in [0.0, 0.49, 4.01, -1, 10, Double.nan] {
      let error = renderError(RenderKit.request(places, scale: scale))
      XCTAssertEqual(error, .invalidSize("scale must be between 0.5 and 4 (got \(scale))"), "scale \(scale)")
    }
    for scale in [0.5, 4.0] {
      XCTAssertNil(
        renderError(RenderKit.request(places, width: 40, height: 30, scale: scale)), "scale \(scale)")
    }
  }

  func testNothingToShow() {
    let error = renderError(RenderKit.request([]))
    XCTAssertEqual(error, .nothingToShow)
    // The command line says it in its own words (CLITests.StoreRenderTests); the library names no option.
    XCTAssertEqual(
      error?.description, "nothing to show: no places, no user position and no centre to draw a map around")
  }

  func testAUserAloneOrACentreAloneIsEnough() throws {
    let user = UserPosition(coordinate: Coordinate(latitude: 48.85, longitude: 2.35))
    let withUser = try Snapshotter.render(RenderKit.request([], user: user, width: 120, height: 90))
    XCTAssertEqual(withUser.layout.annotations.count, 0)
    XCTAssertNotNil(withUser.layout.user)

    var centred = RenderKit.request([], width: 120, height: 90)
    centred.center = Coordinate(latitude: -33.86, longitude: 151.21)
    let withCentre = try Snapshotter.render(centred)
    XCTAssertEqual(withCentre.layout.camera.center.latitude, -33.86, accuracy: 1e-9)
    XCTAssertEqual(withCentre.layout.camera.center.longitude, 151.21, accuracy: 1e-9)
  }

  func testIncompleteBasemapWhenAllTilesAreRequired() throws {
    // Brazil has tiles only up to zoom 3 in the fixture; a 1000 m region asks for the source's top zoom, 5.
    var request = RenderKit.request([RenderKit.place("rio", -22.95, -43.21)], width: 200, height: 150)
    request.tiles = try RenderKit.fixtureTiles()
    request.requireAllTiles = true
    guard case .incompleteBasemap(let missing, let needed, let source)? = renderError(request) else {
      return XCTFail("expected incompleteBasemap, got \(String(describing: renderError(request)))")
    }
    XCTAssertGreaterThan(missing, 0)
    XCTAssertEqual(missing, needed, "no tile of Brazil is in the fixture at zoom 5")
    XCTAssertEqual(source, RenderKit.fixtureTilesPath)
    // The command line adds "nothing was written (--offline)" (CLITests.RemoteTilesRenderTests).
    XCTAssertEqual(
      RenderError.incompleteBasemap(missing: missing, needed: needed, source: source).description,
      "\(missing) of \(needed) tiles are missing from \(source), and every tile is required")

    // Without the requirement the map is drawn with placeholders and a warning.
    request.requireAllTiles = false
    let result = try Snapshotter.render(request)
    XCTAssertEqual(result.layout.tiles.zoom, 5)
    XCTAssertEqual(result.layout.tiles.missing, missing)
    XCTAssertEqual(result.layout.tiles.drawn, 0)
    XCTAssertTrue(
      result.warnings.contains(.tilesMissing(count: missing, needed: needed, source: source)),
      "\(result.warnings)")
    XCTAssertTrue(
      result.warnings.map(\.description).contains(
        "\(missing) of \(needed) tiles are not in \(source); drawn as placeholders"),
      "\(result.warnings)")
  }

  func testCompleteBasemapPassesWhenAllTilesAreRequired() throws {
    // Paris is in the fixture's Western Europe area at zooms 4–5.
    var request = RenderKit.request([RenderKit.place("paris", 48.8566, 2.3522)], width: 200, height: 150)
    request.tiles = try RenderKit.fixtureTiles()
    request.requireAllTiles = true
    let result = try Snapshotter.render(request)
    XCTAssertEqual(result.layout.tiles.zoom, 5)
    XCTAssertEqual(result.layout.tiles.missing, 0)
    XCTAssertEqual(result.layout.tiles.drawn, result.layout.tiles.needed)
    XCTAssertEqual(result.layout.tiles.source, RenderKit.fixtureTilesPath)
    // Every tile is there; only the zoom was held back (the fixture ends at zoom 5).
    XCTAssertEqual(
      result.warnings.map(\.description),
      [
        "the places would fit at zoom 11, but \(RenderKit.fixtureTilesPath) has no tiles that deep: drawn at zoom"
          + " 7 (raster tiles are enlarged at most 4 times)"
      ])
  }

  func testARasterZoomHeldBackIsSaidOnceAndAVectorSourceIsNot() throws {
    var request = RenderKit.request([RenderKit.place("paris", 48.8566, 2.3522)], width: 400, height: 300)
    request.tiles = try RenderKit.fixtureTiles()
    let capped = try Snapshotter.render(request)
    XCTAssertEqual(capped.layout.camera.zoom, 7)
    guard case .zoomCapped(let wanted, let drawn, let source)? = capped.warnings.first else {
      return XCTFail("expected the zoom to be held back: \(capped.warnings)")
    }
    XCTAssertGreaterThan(wanted, 7)
    XCTAssertEqual(drawn, 7)
    XCTAssertEqual(source, RenderKit.fixtureTilesPath)
    // A given zoom is used as it is: nothing to say.
    request.zoom = 7
    XCTAssertEqual(try Snapshotter.render(request).warnings, [])
  }

  // MARK: Overrides and the output itself

  func testCentreAndZoomOverridesAreUsedAsGiven() throws {
    var request = RenderKit.request(
      [RenderKit.place("a", 48.85, 2.35), RenderKit.place("b", 48.86, 2.29)], width: 200, height: 150)
    request.center = Coordinate(latitude: 48.0, longitude: 2.0)
    request.zoom = 9.25
    let camera = try Snapshotter.render(request).layout.camera
    XCTAssertEqual(camera.center.latitude, 48.0, accuracy: 1e-9)
    XCTAssertEqual(camera.center.longitude, 2.0, accuracy: 1e-9)
    XCTAssertEqual(camera.zoom, 9.25)
  }

  func testOutputsHaveTheRightSizeAndSignature() throws {
    let places = [RenderKit.place("a", 48.85, 2.35)]
    let png = try Snapshotter.render(RenderKit.request(places, width: 150, height: 100, scale: 2))
    XCTAssertEqual(Array(png.data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let image = try RenderKit.decode(png)
    XCTAssertEqual(image.width, 300)
    XCTAssertEqual(image.height, 200)
    XCTAssertEqual(png.layout.width, 300)
    XCTAssertEqual(png.layout.height, 200)
    XCTAssertEqual(png.layout.scale, 2)

    let svg = try Snapshotter.render(
      RenderKit.request(places, width: 150, height: 100, scale: 2, format: .svg))
    let svgText = String(decoding: svg.data, as: UTF8.self)
    XCTAssertTrue(svgText.hasPrefix("<?xml"), String(svgText.prefix(40)))
    XCTAssertTrue(svgText.contains("width=\"300px\""), String(svgText.prefix(300)))
    XCTAssertTrue(svgText.contains("height=\"200px\""), String(svgText.prefix(300)))

    let pdf = try Snapshotter.render(
      RenderKit.request(places, width: 150, height: 100, scale: 2, format: .pdf))
    XCTAssertEqual(String(decoding: pdf.data.prefix(5), as: UTF8.self), "%PDF-")
    XCTAssertTrue(String(decoding: pdf.data, as: UTF8.self).contains("/MediaBox [ 0 0 300 200 ]"))
  }

  func testTheLayoutDoesNotDependOnTheFormat() throws {
    let places = [
      RenderKit.place("a", 48.85, 2.35, title: "Louvre"),
      RenderKit.place("b", 48.86, 2.29, title: "Trocadéro"),
    ]
    var layouts: [MapLayout] = []
    for format in OutputFormat.allCases {
      var layout = try Snapshotter.render(RenderKit.request(places, width: 300, height: 200, format: format))
        .layout
      XCTAssertEqual(layout.format, format)
      layout.format = .png
      layouts.append(layout)
    }
    XCTAssertEqual(layouts[0], layouts[1])
    XCTAssertEqual(layouts[0], layouts[2])
  }

  // MARK: Pixels: what the user sees

  /// A lone place without callouts in a plain map: (image, layout point of the place).
  private func lonePlace(scale: Double, style: Style = .standard) throws -> (RasterImage, PixelPoint) {
    var request = RenderKit.request(
      [RenderKit.place("lone", 40.4168, -3.7038)], width: 120, height: 100, scale: scale)
    request.showCallouts = false
    request.style = style
    let result = try Snapshotter.render(request)
    return (try RenderKit.decode(result), result.layout.annotations[0].point)
  }

  func testThePinHeadIsTheSeedGreen() throws {
    for scale in [1.0, 2.0] {
      let (image, point) = try lonePlace(scale: scale)
      let geometry = PinGeometry(style: Style.standard.pin)
      let centre = PixelPoint(
        x: point.x + geometry.headCenter.x * scale, y: point.y + geometry.headCenter.y * scale)
      // The head is shaded (light upper left, darker rim); a quarter radius to the lower right of the centre the
      // gradient is at its middle stop, the pin colour itself: RGB (0.32, 0.82, 0.40) = (82, 209, 102).
      let offset = geometry.headRadius * 0.25 * scale
      let pixel = RGBA(image, Int(centre.x + offset), Int(centre.y + offset))
      XCTAssertLessThanOrEqual(pixel.distance(to: Style.standard.pin.color), 16, "scale \(scale): \(pixel)")
      XCTAssertEqual(pixel.a, 255)
      XCTAssertGreaterThan(pixel.g, pixel.r + 80, "green-dominant at scale \(scale): \(pixel)")
      XCTAssertGreaterThan(pixel.g, pixel.b + 80, "green-dominant at scale \(scale): \(pixel)")
      // The centre itself is green too (lighter, but still clearly the pin colour).
      let middle = RGBA(image, Int(centre.x), Int(centre.y))
      XCTAssertGreaterThan(middle.g, middle.r + 40, "head centre at scale \(scale): \(middle)")
      XCTAssertGreaterThan(middle.g, middle.b + 40, "head centre at scale \(scale): \(middle)")
    }
  }

  func testTheNeedleTipIsOnThePlace() throws {
    var style = Style.standard
    style.pin.shadowOpacity = 0  // no ground shadow: the needle is the only thing near the place
    let (image, point) = try lonePlace(scale: 2, style: style)
    let background = RGBA(image, 1, 1)
    XCTAssertLessThanOrEqual(background.distance(to: style.basemap.background), 1, "\(background)")
    func differs(_ x: Int, _ y: Int) -> Bool { RGBA(image, x, y).distance(to: background) > 6 }
    let columns = (Int(point.x) - 3)...(Int(point.x) + 3)
    // The lowest row that the needle paints in, near the place's column.
    let lowest = (0..<image.height).last { y in columns.contains { differs($0, y) } }
    let bottom = try XCTUnwrap(lowest)
    XCTAssertLessThanOrEqual(
      abs(Double(bottom) + 0.5 - point.y), 1, "needle ends at row \(bottom), place at \(point)")
    // The needle is there above the tip, in the place's column, and it is thin.
    for y in (bottom - 10)...bottom {
      let painted = columns.filter { differs($0, y) }
      XCTAssertFalse(painted.isEmpty, "row \(y)")
      XCTAssertLessThanOrEqual(painted.count, 3, "row \(y): the needle is thin")
      for x in painted {
        XCTAssertLessThanOrEqual(abs(Double(x) + 0.5 - point.x), 2, "row \(y), column \(x)")
      }
    }
  }

  func testTheUserDotIsBlue() throws {
    for scale in [1.0, 2.0] {
      let user = UserPosition(coordinate: Coordinate(latitude: 51.5074, longitude: -0.1278))
      let result = try Snapshotter.render(
        RenderKit.request([], user: user, width: 100, height: 80, scale: scale))
      let point = try XCTUnwrap(result.layout.user?.point)
      // In the middle (the dot's shadow makes it a point taller below than above, and the margins are even).
      // (up to half a point off: whole zooms put the world's origin on a whole point)
      XCTAssertEqual(point.x, 100 * scale / 2, accuracy: scale / 2 + 1e-6)
      XCTAssertEqual(point.y, 80 * scale / 2, accuracy: scale)
      let image = try RenderKit.decode(result)
      let pixel = RGBA(image, Int(point.x), Int(point.y))
      XCTAssertGreaterThan(pixel.b, 220, "scale \(scale): \(pixel)")
      XCTAssertGreaterThan(pixel.b, pixel.r + 120, "scale \(scale): \(pixel)")
      XCTAssertGreaterThan(pixel.b, pixel.g + 60, "scale \(scale): \(pixel)")
      // The white ring around it.
      let ring = RGBA(image, Int(point.x + 8.5 * scale), Int(point.y))
      XCTAssertGreaterThan(min(ring.r, ring.g, ring.b), 240, "ring at scale \(scale): \(ring)")
    }
  }

  func testTheAttributionIsDarkTextOnALightPlateInTheBottomRightCorner() throws {
    var request = RenderKit.request([RenderKit.place("paris", 48.8566, 2.3522)], width: 300, height: 200)
    request.tiles = try RenderKit.fixtureTiles()
    request.showCallouts = false
    let result = try Snapshotter.render(request)
    let image = try RenderKit.decode(result)
    let plate = try XCTUnwrap(
      RenderKit.attributionPlate(
        "© OpenStreetMap contributors", imageSize: PixelSize(width: 300, height: 200)))
    XCTAssertEqual(plate.maxX, 296, accuracy: 1e-9, "4 points from the right edge")
    XCTAssertEqual(plate.maxY, 196, accuracy: 1e-9, "4 points from the bottom edge")
    XCTAssertGreaterThan(plate.width, 100, "the whole attribution text")
    var light = 0
    var dark = 0
    var total = 0
    // The plate's inside (rounded corners and edges left out).
    for y in Int(plate.minY) + 2..<Int(plate.maxY) - 2 {
      for x in Int(plate.minX) + 3..<Int(plate.maxX) - 3 {
        let pixel = RGBA(image, x, y)
        total += 1
        if pixel.luminance >= 195 { light += 1 }
        if pixel.luminance < 120 { dark += 1 }
      }
    }
    XCTAssertGreaterThan(Double(light) / Double(total), 0.6, "\(light) of \(total) plate pixels are light")
    XCTAssertGreaterThan(dark, 20, "\(dark) of \(total) plate pixels are dark text")
  }

  func testAMissingTileIsDrawnAsThePlaceholder() throws {
    var request = RenderKit.request([RenderKit.place("rio", -22.95, -43.21)], width: 200, height: 150)
    request.tiles = try RenderKit.fixtureTiles()
    request.showCallouts = false
    let result = try Snapshotter.render(request)
    XCTAssertEqual(result.layout.tiles.drawn, 0)
    let image = try RenderKit.decode(result)
    let placeholder = Style.standard.basemap.placeholder
    // Away from the pin (in the middle) and the attribution (bottom right): the top band of the image.
    var matching = 0
    var total = 0
    for y in 0..<30 {
      for x in 0..<200 {
        total += 1
        if RGBA(image, x, y).distance(to: placeholder) <= 2 { matching += 1 }
      }
    }
    XCTAssertGreaterThan(Double(matching) / Double(total), 0.8, "\(matching) of \(total) pixels")
    // It is not the plain background (drawn where there is no basemap at all).
    var plain = RenderKit.request([RenderKit.place("rio", -22.95, -43.21)], width: 200, height: 150)
    plain.showCallouts = false
    let plainImage = try RenderKit.decode(try Snapshotter.render(plain))
    XCTAssertGreaterThan(
      RGBA(plainImage, 5, 5).distance(to: placeholder), 2, "background and placeholder look different")
  }
}

/// A library user may hand any title to the renderer: a 5 MB one used to cost ~100 bytes of memory per byte
/// in text layout. Only the start that can show is laid out; the callout is as wide as any long title's.
final class LongTitleTests: XCTestCase {
  func testAHugeTitleIsCutToWhatCanShow() throws {
    let font = FontSpec(family: "DejaVu Sans", size: 15, bold: true)
    let huge = String(repeating: "W", count: 5_000_000)
    XCTAssertEqual(TextLayout.visiblePart(of: huge, font: font, maxWidth: 220).count, 117)
    XCTAssertEqual(TextLayout.visiblePart(of: "short", font: font, maxWidth: 220), "short")
    XCTAssertEqual(TextLayout.visiblePart(of: huge, font: font, maxWidth: nil).count, 5_000_000)

    let long = String(repeating: "Wide title ", count: 40)
    var layouts: [MapLayout.AnnotationLayout] = []
    for title in [long, huge] {
      let result = try Snapshotter.render(
        RenderKit.request([RenderKit.place("a", 48.85, 2.35, title: title)], width: 600, height: 300))
      layouts.append(try XCTUnwrap(result.layout.annotations.first))
    }
    XCTAssertEqual(layouts[0].callout, layouts[1].callout)
    XCTAssertLessThanOrEqual(try XCTUnwrap(layouts[1].callout).width, 300)
  }
}
