import MapMath
import XCTest

/// The pixel contract of ARCHITECTURE.md §3 and the tiles a camera needs.
final class CameraTests: XCTestCase {
  private let parisCamera = Camera(
    center: Sample.paris, zoom: 13, size: PixelSize(width: 400, height: 300), scale: 2)

  func testPixelMatchesTheDesignFormulaAtScale2() {
    // Expected pixels evaluated in CPython 3.11 with the §3 formula written out:
    // x = W·s/2 + (X(P) − X(C))·256·2^z·s, y = H·s/2 + (Y(P) − Y(C))·256·2^z·s.
    assertPixel(
      parisCamera.pixel(for: Coordinate(latitude: 48.8606, longitude: 2.3376)),
      PixelPoint(x: 229.897_671_110_928_06, y: 229.165_539_865_382_02))
    let fractional = Camera(
      center: Sample.paris, zoom: 13.25, size: PixelSize(width: 400, height: 300), scale: 2)
    assertPixel(
      fractional.pixel(for: Coordinate(latitude: 48.8530, longitude: 2.3499)),
      PixelPoint(x: 368.132_885_648_807_76, y: 375.807_404_733_493_7))
    let farOff = Camera(center: Sample.paris, zoom: 12.5, size: PixelSize(width: 400, height: 300), scale: 2)
    assertPixel(
      farOff.pixel(for: Coordinate(latitude: 48.8584, longitude: 2.2945)),
      PixelPoint(x: -75.355_167_232_730_14, y: 277.461_108_120_976_63))
  }

  func testPixelTakesTheWorldCopyNearestTheCentre() {
    // Fiji to Samoa at zoom 5, scale 2: Apia is drawn east of the centre, not a world away to the west.
    let camera = Camera(
      center: Coordinate(latitude: -17.7134, longitude: 178.065), zoom: 5,
      size: PixelSize(width: 800, height: 600),
      scale: 2)
    assertPixel(
      camera.pixel(for: Sample.apia), PixelPoint(x: 1263.530_666_666_667_5, y: 416.461_986_094_047_46))
    let dateLine = Camera(
      center: Coordinate(latitude: 0, longitude: 179), zoom: 3, size: PixelSize(width: 800, height: 600))
    assertPixel(
      dateLine.pixel(for: Coordinate(latitude: 0, longitude: -179)),
      PixelPoint(x: 411.377_777_777_777_74, y: 300))
  }

  func testCentreIsAtTheImageMiddle() {
    for scale in [1.0, 2, 3] {
      for zoom in [0.0, 3.7, 12, 19] {
        let camera = Camera(
          center: Sample.sydney, zoom: zoom, size: PixelSize(width: 801, height: 333), scale: scale)
        assertPixel(
          camera.pixel(for: Sample.sydney), PixelPoint(x: 801 * scale / 2, y: 333 * scale / 2),
          "scale \(scale) zoom \(zoom)")
        assertCoordinate(
          camera.coordinate(atPixel: PixelPoint(x: 801 * scale / 2, y: 333 * scale / 2)), Sample.sydney)
      }
    }
  }

  func testSizesAtScale() {
    XCTAssertEqual(parisCamera.pixelSize, PixelSize(width: 800, height: 600))
    XCTAssertEqual(parisCamera.worldPixels, 256 * 8192 * 2)
    XCTAssertEqual(
      Camera(center: Sample.paris, zoom: 0.5, size: PixelSize(width: 1, height: 1)).worldPixels,
      256 * 2.0.squareRoot(), accuracy: 1e-12)
  }

  func testOneZoomStepDoublesDistances() {
    let near = Camera(center: Sample.paris, zoom: 11, size: PixelSize(width: 400, height: 300))
    let closer = Camera(center: Sample.paris, zoom: 12, size: PixelSize(width: 400, height: 300))
    let a = near.pixel(for: Sample.honolulu)
    let b = closer.pixel(for: Sample.honolulu)
    XCTAssertEqual(b.x - 200, 2 * (a.x - 200), accuracy: 1e-6)
    XCTAssertEqual(b.y - 150, 2 * (a.y - 150), accuracy: 1e-6)
  }

  func testWorldPointAtPixelInvertsPixel() {
    let point = WebMercator.project(Coordinate(latitude: 48.87, longitude: 2.29))
    let pixel = parisCamera.pixel(for: point)
    let back = parisCamera.worldPoint(atPixel: pixel)
    XCTAssertEqual(back.x, point.x, accuracy: Epsilon.world)
    XCTAssertEqual(back.y, point.y, accuracy: Epsilon.world)
  }

