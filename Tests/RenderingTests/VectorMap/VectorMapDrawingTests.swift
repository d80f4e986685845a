import Foundation
import ImageCodecs
import MapMath
import MapStyle
import Tiles
import XCTest

@testable import Rendering

/// What the vector map draws, read back as pixels from maps of synthetic tiles: zooms, tile edges,
/// over-zoom, scale, casings, dashes, feature ids, broken tiles.
final class VectorMapDrawingTests: XCTestCase {
  private typealias Feature = SyntheticTile.Feature

  private let tile = SyntheticMaps.tile
  private var east: TileID { TileID(z: tile.z, x: tile.x + 1, y: tile.y)! }

  private func supply(_ tiles: [TileID: [(String, [Feature])]]) -> MemoryTileSupply {
    var supply = MemoryTileSupply()
    for (id, layers) in tiles { supply.tiles[id] = SyntheticTile(layers: layers).encoded() }
    return supply
  }

  private func line(_ points: [(Int32, Int32)], id: UInt64? = nil) -> Feature {
    Feature(kind: .line, id: id, attributes: [("class", "road")], parts: [points])
  }

  private func square(_ minX: Int32, _ minY: Int32, _ maxX: Int32, _ maxY: Int32) -> Feature {
    Feature(
      kind: .polygon, attributes: [("class", "park")],
      parts: [[(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]])
  }

  func testZoomsFollowTheStyleConvention() throws {
    let center = Coordinate(latitude: 60.17, longitude: 24.94)
    func tiling(_ zoom: Double, _ range: ClosedRange<Int>) throws -> VectorMapTiling {
      try VectorMapTiling(
        camera: Camera(center: center, zoom: zoom, size: PixelSize(width: 1200, height: 800)),
        zoomRange: range)
    }
    let example = try tiling(16.37, 0...14)
    XCTAssertEqual(example.styleZoom, 15.37, accuracy: 1e-9)
    XCTAssertEqual(example.dataZoom, 14)
    XCTAssertEqual(try tiling(12.5, 0...14).dataZoom, 11, "vector tiles are made for 512-pixel display")
    XCTAssertEqual(try tiling(13, 0...14).dataZoom, 12)
    let deep = try tiling(20, 0...14)
    XCTAssertEqual(deep.dataZoom, 14, "past the data's top zoom the top tiles are scaled up")
    XCTAssertEqual(deep.placements.first?.rect.width ?? 0, 256 * 64, accuracy: 1e-6)
    XCTAssertEqual(try tiling(4, 5...14).dataZoom, 5, "below the data's zooms its bottom tiles are used")
    XCTAssertThrowsError(try tiling(3, 8...14)) { error in
      guard case .tooManyTiles(let needed, 8, 256)? = error as? VectorMapError else {
        return XCTFail("\(error)")
      }
      XCTAssertGreaterThan(needed, 256)
    }
  }

  func testFeaturesWithEqualTagsDifferWhenTheFilterReadsIDs() throws {
    let supply = supply([
      tile: [("roads", [line([(0, 1024), (4096, 1024)], id: 1), line([(0, 3072), (4096, 3072)], id: 2)])]
    ])
    let style = try SyntheticMaps.style(
      """
      {"id": "second", "type": "line", "source": "s", "source-layer": "roads", "filter": ["==", ["id"], 2],
       "paint": {"line-color": "#ff0000", "line-width": 4}}
      """)
    let image = try SyntheticMaps.pixels(
      SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera()).data)
    XCTAssertEqual(image.pixel(100, 128), [255, 255, 255, 255], "feature 1 is filtered out")
    XCTAssertEqual(image.pixel(100, 384), [255, 0, 0, 255], "feature 2 passes")
  }

