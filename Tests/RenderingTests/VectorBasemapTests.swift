import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

@testable import Rendering

/// The built-in basemap drawn as vectors (`VectorBasemapLayer` through `Snapshotter`), with a small made-up
/// world in memory (`SyntheticBasemap`, below).
final class VectorBasemapTests: XCTestCase {
  private func request(
    _ annotations: [any Annotation] = [], center: Coordinate, zoom: Double, width: Double = 400,
    height: Double = 300, scale: Double = 1, source: any BasemapSource = SyntheticBasemap()
  ) -> RenderRequest {
    var request = RenderKit.request(annotations, width: width, height: height, scale: scale)
    request.basemap = source
    request.center = center
    request.zoom = zoom
    return request
  }

  private func render(_ request: RenderRequest) throws -> (RenderResult, RasterImage) {
    let result = try Snapshotter.render(request)
    return (result, try RenderKit.decode(result))
  }

  private func layer(
    _ camera: Camera, source: any BasemapSource = SyntheticBasemap(), obstacles: [PixelRect] = []
  )
    throws -> VectorBasemapLayer
  {
    try VectorBasemapLayer(
      source: source, camera: camera, style: Style.standard.basemap, fontFamily: Style.standard.fontFamily,
      obstacles: obstacles, measuring: MeasuringContext())
  }

  private func pixel(_ image: RasterImage, at coordinate: Coordinate, _ camera: Camera) -> RGBA {
    let point = camera.pixel(for: coordinate)
    return RGBA(image, Int(point.x), Int(point.y))
  }

  private let palette = Style.standard.basemap

  /// The made-up world's land and nothing else: no line or label in the way of a pixel check.
  private var landOnly: SyntheticBasemap {
    SyntheticBasemap(features: SyntheticBasemap.world.filter { $0.kind == .land })
  }

  // MARK: Bands and windows

  /// In an image the geometry and the names' dots and halos are drawn in four bands on every core, each
  /// band only what reaches into it: the same pixels as one drawing (the dashed state borders, the land's
  /// one fill and the halos included), on the real basemap's Europe at zoom 5, thousands of small parts on
  /// every band edge, at scales 1 and 2.
  func testTheGeometryDrawnInBandsIsTheOneDrawingsPixels() throws {
    let data = try BasemapData(path: RepositoryPaths.root.appendingPathComponent("Data/basemap.sqlite").path)
    for scale in [1.0, 2.0] {
      let camera = Camera(
        center: Coordinate(latitude: 48, longitude: 10), zoom: 5, size: PixelSize(width: 500, height: 400),
        scale: scale)
      let drawn = try layer(camera, source: data)
      XCTAssertGreaterThan(drawn.stateBorders.count, 500, "dashed lines to check")
      XCTAssertGreaterThan(drawn.labels.entries.count, 5, "names to check")
      let height = Int(400 * scale)
      XCTAssertEqual(BandedDrawing.bands(pixelHeight: height, minimumRows: 100).count, 4)
      func image(bands: [Range<Int>]?) throws -> [UInt8] {
        let canvas = try Canvas(format: .png, pixelWidth: Int(500 * scale), pixelHeight: height, scale: scale)
        drawn.draw(on: canvas, bands: bands)
        return try PNGCodec.decode(try canvas.finish()).rgba
      }
      let (banded, whole) = (try image(bands: nil), try image(bands: [0..<height]))
      XCTAssertEqual(banded.count, whole.count)
      let differing = stride(from: 0, to: min(banded.count, whole.count), by: 4).filter {
        banded[$0..<$0 + 4] != whole[$0..<$0 + 4]
      }
      XCTAssertEqual(
        differing.count, 0,
        "scale \(scale): pixels that differ, the first at \(differing.first.map { $0 / 4 } ?? 0)")
    }
  }