  func testCoordinateAtPixelOutsideTheWorldIsClampedToThePole() {
    let camera = Camera(
      center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: PixelSize(width: 256, height: 1024))
    XCTAssertEqual(
      camera.coordinate(atPixel: PixelPoint(x: 128, y: 0)).latitude, WebMercator.maxLatitude, accuracy: 1e-9)
    XCTAssertEqual(
      camera.coordinate(atPixel: PixelPoint(x: 128, y: 1024)).latitude, -WebMercator.maxLatitude,
      accuracy: 1e-9)
  }

  // MARK: - Bounds

  func testBoundsOfACameraOnOneTileAreThatTilesBounds() throws {
    // A 256×256 camera at zoom 10 centred on tile 10/518/352 shows exactly that tile; its bounds are
    // mercantile.bounds(518, 352, 10).
    let tile = try XCTUnwrap(TileID(z: 10, x: 518, y: 352))
    let centre = WebMercator.unproject(WorldPoint(x: (518 + 0.5) / 1024, y: (352 + 0.5) / 1024))
    let camera = Camera(center: centre, zoom: 10, size: PixelSize(width: 256, height: 256))
    let bounds = camera.bounds
    XCTAssertEqual(bounds.west, 2.109_375, accuracy: Epsilon.degrees)
    XCTAssertEqual(bounds.east, 2.460_937_5, accuracy: Epsilon.degrees)
    XCTAssertEqual(bounds.south, 48.690_960_390_925_5, accuracy: Epsilon.degrees)
    XCTAssertEqual(bounds.north, 48.922_499_263_758_24, accuracy: Epsilon.degrees)
    XCTAssertEqual(camera.tileRange(tileZoom: 10).placements.map(\.tile), [tile])
    // The same view at scale 2 has the same bounds.
    XCTAssertEqual(
      Camera(center: centre, zoom: 10, size: PixelSize(width: 256, height: 256), scale: 2).bounds.west,
      2.109_375, accuracy: Epsilon.degrees)
  }

  func testBoundsAcross180() {
    let camera = Camera(
      center: Coordinate(latitude: 0, longitude: 180), zoom: 2, size: PixelSize(width: 256, height: 256))
    let bounds = camera.bounds
    XCTAssertEqual(bounds.west, 135, accuracy: Epsilon.degrees)
    XCTAssertEqual(bounds.east, -135, accuracy: Epsilon.degrees)
    XCTAssertEqual(bounds.longitudes.width, 90, accuracy: Epsilon.degrees)
    XCTAssertTrue(bounds.contains(Coordinate(latitude: 0, longitude: -170)))
    XCTAssertTrue(bounds.contains(Coordinate(latitude: 0, longitude: 170)))
    XCTAssertFalse(bounds.contains(Coordinate(latitude: 0, longitude: 0)))
  }

  func testBoundsOfAViewWiderThanTheWorld() {
    let camera = Camera(
      center: Coordinate(latitude: 0, longitude: 30), zoom: 0, size: PixelSize(width: 800, height: 600))
    let bounds = camera.bounds
    XCTAssertEqual(bounds.west, -180)
    XCTAssertEqual(bounds.east, 180)
    XCTAssertEqual(bounds.north, WebMercator.maxLatitude, accuracy: 1e-9)
    XCTAssertEqual(bounds.south, -WebMercator.maxLatitude, accuracy: 1e-9)
  }

  // MARK: - Tiles

  func testTileZoomForScalesAndTileSizes() {
    func camera(_ zoom: Double, _ scale: Double) -> Camera {
      Camera(center: Sample.paris, zoom: zoom, size: PixelSize(width: 800, height: 600), scale: scale)
    }
    // 256-px tiles: scale 1 draws zoom z tiles 1:1; scale 2 needs z+1; scale 3 needs z + log2 3 → z+2.
    XCTAssertEqual(camera(10, 1).tileZoom(), 10)
    XCTAssertEqual(camera(10, 2).tileZoom(), 11)
    XCTAssertEqual(camera(10, 3).tileZoom(), 12)
    // 512-px tiles: one zoom less for the same crispness.
    XCTAssertEqual(camera(10, 1).tileZoom(tileSize: 512), 9)
    XCTAssertEqual(camera(10, 2).tileZoom(tileSize: 512), 10)
    XCTAssertEqual(camera(10, 3).tileZoom(tileSize: 512), 11)
    // A fractional zoom rounds up (tiles are drawn shrunk, never enlarged) …
    XCTAssertEqual(camera(10.3, 1).tileZoom(), 11)
    XCTAssertEqual(camera(10.999, 2).tileZoom(), 12)
    // … but arithmetic noise just above a whole zoom does not cost a zoom level.
    XCTAssertEqual(camera(10 + 1e-12, 1).tileZoom(), 10)
    // Kept inside the source's zooms.
    XCTAssertEqual(camera(18, 2).tileZoom(available: 0...14), 14)
    XCTAssertEqual(camera(0, 1).tileZoom(tileSize: 512), 0)
    XCTAssertEqual(camera(2, 1).tileZoom(available: 5...10), 5)
  }