  func testABrokenTileIsAPlaceholderAndAWarning() throws {
    var supply = supply([tile: [("parks", [square(-64, -64, 4160, 4160)])]])
    supply.failing = [east]
    let south = TileID(z: tile.z, x: tile.x, y: tile.y + 1)!
    supply.tiles[south] = [0x1A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]  // a layer claiming 4 GB
    let (image, layer) = try renderParks(supply)
    XCTAssertEqual(image.pixel(100, 100), [0, 0, 255, 255], "the good tile draws")
    XCTAssertEqual(image.pixel(400, 100), [220, 220, 217, 255], "the unreadable tile is a grey square")
    XCTAssertEqual(image.pixel(100, 400), [220, 220, 217, 255], "the undecodable tile too")
    XCTAssertEqual(image.pixel(400, 400), [255, 255, 255, 255], "a tile the source lacks is empty")
    XCTAssertEqual(layer.warnings.count, 2)
    XCTAssertTrue(
      layer.warnings.contains {
        $0.description.hasPrefix("vector tile 14/9327/4742: the test source cannot read")
      })
    XCTAssertTrue(layer.warnings.allSatisfy { $0.description.hasSuffix("drawn as a placeholder") })
  }

  /// The parks of `supply` in blue over four tiles, and the vector layer that drew them.
  private func renderParks(_ supply: MemoryTileSupply) throws -> (RasterImage, VectorMapLayer) {
    let style = try SyntheticMaps.style(
      """
      {"id": "parks", "type": "fill", "source": "s", "source-layer": "parks", "paint": {"fill-color": "#0000ff"}}
      """)
    let (png, layer) = try SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera(across: (1, 1)))
    return (try SyntheticMaps.pixels(png), layer)
  }

  /// A layer whose features break only where they are decoded (a tag naming a key the layer lacks),
  /// after the tile's layers were found: each layer is decoded on its own (`VectorTileLayerIndex`),
  /// and the tile must still become a placeholder naming the error.
  func testATileWhoseLayerBreaksWhileDecodingIsAPlaceholderAndAWarning() throws {
    var supply = supply([tile: [("parks", [square(-64, -64, 4160, 4160)])]])
    let geometry: [UInt8] = [9, 0, 0, 26, 0x80, 0x40, 0, 0, 0x80, 0x40, 0xFF, 0x3F, 0, 15]
    let feature: [UInt8] = [0x12, 2, 5, 0, 0x18, 3, 0x22, UInt8(geometry.count)] + geometry
    let layer: [UInt8] =
      [0x78, 2, 0x0A, 5] + Array("parks".utf8) + [0x12, UInt8(feature.count)] + feature + [0x28, 0x80, 0x20]
    supply.tiles[east] = [0x1A, UInt8(layer.count)] + layer
    let (image, drawn) = try renderParks(supply)
    XCTAssertEqual(image.pixel(100, 100), [0, 0, 255, 255], "the good tile draws")
    XCTAssertEqual(image.pixel(400, 100), [220, 220, 217, 255], "the broken layer's tile is a grey square")
    XCTAssertEqual(
      drawn.warnings.map(\.description).filter {
        $0.hasPrefix(
          "vector tile 14/9327/4742: vector tile damaged at byte 15: tag index 5 but the layer has 0")
      }.count, 1)
    XCTAssertTrue(drawn.warnings.allSatisfy { $0.description.hasSuffix("drawn as a placeholder") })
  }

  func testTranslucentFillsAndLinesShowNoSeamAtTileEdges() throws {
    // Each tile carries its neighbour's edge in its buffer, as real tiles do.
    let roads = [line([(-256, 2048), (4352, 2048)])]
    let supply = supply([
      tile: [("parks", [square(-128, -128, 4224, 4224)]), ("roads", roads)],
      east: [("parks", [square(-128, -128, 4224, 4224)]), ("roads", roads)],
    ])
    let style = try SyntheticMaps.style(
      """
      {"id": "parks", "type": "fill", "source": "s", "source-layer": "parks",
       "paint": {"fill-color": "#ff0000", "fill-opacity": 0.5, "fill-outline-color": "#000000"}},
      {"id": "roads", "type": "line", "source": "s", "source-layer": "roads",
       "layout": {"line-cap": "round"}, "paint": {"line-color": "#0000ff", "line-opacity": 0.5, "line-width": 10}}
      """)
    // The seam between the tiles is the image's middle column.
    let image = try SyntheticMaps.pixels(
      SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera(across: (1, 0.5))).data)
    let fill = image.pixel(100, 20)
    XCTAssertEqual(fill, [255, 127, 127, 255])
    // The squares' outlines at the edges of the tiles' buffers lie 16 pixels inside the other tile.
    for x in 236...276 {
      XCTAssertEqual(image.pixel(x, 20), fill, "fill at column \(x)")
      XCTAssertEqual(image.pixel(x, 256), image.pixel(100, 256), "line at column \(x)")
    }
  }

  func testOverZoomedLinesStayCrispAndKeepTheirWidth() throws {
    let supply = supply([tile: [("roads", [line([(2048, -100), (2048, 4196)])])]])
    let style = try SyntheticMaps.style(
      """
      {"id": "roads", "type": "line", "source": "s", "source-layer": "roads",
       "paint": {"line-color": "#000000", "line-width": 4}}
      """)
    for (zoom, scale) in [(20.0, 1.0), (20, 2), (15, 1)] {
      let camera = SyntheticMaps.camera(zoom: zoom, size: 64, scale: scale)
      let image = try SyntheticMaps.pixels(SyntheticMaps.render(style, supply, camera: camera).data)
      let middle = Int(32 * scale)
      let half = Int(2 * scale)
      let row = Int(10 * scale)
      XCTAssertEqual(image.pixel(middle - half, row), [0, 0, 0, 255], "zoom \(zoom) scale \(scale)")
      XCTAssertEqual(image.pixel(middle + half - 1, row), [0, 0, 0, 255], "zoom \(zoom) scale \(scale)")
      XCTAssertEqual(
        image.pixel(middle - half - 1, row), [255, 255, 255, 255], "zoom \(zoom) scale \(scale)")
      XCTAssertEqual(image.pixel(middle + half, row), [255, 255, 255, 255], "zoom \(zoom) scale \(scale)")
    }
  }

  func testCasingsAreTwoLinesAroundAGap() throws {
    let supply = supply([tile: [("roads", [line([(2048, -100), (2048, 4196)])])]])
    let style = try SyntheticMaps.style(
      """
      {"id": "casing", "type": "line", "source": "s", "source-layer": "roads",
       "paint": {"line-color": "#000000", "line-width": 2, "line-gap-width": 6}}
      """)
    let image = try SyntheticMaps.pixels(
      SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera()).data)
    let row = 100
    XCTAssertEqual(image.pixel(256, row), [255, 255, 255, 255], "the gap")
    XCTAssertEqual(image.pixel(253, row), [255, 255, 255, 255], "the gap's edge")
    for x in [251, 252, 259, 260] { XCTAssertEqual(image.pixel(x, row), [0, 0, 0, 255], "column \(x)") }
    XCTAssertEqual(image.pixel(249, row), [255, 255, 255, 255], "outside")
  }

  /// A casing's butt caps end it square at the line's ends (through the coverage mask in images), where
  /// round caps reach half a width further.
  func testButtCapsEndSquareAndRoundCapsReachPast() throws {
    let supply = supply([tile: [("roads", [line([(2048, 1024), (2048, 3072)])])]])
    for cap in ["butt", "round"] {
      let style = try SyntheticMaps.style(
        """
        {"id": "casing", "type": "line", "source": "s", "source-layer": "roads",
         "layout": {"line-cap": "\(cap)", "line-join": "round"},
         "paint": {"line-color": "#000000", "line-width": 8}}
        """)
      let image = try SyntheticMaps.pixels(
        SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera()).data)
      // The line runs down column 256 from row 128 to row 384, 8 pixels wide.
      let black: [UInt8] = [0, 0, 0, 255]
      let white: [UInt8] = [255, 255, 255, 255]
      XCTAssertEqual(image.pixel(256, 200), black, cap)
      XCTAssertEqual(image.pixel(253, 128), black, cap)
      XCTAssertEqual(image.pixel(253, 383), black, cap)
      XCTAssertEqual(image.pixel(256, 126), cap == "butt" ? white : black, cap)
      XCTAssertEqual(image.pixel(256, 385), cap == "butt" ? white : black, cap)
    }
  }

  func testDashesAreMeasuredInLineWidths() throws {
    let supply = supply([tile: [("roads", [line([(0, 2048), (4096, 2048)])])]])
    let style = try SyntheticMaps.style(
      """
      {"id": "dashed", "type": "line", "source": "s", "source-layer": "roads",
       "paint": {"line-color": "#000000", "line-width": 4, "line-dasharray": [2, 1]}}
      """)
    let image = try SyntheticMaps.pixels(
      SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera()).data)
    // From the line's start at x = 0: 8 pixels on, 4 off, and so on.
    let row = (0..<48).map { image.pixel($0, 256)[0] == 0 }
    XCTAssertEqual(row, (0..<48).map { $0 % 12 < 8 })
  }

  func testFormatsStayVectorAndRepeatByteForByte() throws {
    let style = try VectorMapFixtures.style("light")
    let camera = try VectorMapFixtures.exampleCamera()
    let svg = try VectorMapFixtures.render(style: style, camera: camera, format: .svg).data
    XCTAssertEqual(svg, try VectorMapFixtures.render(style: style, camera: camera, format: .svg).data)
    let text = String(decoding: svg, as: UTF8.self)
    XCTAssertFalse(text.contains("<image"), "no picture embedded in the SVG")
    XCTAssertTrue(text.contains("<path"))
    XCTAssertTrue(text.contains("glyph"), "labels are glyphs, not pictures")
    let pdf = try VectorMapFixtures.render(style: style, camera: camera, format: .pdf).data
    XCTAssertEqual(pdf, try VectorMapFixtures.render(style: style, camera: camera, format: .pdf).data)
    XCTAssertNil(pdf.range(of: Data("/Subtype /Image".utf8)), "no picture embedded in the PDF")
    let png = try VectorMapFixtures.render(style: style, camera: camera).data
    XCTAssertEqual(png, try VectorMapFixtures.render(style: style, camera: camera).data)
  }

  func testLabelsAreReportedInImagePixels() throws {
    let style = try VectorMapFixtures.style("light")
    let one = try VectorMapFixtures.render(style: style, camera: try VectorMapFixtures.exampleCamera()).layer
    let two = try VectorMapFixtures.render(
      style: style, camera: try VectorMapFixtures.exampleCamera(scale: 2)
    )
    .layer
    XCTAssertEqual(one.labels.map(\.text), two.labels.map(\.text), "the same labels at every scale")
    for (a, b) in zip(one.labels, two.labels) {
      XCTAssertEqual(b.rect.x, 2 * a.rect.x, accuracy: 1e-6)
      XCTAssertEqual(b.rect.width, 2 * a.rect.width, accuracy: 1e-6)
      XCTAssertEqual(a.layer, b.layer)
    }
  }

  func testDeepZoomsAndExtremeScalesDrawWithinCairosRange() throws {
    let style = try VectorMapFixtures.style("light")
    let center = Coordinate(latitude: 60.1685, longitude: 24.9450)
    for (zoom, scale) in [(30.0, 1.0), (24, 4), (16, 0.5), (2, 1)] {
      let camera = Camera(center: center, zoom: zoom, size: PixelSize(width: 300, height: 200), scale: scale)
      let (png, layer) = try VectorMapFixtures.render(style: style, camera: camera)
      let image = try SyntheticMaps.pixels(png)
      XCTAssertEqual(image.width, Int(300 * scale), "zoom \(zoom)")
      XCTAssertEqual(layer.warnings, [], "zoom \(zoom)")
    }
  }

  func testHostileObstaclesAreIgnored() throws {
    let style = try VectorMapFixtures.style("light")
    let obstacles = [
      PixelRect(x: .nan, y: 0, width: 10, height: 10), PixelRect(x: 0, y: 0, width: .infinity, height: 5),
      PixelRect(x: -1e300, y: 1e300, width: 1e300, height: 1),
    ]
    let layer = try VectorMapFixtures.render(
      style: style, camera: try VectorMapFixtures.exampleCamera(), obstacles: obstacles
    ).layer
    XCTAssertGreaterThan(layer.labels.count, 20)
  }
}