  func testTheBandFollowsTheZoomWhateverTheScale() {
    func camera(_ zoom: Double, _ scale: Double) -> Camera {
      Camera(
        center: Coordinate(latitude: 0, longitude: 0), zoom: zoom, size: PixelSize(width: 10, height: 10),
        scale: scale)
    }
    // Bands start at zooms 0, 3, 5, 7 and 9.
    let expected = [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    for zoom in 0...18 {
      for scale in [0.5, 1, 1.5, 2, 3] {
        XCTAssertEqual(
          VectorBasemapLayer.band(for: camera(Double(zoom), scale)), expected[zoom], "zoom \(zoom) @\(scale)x"
        )
      }
    }
    XCTAssertEqual(VectorBasemapLayer.band(for: camera(2.99, 2)), 0)
    XCTAssertEqual(VectorBasemapLayer.band(for: camera(3, 1)), 1)
  }

  func testWindowsAreSplitAtTheWorldsEdges() {
    typealias Window = VectorBasemapLayer.WorldWindow
    XCTAssertEqual(VectorBasemapLayer.windows(minX: 0.2, maxX: 0.4), [Window(copy: 0, minX: 0.2, maxX: 0.4)])
    XCTAssertEqual(
      VectorBasemapLayer.windows(minX: 0.98, maxX: 1.03),
      [Window(copy: 0, minX: 0.98, maxX: 1), Window(copy: 1, minX: 0, maxX: 0.030000000000000027)])
    XCTAssertEqual(
      VectorBasemapLayer.windows(minX: -0.25, maxX: 0.5),
      [Window(copy: -1, minX: 0.75, maxX: 1), Window(copy: 0, minX: 0, maxX: 0.5)])
    // Wider than the world: one whole world per copy.
    XCTAssertEqual(
      VectorBasemapLayer.windows(minX: -1.5, maxX: 1.25),
      [
        Window(copy: -2, minX: 0.5, maxX: 1), Window(copy: -1, minX: 0, maxX: 1),
        Window(copy: 0, minX: 0, maxX: 1),
        Window(copy: 1, minX: 0, maxX: 0.25),
      ])
    XCTAssertEqual(VectorBasemapLayer.windows(minX: 0.5, maxX: 0.5), [])
    XCTAssertEqual(VectorBasemapLayer.windows(minX: -.infinity, maxX: 1), [])
  }

  func testTheSourceIsAskedOnlyForTheVisibleWindowInsideTheWorld() throws {
    let source = SyntheticBasemap()
    let camera = Camera(
      center: Coordinate(latitude: -16, longitude: 179.5), zoom: 5, size: PixelSize(width: 400, height: 300))
    _ = try layer(camera, source: source)
    XCTAssertFalse(source.queries.isEmpty)
    for query in source.queries {
      XCTAssertGreaterThanOrEqual(query.minimum.x, 0)
      XCTAssertLessThanOrEqual(query.maximum.x, 1)
      XCTAssertGreaterThanOrEqual(query.minimum.y, 0)
      XCTAssertLessThanOrEqual(query.maximum.y, 1)
      XCTAssertEqual(query.band, 2)
    }
    // Across 180°: both sides of the world's edge, each about half the view (400 px at zoom 5 is 0.049).
    let land = source.queries.filter { $0.kind == .land }
    XCTAssertEqual(land.count, 2)
    XCTAssertEqual(land[0].maximum.x, 1)
    XCTAssertEqual(land[1].minimum.x, 0)
    XCTAssertEqual(
      (land[0].maximum.x - land[0].minimum.x) + land[1].maximum.x, 400.0 / 8192 + 16.0 / 8192, accuracy: 1e-9)
    // No state borders at zoom 5? They start at zoom 4, so they are asked for; not at zoom 3.
    XCTAssertTrue(source.queries.contains { $0.kind == .stateBorder })
    let far = SyntheticBasemap()
    _ = try layer(Camera(center: camera.center, zoom: 3, size: camera.size), source: far)
    XCTAssertFalse(far.queries.contains { $0.kind == .stateBorder })
  }

  func testFeaturesOutsideTheViewAreLeftOut() throws {
    // Zoomed into Westland: Southland and Seamland are far away even if a source returned them.
    let camera = Camera(
      center: Coordinate(latitude: 20, longitude: -30), zoom: 4, size: PixelSize(width: 400, height: 300))
    let all = SyntheticBasemap.world
    struct Everything: BasemapSource {
      let features: [BasemapFeature]
      var attribution: String { "" }
      func features(_ kind: BasemapKind, band: Int, from minimum: WorldPoint, to maximum: WorldPoint)
        -> [BasemapFeature]
      {
        features.filter { $0.kind == kind }
      }
    }
    let drawn = try layer(camera, source: Everything(features: all))
    // Westland's pieces that meet the view (two columns of the continent, both rows... only those in view).
    let clip = PixelRect(x: 0, y: 0, width: 400, height: 300).insetBy(
      dx: -VectorBasemapLayer.clipMargin, dy: -VectorBasemapLayer.clipMargin)
    for ring in drawn.land + drawn.lakes {
      for point in ring { XCTAssertTrue(clip.contains(point), "\(point) is clipped to the view") }
    }
    for line in drawn.coastlines + drawn.countryBorders + drawn.stateBorders {
      for point in line { XCTAssertTrue(clip.contains(point), "\(point) is clipped to the view") }
    }
    XCTAssertLessThanOrEqual(drawn.land.count, 4)
    XCTAssertFalse(drawn.land.isEmpty)
  }

  // MARK: What the pixels show

  func testLandLakesHolesAndSea() throws {
    let (result, image) = try render(
      request(center: Coordinate(latitude: 5, longitude: 0), zoom: 2.5, width: 800, height: 600))
    let camera = result.layout.camera
    func check(_ latitude: Double, _ longitude: Double, _ color: Color, _ what: String) {
      let found = pixel(image, at: Coordinate(latitude: latitude, longitude: longitude), camera)
      XCTAssertLessThanOrEqual(found.distance(to: color), 1, "\(what) at \(latitude), \(longitude): \(found)")
    }
    check(-20, -45, palette.land, "Westland")
    check(-35, 45, palette.land, "Eastland")
    check(-8, -30, palette.lake, "the lake")
    check(27, 37, palette.water, "the inland sea (a hole in the land)")
    check(0, -75, palette.water, "the sea")
    check(-45, 0, palette.water, "the sea")
  }

  func testTheCutEdgesOfLandPiecesNeverShow() throws {
    // The continent is cut at 20° W, 20° E and 5° N; at a fractional zoom the cuts fall inside pixels.
    for zoom in [2.37, 3.61, 4.18] {
      for (latitude, longitude) in [(5.0, -20.0), (5.0, 20.0), (-20.0, -20.0), (-20.0, 20.0)] {
        let center = Coordinate(latitude: latitude + 0.013, longitude: longitude + 0.017)
        let (result, image) = try render(
          request(center: center, zoom: zoom, width: 200, height: 200, source: landOnly))
        let camera = result.layout.camera
        let cut = camera.pixel(for: Coordinate(latitude: latitude, longitude: longitude))
        // Along the vertical and the horizontal cut through that point.
        for offset in stride(from: -30, through: 30, by: 2) {
          let column = RGBA(image, Int(cut.x), Int(cut.y) + offset)
          let row = RGBA(image, Int(cut.x) + offset, Int(cut.y))
          XCTAssertLessThanOrEqual(
            column.distance(to: palette.land), 1,
            "zoom \(zoom), cut at \(latitude), \(longitude), +\(offset): \(column)")
          XCTAssertLessThanOrEqual(
            row.distance(to: palette.land), 1,
            "zoom \(zoom), cut at \(latitude), \(longitude), +\(offset): \(row)")
        }
      }
    }
  }

  func testAnIslandAcrossTheAntimeridianIsDrawnWithoutASeam() throws {
    // Seamland runs from 176° E to 176° W, stored as two halves meeting at 180°: drawn from queries on
    // both sides of the world's edge, shifted back, they must meet without a line, from either side.
    for longitude in [179.99, -179.993, 180] {
      for zoom in [5.3, 6.77] {
        let (result, image) = try render(
          request(center: Coordinate(latitude: -16.5, longitude: longitude), zoom: zoom, source: landOnly))
        let camera = result.layout.camera
        let seam = camera.pixel(for: WorldPoint(x: 1, y: 0.5))
        let top = camera.pixel(for: Coordinate(latitude: -12, longitude: 180)).y
        let bottom = camera.pixel(for: Coordinate(latitude: -20, longitude: 180)).y
        XCTAssertGreaterThan(bottom - top, 60)
        for y in Int(top) + 3...Int(bottom) - 3 where y >= 0 && y < image.height {
          for x in [
            Int(seam.x.rounded(.down)) - 1, Int(seam.x.rounded(.down)), Int(seam.x.rounded(.down)) + 1,
          ] {
            let found = RGBA(image, x, y)
            XCTAssertLessThanOrEqual(
              found.distance(to: palette.land), 1,
              "centre \(longitude), zoom \(zoom): (\(x), \(y)) is \(found)")
          }
        }
        // And the island's ends are there on both sides.
        let west = camera.pixel(for: Coordinate(latitude: -16, longitude: 177))
        let east = camera.pixel(for: Coordinate(latitude: -16, longitude: -177))
        if west.x >= 0 {
          XCTAssertLessThanOrEqual(RGBA(image, Int(west.x), Int(west.y)).distance(to: palette.land), 1)
        }
        if east.x < 400 {
          XCTAssertLessThanOrEqual(RGBA(image, Int(east.x), Int(east.y)).distance(to: palette.land), 1)
        }
      }
    }
  }

  func testAViewWiderThanTheWorldRepeatsIt() throws {
    let (result, image) = try render(
      request(
        center: Coordinate(latitude: 0, longitude: 0), zoom: 0, width: 1000, height: 256, source: landOnly))
    // 256 points per world: the continent's middle (0°, -10°) appears at x = 500 + k·256.
    let y = Int(result.layout.camera.pixel(for: Coordinate(latitude: -10, longitude: 0)).y)
    for copy in -1...1 {
      let x = 500 + copy * 256
      XCTAssertLessThanOrEqual(RGBA(image, x + 3, y).distance(to: palette.land), 1, "copy \(copy)")
    }
    let labelled = try Snapshotter.render(
      request(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, width: 1000, height: 256))
    // The land repeats, its name does not: once, in the copy nearest the middle where it fits.
    XCTAssertEqual(labelled.labels.filter { $0.text == "WESTLAND" }.count, 1, "\(labelled.labels)")
  }

  // MARK: Labels

  func testLabelsNeverCoverEachOtherTheOverlaysOrTheAttribution() throws {
    var count = 0
    for seed in UInt64(1)...12 {
      var generator = SeededGenerator(seed: seed)
      let places = (0..<generator.int(in: 1...12)).map { index in
        RenderKit.place(
          "p\(index)", generator.double(in: -35..<45), generator.double(in: -55..<55),
          title: ["Café", "Old Harbour Museum", "X", "A rather long name of a place"][index % 4])
      }
      let user =
        generator.bool()
        ? UserPosition(
          coordinate: Coordinate(
            latitude: generator.double(in: -30..<40), longitude: generator.double(in: -50..<50)))
        : nil
      var request = RenderKit.request(
        places, user: user, width: 640, height: 480, scale: generator.bool() ? 2 : 1)
      request.basemap = SyntheticBasemap()
      request.zoomSnapping = .fractional
      let result = try Snapshotter.render(request)
      let layout = result.layout
      let scale = layout.scale
      var overlays = layout.annotations.flatMap { [$0.pin] + ($0.callout.map { [$0] } ?? []) }
      if let user = layout.user {
        let extent = UserDotLayer(style: Style.standard.userDot).extent.scaled(by: scale)
        overlays.append(extent.offsetBy(dx: user.point.x, dy: user.point.y))
      }
      let plate = try XCTUnwrap(
        RenderKit.attributionPlate(SyntheticBasemap().attribution, imageSize: request.size)
      )
      .scaled(by: scale)
      overlays.append(plate)
      let image = PixelRect(x: 0, y: 0, width: Double(layout.width), height: Double(layout.height))
      count += result.labels.count
      for (index, label) in result.labels.enumerated() {
        let parts = [label.rect] + (label.dot.map { [$0] } ?? [])
        for part in parts {
          XCTAssertTrue(image.contains(part), "seed \(seed): \(label.text) leaves the image")
          for overlay in overlays {
            XCTAssertFalse(part.intersects(overlay), "seed \(seed): \(label.text) \(part) covers \(overlay)")
          }
          for other in result.labels[(index + 1)...] {
            for otherPart in [other.rect] + (other.dot.map { [$0] } ?? []) {
              XCTAssertFalse(part.intersects(otherPart), "seed \(seed): \(label.text) overlaps \(other.text)")
            }
          }
        }
      }
    }
    XCTAssertGreaterThan(count, 30, "labels drawn over all the maps")
  }

  func testTheMoreImportantCityKeepsItsName() throws {
    // Two cities close together at a zoom where both names cannot fit: the larger one is named.
    func world(_ names: [(String, Double)]) -> SyntheticBasemap {
      SyntheticBasemap(
        features: SyntheticBasemap.pieces(west: -10, south: -10, east: 10, north: 10, columns: 1, rows: 1)
          + names.enumerated().map { index, entry in
            BasemapFeature(
              kind: .cityLabel, name: entry.0, rank: entry.1,
              parts: [[SyntheticBasemap.world(Double(index) * 0.3, Double(index) * 0.2)]])
          }, pointBands: [:])
    }
    for names in [
      [("Greater Town", 900_000.0), ("Lesser Town", 20_000.0)],
      [("Lesser Town", 20_000), ("Greater Town", 900_000)],
    ] {
      let result = try Snapshotter.render(
        request(center: Coordinate(latitude: 0, longitude: 0), zoom: 4, source: world(names)))
      XCTAssertEqual(result.labels.map(\.text), ["Greater Town"])
      XCTAssertNotNil(result.labels.first?.dot)
    }
  }

  func testLabelsAreSizedInPointsSoEveryScaleShowsTheSameOnes() throws {
    let one = try Snapshotter.render(
      request(center: Coordinate(latitude: 5, longitude: 0), zoom: 2.5, width: 600, height: 400))
    let two = try Snapshotter.render(
      request(center: Coordinate(latitude: 5, longitude: 0), zoom: 2.5, width: 600, height: 400, scale: 2))
    XCTAssertEqual(one.labels.map(\.text), two.labels.map(\.text))
    XCTAssertFalse(one.labels.isEmpty)
    for (a, b) in zip(one.labels, two.labels) {
      XCTAssertEqual(a.rect.scaled(by: 2), b.rect)
    }
  }

  func testCountryNamesAreUpperCaseAndCitiesLoseTheirDotAtCityZooms() throws {
    let wide = try Snapshotter.render(
      request(center: Coordinate(latitude: 5, longitude: 0), zoom: 2.5, width: 800, height: 600))
    XCTAssertTrue(wide.labels.contains { $0.kind == .country && $0.text == "WESTLAND" }, "\(wide.labels)")
    XCTAssertTrue(wide.labels.filter { $0.kind == .city }.allSatisfy { $0.dot != nil })
    let close = try Snapshotter.render(
      request(center: Coordinate(latitude: 5.01, longitude: -20.01), zoom: 12))
    XCTAssertEqual(close.labels.map(\.text), ["Capitol"])
    XCTAssertNil(close.labels.first?.dot)
  }

  func testLongCountryNamesTakeTwoBalancedLines() {
    XCTAssertEqual(BasemapLabels.lines(of: "FRANCE"), ["FRANCE"])
    XCTAssertEqual(BasemapLabels.lines(of: "UNITED STATES OF AMERICA"), ["UNITED STATES", "OF AMERICA"])
    XCTAssertEqual(BasemapLabels.lines(of: "CENTRAL AFRICAN REP."), ["CENTRAL", "AFRICAN REP."])
    XCTAssertEqual(BasemapLabels.lines(of: "KYRGYZSTANIANLAND"), ["KYRGYZSTANIANLAND"])
  }

  // MARK: The render around it

  func testTheLayoutNamesTheBuiltinSourceAndTheAttributionIsTheSources() throws {
    // A place at sea, so that the sea is all around the attribution.
    let places = [RenderKit.place("a", 10, -75)]
    var builtin = request(places, center: Coordinate(latitude: 10, longitude: -75), zoom: 4)
    builtin.center = nil
    builtin.zoom = nil
    let (result, image) = try render(builtin)
    XCTAssertEqual(
      result.layout.tiles,
      MapLayout.TileSummary(source: "builtin", zoom: nil, needed: 0, drawn: 0, missing: 0))
    XCTAssertTrue(result.layout.json.contains(#""source": "builtin""#), result.layout.json)
    // The attribution plate in the corner carries the source's text: the same map with the style's own,
    // shorter attribution has a narrower plate.
    let plate = try XCTUnwrap(
      RenderKit.attributionPlate("Synthetic Earth · Test Names", imageSize: builtin.size))
    let insidePlate = RGBA(image, Int(plate.minX) + 2, Int(plate.midY))
    XCTAssertGreaterThan(insidePlate.luminance, 225, "\(insidePlate)")
    let left = RGBA(image, Int(plate.minX) - 3, Int(plate.midY))
    XCTAssertLessThan(left.luminance, 225, "the sea beside the plate: \(left)")
    var styled = builtin
    styled.style.basemap.attribution = "S"
    let (_, styledImage) = try render(styled)
    XCTAssertLessThan(RGBA(styledImage, Int(plate.minX) + 2, Int(plate.midY)).luminance, 225)
  }

  func testRasterTilesWinOverTheBuiltinBasemap() throws {
    var both = request(
      [RenderKit.place("paris", 48.8566, 2.3522)], center: Coordinate(latitude: 48.8566, longitude: 2.3522),
      zoom: 4)
    both.tiles = try RenderKit.fixtureTiles()
    let result = try Snapshotter.render(both)
    XCTAssertEqual(result.layout.tiles.source, RenderKit.fixtureTilesPath)
    XCTAssertEqual(result.labels, [])
  }

  func testFittingDoesNotDependOnTheBasemapAndGoesToZoom19() throws {
    let places = [RenderKit.place("a", 37.33490, -122.00900), RenderKit.place("b", 37.33492, -122.00902)]
    var plain = RenderKit.request(places, width: 400, height: 300)
    plain.showCallouts = false
    var builtin = plain
    builtin.basemap = SyntheticBasemap()
    let withBasemap = try Snapshotter.render(builtin).layout
    let without = try Snapshotter.render(plain).layout
    XCTAssertEqual(withBasemap.camera, without.camera)
    XCTAssertEqual(withBasemap.camera.zoom, 19)
    XCTAssertEqual(withBasemap.annotations, without.annotations)
  }

  func testSVGAndPDFStayVector() throws {
    var svgRequest = request(center: Coordinate(latitude: 5, longitude: 0), zoom: 2.5)
    svgRequest.format = .svg
    let svg = String(decoding: try Snapshotter.render(svgRequest).data, as: UTF8.self)
    XCTAssertFalse(svg.contains("<image"), "no raster image in the SVG")
    XCTAssertGreaterThan(svg.components(separatedBy: "<path").count - 1, 10)
    // The land colour, as a fill.
    XCTAssertTrue(
      svg.contains("rgb(97%,96%,93%)") || svg.contains("rgb(96.862745%,96.078431%,92.941176%)"),
      String(svg.prefix(3000)))
    svgRequest.format = .pdf
    let pdf = String(decoding: try Snapshotter.render(svgRequest).data, as: UTF8.self)
    XCTAssertFalse(pdf.contains("/Subtype /Image"))
  }

  func testAnUnreadableSourceIsATileSourceError() {
    struct Broken: BasemapSource {
      struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }
      var attribution: String { "x" }
      func features(_ kind: BasemapKind, band: Int, from minimum: WorldPoint, to maximum: WorldPoint) throws
        -> [BasemapFeature]
      {
        throw Failure()
      }
    }
    XCTAssertThrowsError(
      try Snapshotter.render(
        request(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, source: Broken()))
    ) {
      XCTAssertEqual($0 as? RenderError, .tileSource("cannot read the built-in basemap: disk on fire"))
    }
  }

  // MARK: Goldens

  func testGoldenSyntheticWorld() throws {
    let places = [
      RenderKit.place("harbour-museum", -28, -50, title: "Harbour Museum", subtitle: "Museum"),
      RenderKit.place("east-market", 2, 50, title: "Eastport Market", subtitle: "Market"),
      RenderKit.place("capitol-hill", 8, -22, title: "Capitol Hill", subtitle: "Park"),
    ]
    var golden = RenderKit.request(places, width: 640, height: 420)
    golden.basemap = SyntheticBasemap()
    let result = try Snapshotter.render(golden)
    GoldenImage.assertMatches(Data(result.data), named: "builtin-synthetic")
    golden.style = try Style.load(contentsOf: RenderKit.root.appendingPathComponent("Styles/dark.json"))
    golden.scale = 2
    GoldenImage.assertMatches(Data(try Snapshotter.render(golden).data), named: "builtin-synthetic-dark")
  }

  func testGoldenAcrossTheAntimeridian() throws {
    let places = [
      RenderKit.place("seaton", -15.2, 178.8, title: "Seaton Pier", subtitle: "Landmark"),
      RenderKit.place("kelp", -17.4, -177.3, title: "Kelp Beach", subtitle: "Beach"),
    ]
    var golden = RenderKit.request(
      places, user: UserPosition(coordinate: Coordinate(latitude: -18.5, longitude: 179.6)), width: 480,
      height: 320)
    golden.basemap = SyntheticBasemap()
    GoldenImage.assertMatches(
      Data(try Snapshotter.render(golden).data), named: "builtin-synthetic-antimeridian")
  }
}

/// An in-memory built-in basemap for tests: a small made-up world.
///
/// Two continents, each cut into grid pieces as the real data is (their shared edges must never show), one
/// with an inland sea (a hole, wound the other way) and a lake; an island across the 180° meridian stored
/// as two halves; coastlines, borders, country names and cities.
final class SyntheticBasemap: BasemapSource, @unchecked Sendable {
  let attribution: String
  /// Every query, for tests that check what was asked (one thread only).
  private(set) var queries: [(kind: BasemapKind, band: Int, minimum: WorldPoint, maximum: WorldPoint)] = []
  private let features: [BasemapFeature]
  /// The band from which each point feature is returned, by name.
  private let pointBands: [String: Int]

  init(
    features: [BasemapFeature] = SyntheticBasemap.world, pointBands: [String: Int] = SyntheticBasemap.bands,
    attribution: String = "Synthetic Earth · Test Names"
  ) {
    self.features = features
    self.pointBands = pointBands
    self.attribution = attribution
  }

  func features(_ kind: BasemapKind, band: Int, from minimum: WorldPoint, to maximum: WorldPoint) throws
    -> [BasemapFeature]
  {
    queries.append((kind, band, minimum, maximum))
    return features.filter { feature in
      guard feature.kind == kind else { return false }
      if kind.isPoint, let name = feature.name, (pointBands[name] ?? 0) > band { return false }
      let points = feature.parts.joined()
      guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
        let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
      else { return false }
      return minX <= maximum.x && maxX >= minimum.x && minY <= maximum.y && maxY >= minimum.y
    }
  }

  // MARK: The made-up world

  static func world(_ longitude: Double, _ latitude: Double) -> WorldPoint {
    WebMercator.project(Coordinate(latitude: latitude, longitude: longitude))
  }

  /// A rectangle as a ring, clockwise on screen (y grows down), or anticlockwise for a hole.
  static func box(west: Double, south: Double, east: Double, north: Double, hole: Bool = false)
    -> [WorldPoint]
  {
    let ring = [world(west, north), world(east, north), world(east, south), world(west, south)]
    return hole ? ring.reversed() : ring
  }

  /// A rectangle of land cut into `columns` × `rows` grid pieces, the way the data stores big polygons.
  static func pieces(west: Double, south: Double, east: Double, north: Double, columns: Int, rows: Int)
    -> [BasemapFeature]
  {
    var result: [BasemapFeature] = []
    for column in 0..<columns {
      for row in 0..<rows {
        let w = west + (east - west) * Double(column) / Double(columns)
        let e = west + (east - west) * Double(column + 1) / Double(columns)
        let s = south + (north - south) * Double(row) / Double(rows)
        let n = south + (north - south) * Double(row + 1) / Double(rows)
        result.append(BasemapFeature(kind: .land, parts: [box(west: w, south: s, east: e, north: n)]))
      }
    }
    return result
  }

  static func outline(west: Double, south: Double, east: Double, north: Double) -> [WorldPoint] {
    let ring = box(west: west, south: south, east: east, north: north)
    return ring + [ring[0]]
  }

  static let world: [BasemapFeature] = {
    var features: [BasemapFeature] = []
    // Westland and Eastland: one continent from 60° W to 60° E, with an inland sea in Eastland.
    var continent = pieces(west: -60, south: -40, east: 60, north: 50, columns: 3, rows: 2)
    continent[5].parts.append(box(west: 30, south: 20, east: 45, north: 35, hole: true))
    features += continent
    features.append(
      BasemapFeature(kind: .lake, parts: [box(west: -35, south: -12, east: -25, north: -4)]))
    features.append(
      BasemapFeature(
        kind: .coastline,
        parts: [
          outline(west: -60, south: -40, east: 60, north: 50),
          outline(west: 30, south: 20, east: 45, north: 35),
        ]))
    features.append(BasemapFeature(kind: .countryBorder, parts: [[world(0, -40), world(0, 50)]]))
    features.append(
      BasemapFeature(
        kind: .stateBorder, parts: [[world(-60, 10), world(0, 10)], [world(0, -10), world(60, -10)]]))
    // Seamland: an island from 176° E to 176° W, stored as two halves that meet at 180°.
    features += pieces(west: 176, south: -20, east: 180, north: -12, columns: 1, rows: 1)
    features += pieces(west: -180, south: -20, east: -176, north: -12, columns: 1, rows: 1)
    features.append(
      BasemapFeature(
        kind: .coastline,
        parts: [
          [world(180, -20), world(176, -20), world(176, -12), world(180, -12)],
          [world(-180, -12), world(-176, -12), world(-176, -20), world(-180, -20)],
        ]))
    // Southland: far away, to show a view wider than the world repeating it.
    features += pieces(west: 100, south: -45, east: 150, north: -10, columns: 2, rows: 2)
    features.append(
      BasemapFeature(kind: .coastline, parts: [outline(west: 100, south: -45, east: 150, north: -10)]))

    let countries: [(String, Double, Double, Double)] = [
      ("Westland", -30, 25, 5), ("Eastland", 30, 5, 4), ("Southland", 125, -28, 3),
      ("Seamland", -178.5, -16, 1),
    ]
    for (name, longitude, latitude, rank) in countries {
      features.append(
        BasemapFeature(kind: .countryLabel, name: name, rank: rank, parts: [[world(longitude, latitude)]]))
    }
    for (name, longitude, latitude, population) in cities {
      features.append(
        BasemapFeature(kind: .cityLabel, name: name, rank: population, parts: [[world(longitude, latitude)]]))
    }
    return features
  }()

  static let cities: [(String, Double, Double, Double)] = [
    ("Capitol", -20, 5, 8_000_000), ("Harbour", -55, -30, 2_500_000), ("Millbrook", -40, 40, 900_000),
    ("Lakeside", -30, -3, 400_000), ("Eastport", 55, 0, 3_000_000), ("Duneville", 15, -30, 150_000),
    ("Rivermouth", 10, 30, 1_200_000), ("Ashford", 20, 10, 60_000), ("Ashby", 22, 8, 50_000),
    ("Seaton", 179, -15, 80_000), ("Kelp", -177, -17, 20_000), ("Far Point", 140, -20, 500_000),
  ]

  /// Small places appear only from band 2 (zoom 5), as in the real data.
  static let bands: [String: Int] = ["Ashford": 2, "Ashby": 2, "Kelp": 1, "Duneville": 1]
}