  func testTileRangeOfAWholeZoomCameraOnTileEdges() throws {
    // Centred on the corner shared by four z10 tiles, 512×512 at zoom 10: exactly those four tiles.
    let corner = WebMercator.unproject(WorldPoint(x: 519 / 1024.0, y: 353 / 1024.0))
    let camera = Camera(center: corner, zoom: 10, size: PixelSize(width: 512, height: 512))
    let range = camera.tileRange(tileZoom: 10)
    XCTAssertEqual(range.columns, 518...519)
    XCTAssertEqual(range.rows, 352...353)
    let first = try XCTUnwrap(range.placements.first)
    let rect = camera.pixelRect(for: first)
    XCTAssertEqual(rect.x, 0, accuracy: Epsilon.pixels)
    XCTAssertEqual(rect.y, 0, accuracy: Epsilon.pixels)
    XCTAssertEqual(rect.width, 256, accuracy: Epsilon.pixels)
  }

  func testPixelRectsTileTheImageEdgeToEdge() {
    let cameras = [
      parisCamera,
      Camera(center: Sample.paris, zoom: 12.37, size: PixelSize(width: 801, height: 601), scale: 1),
      Camera(center: Sample.sydney, zoom: 4.5, size: PixelSize(width: 640, height: 480), scale: 3),
      Camera(
        center: Coordinate(latitude: -17, longitude: 179.9), zoom: 6,
        size: PixelSize(width: 800, height: 600), scale: 2),
      Camera(
        center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: PixelSize(width: 1000, height: 256)),
    ]
    for camera in cameras {
      for tileSize in [256, 512] {
        assertTilesCoverImage(camera, tileZoom: camera.tileZoom(tileSize: tileSize), "\(camera) \(tileSize)")
      }
    }
  }
}

/// Checks that the placed tiles of a camera form a gap-free grid that covers the image (where the world is) and
/// that no placed tile lies wholly outside the image.
func assertTilesCoverImage(
  _ camera: Camera, tileZoom: Int, _ message: String, file: StaticString = #filePath, line: UInt = #line
) {
  let range = camera.tileRange(tileZoom: tileZoom)
  let image = PixelRect(x: 0, y: 0, width: camera.pixelSize.width, height: camera.pixelSize.height)
  var rects: [Int: [Int: PixelRect]] = [:]
  for placement in range.placements {
    let rect = camera.pixelRect(for: placement)
    rects[placement.tile.y, default: [:]][placement.column] = rect
    XCTAssertTrue(
      rect.intersects(image), "tile \(placement.tile) is not needed, \(message)", file: file, line: line)
  }
  XCTAssertEqual(rects.count, range.rows.count, message, file: file, line: line)
  for row in range.rows {
    for column in range.columns {
      guard let rect = rects[row]?[column] else {
        XCTFail("missing tile at row \(row) column \(column), \(message)", file: file, line: line)
        continue
      }
      // Each tile starts exactly where its west and north neighbours end.
      if let west = rects[row]?[column - 1] {
        XCTAssertEqual(rect.minX, west.maxX, accuracy: Epsilon.pixels, message, file: file, line: line)
        XCTAssertEqual(rect.minY, west.minY, accuracy: Epsilon.pixels, message, file: file, line: line)
      }
      if let north = rects[row - 1]?[column] {
        XCTAssertEqual(rect.minY, north.maxY, accuracy: Epsilon.pixels, message, file: file, line: line)
      }
    }
  }
  // The grid reaches the image's edges; vertically only as far as the world goes.
  let worldTop = camera.pixel(for: WorldPoint(x: camera.centerWorld.x, y: 0)).y
  let worldBottom = camera.pixel(for: WorldPoint(x: camera.centerWorld.x, y: 1)).y
  if let firstRow = rects[range.rows.lowerBound], let lastRow = rects[range.rows.upperBound],
    let west = firstRow[range.columns.lowerBound], let east = firstRow[range.columns.upperBound],
    let south = lastRow[range.columns.lowerBound]
  {
    XCTAssertLessThanOrEqual(west.minX, Epsilon.pixels, message, file: file, line: line)
    XCTAssertGreaterThanOrEqual(east.maxX, image.maxX - Epsilon.pixels, message, file: file, line: line)
    XCTAssertLessThanOrEqual(west.minY, max(0, worldTop) + Epsilon.pixels, message, file: file, line: line)
    XCTAssertGreaterThanOrEqual(
      south.maxY, min(image.maxY, worldBottom) - Epsilon.pixels, message, file: file, line: line)
  }
}
