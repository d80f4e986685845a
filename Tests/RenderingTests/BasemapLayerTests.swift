import ImageCodecs
import MapMath
import Tiles
import XCTest

@testable import Rendering

/// Opaque tiles drawn 1:1 go straight into the image; the image is the one the mosaic would give, tiles
/// hanging off every edge and missing tiles (placeholders) included.
final class BasemapLayerTests: XCTestCase {
  private func tile(_ id: TileID, opaque: Bool = true) -> RasterImage {
    var image = RasterImage(
      width: 256, height: 256, red: UInt8(id.x * 40 % 256), green: UInt8(id.y * 70 % 256), blue: 90)
    // A diagonal line, so that a tile put one pixel off shows.
    for index in 0..<256 { image.rgba[(index * 256 + index) * 4] = 255 }
    if !opaque { image.rgba[3] = 128 }
    return image
  }

  private func draw(_ layer: BasemapLayer, camera: Camera) throws -> [UInt8] {
    let canvas = try Canvas(format: .png, pixelWidth: 700, pixelHeight: 500, scale: 1)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: 700, height: 500), color: .white)
    layer.draw(on: canvas, camera: camera)
    return [UInt8](try canvas.finish())
  }

  func testDirectTilesAreTheMosaicsPixels() throws {
    // A whole zoom at a centre that puts tile corners at whole pixels inside the image.
    let center = WebMercator.unproject(WorldPoint(x: 1229 / 4096, y: 1638 / 4096))
    let camera = Camera(center: center, zoom: 4, size: PixelSize(width: 700, height: 500))
    let range = camera.tileRange(tileZoom: 4)
    let tiles = range.tiles.sorted()
    // The case the direct copy takes: whole pixels, the range's corner off the image's top-left.
    let corner = camera.pixelRect(for: try XCTUnwrap(range.placements.first))
    XCTAssertEqual(corner.x, corner.x.rounded())
    XCTAssertEqual(corner.y, corner.y.rounded())
    XCTAssertLessThan(corner.x, 0)
    XCTAssertLessThan(corner.y, 0)
    var images: [TileID: RasterImage] = [:]
    for (index, id) in tiles.enumerated() where index != 3 { images[id] = tile(id) }
    var layer = BasemapLayer(range: range, tileSize: 256, images: images, style: Style.standard.basemap)
    let direct = try draw(layer, camera: camera)
    layer.copiesOpaqueTilesDirectly = false
    XCTAssertEqual(direct, try draw(layer, camera: camera))
    // A tile with one translucent pixel takes the mosaic's way, with the same result as it.
    images[tiles[0]] = tile(tiles[0], opaque: false)
    let translucent = BasemapLayer(range: range, tileSize: 256, images: images, style: Style.standard.basemap)
    var throughMosaic = translucent
    throughMosaic.copiesOpaqueTilesDirectly = false
    XCTAssertEqual(try draw(translucent, camera: camera), try draw(throughMosaic, camera: camera))
  }

  func testTilesGoIntoTheImageAsTheyAreDecoded() throws {
    // Zoom 3 with the image's corner at whole pixels: every opaque tile is copied in as it is decoded.
    let center = WebMercator.unproject(WorldPoint(x: 615 / 2048, y: 819 / 2048))
    let camera = Camera(center: center, zoom: 3, size: PixelSize(width: 700, height: 500))
    var request = RenderKit.request([], width: 700, height: 500)
    request.tiles = try RenderKit.fixtureTiles()
    let canvas = try Canvas(format: .png, pixelWidth: 700, pixelHeight: 500, scale: 1)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: 700, height: 500), color: .white)
    var warnings: [RenderWarning] = []
    let basemap = try Basemap.load(
      for: request, camera: camera, overlayClaims: [], measuring: MeasuringContext(), canvas: canvas,
      warnings: &warnings)
    let layer = try XCTUnwrap(basemap.raster)
    let tiles = layer.range.tiles.sorted()
    XCTAssertEqual(layer.images.count, 0, "no decoded tile is kept")
    XCTAssertEqual(layer.drawnTiles, Set(tiles))
    XCTAssertEqual(basemap.summary.drawn, tiles.count)
    XCTAssertEqual(warnings, [])
    layer.draw(on: canvas, camera: camera)
    // The same tiles decoded first and drawn through the mosaic give the same image.
    var reference = BasemapLayer(
      range: layer.range, tileSize: 256,
      images: try TileLoader(source: try RenderKit.fixtureTiles()).load(tiles).images,
      style: request.style.basemap)
    reference.copiesOpaqueTilesDirectly = false
    XCTAssertEqual([UInt8](try canvas.finish()), try draw(reference, camera: camera))
  }
}
