import MapMath
import TestSupport
import XCTest

/// Round-trip and containment properties over many seeded inputs (`SeededGenerator`: the same inputs every run).
final class PropertyTests: XCTestCase {
  func testProjectThenUnprojectRoundTrips() {
    var random = SeededGenerator(seed: 0x5EED_0001)
    for _ in 0..<20_000 {
      let coordinate = random.coordinate()
      let back = WebMercator.unproject(WebMercator.project(coordinate))
      assertCoordinate(back, coordinate, accuracy: Epsilon.degrees)
    }
  }

  func testUnprojectThenProjectRoundTrips() {
    var random = SeededGenerator(seed: 0x5EED_0002)
    for _ in 0..<20_000 {
      let point = WorldPoint(x: random.unit(), y: random.unit())
      let back = WebMercator.project(WebMercator.unproject(point))
      XCTAssertEqual(back.x, point.x, accuracy: Epsilon.world)
      // Near the poles y is steep in latitude: 1e-9 still means well under a pixel at zoom 22.
      XCTAssertEqual(back.y, point.y, accuracy: 1e-9)
    }
  }

  func testTheTileContainingAPointHasThePointInsideItsBounds() {
    var random = SeededGenerator(seed: 0x5EED_0003)
    for _ in 0..<20_000 {
      let coordinate = random.coordinate()
      let zoom = random.int(in: 0...22)
      let tile = TileID(containing: WebMercator.project(coordinate), zoom: zoom)
      let side = 1 / Double(tile.gridSize)
      let northWest = WebMercator.unproject(tile.origin)
      let southEast = WebMercator.unproject(WorldPoint(x: tile.origin.x + side, y: tile.origin.y + side))
      let box = GeoBox(
        north: northWest.latitude, south: southEast.latitude, west: northWest.longitude,
        east: tile.x == tile.gridSize - 1 ? 180 : southEast.longitude)
      // Edges belong to the tile east and south of them; 1e-9° covers the unproject rounding at those edges.
      let label = "\(coordinate) in \(tile)"
      XCTAssertGreaterThanOrEqual(coordinate.latitude, box.south - Epsilon.degrees, label)
      XCTAssertLessThanOrEqual(coordinate.latitude, box.north + Epsilon.degrees, label)
      XCTAssertGreaterThanOrEqual(coordinate.longitude, box.west - Epsilon.degrees, label)
      XCTAssertLessThanOrEqual(coordinate.longitude, box.east + Epsilon.degrees, label)
    }
  }

  func testTMSRowIsAnInvolution() throws {
    var random = SeededGenerator(seed: 0x5EED_0004)
    for _ in 0..<5_000 {
      let zoom = random.int(in: 0...30)
      let count = 1 << zoom
      let tile = try XCTUnwrap(
        TileID(z: zoom, x: random.int(in: 0...count - 1), y: random.int(in: 0...count - 1)))
      let flipped = try XCTUnwrap(TileID(z: zoom, x: tile.x, y: tile.tmsRow), "TMS row stays in the grid")
      XCTAssertEqual(flipped.tmsRow, tile.y)
      XCTAssertEqual(tile.tmsRow + tile.y, count - 1)
    }
  }

  func testParentContainsTheChild() throws {
    var random = SeededGenerator(seed: 0x5EED_0005)
    for _ in 0..<5_000 {
      let point = WorldPoint(x: random.unit(), y: random.unit())
      let zoom = random.int(in: 1...30)
      let tile = TileID(containing: point, zoom: zoom)
      XCTAssertEqual(tile.parent, TileID(containing: point, zoom: zoom - 1))
    }
  }

  func testPixelAndCoordinateAtPixelRoundTrip() {
    var random = SeededGenerator(seed: 0x5EED_0006)
    for _ in 0..<5_000 {
      let camera = randomCamera(&random)
      let pixel = PixelPoint(
        x: random.double(in: 0..<camera.pixelSize.width), y: random.double(in: 0..<camera.pixelSize.height))
      let world = camera.worldPoint(atPixel: pixel)
      // Above or below the world there is nothing to go back to; beyond half a world from the centre (images
      // wider than the world) the way back lands in the copy nearest the centre instead.
      guard world.y > 0, world.y < 1, abs(pixel.x - camera.pixelSize.width / 2) < camera.worldPixels / 2
      else {
        continue
      }
      let back = camera.pixel(for: camera.coordinate(atPixel: pixel))
      // Pixel error = world error × worldPixels; at zoom 19, scale 3 that is 4e8 px per world unit.
      assertPixel(back, pixel, accuracy: max(1e-6, camera.worldPixels * 1e-15))
    }
  }

  func testTileRangeCoversTheTileOfEveryVisiblePixel() {
    var random = SeededGenerator(seed: 0x5EED_0007)
    for _ in 0..<400 {
      let camera = randomCamera(&random)
      let tileSize = random.bool() ? 256 : 512
      let tileZoom = camera.tileZoom(tileSize: tileSize)
      let range = camera.tileRange(tileZoom: tileZoom)
      let placed = Set(range.placements.map { "\($0.tile.y)@\($0.column)" })
      let count = Double(1 << tileZoom)
      // The four corner pixels, the middle and random pixels (their centres).
      var pixels = [
        PixelPoint(x: 0.5, y: 0.5), PixelPoint(x: camera.pixelSize.width - 0.5, y: 0.5),
        PixelPoint(x: 0.5, y: camera.pixelSize.height - 0.5),
        PixelPoint(x: camera.pixelSize.width - 0.5, y: camera.pixelSize.height - 0.5),
        PixelPoint(x: camera.pixelSize.width / 2, y: camera.pixelSize.height / 2),
      ]
      for _ in 0..<40 {
        pixels.append(
          PixelPoint(
            x: Double(random.int(in: 0...Int(camera.pixelSize.width) - 1)) + 0.5,
            y: Double(random.int(in: 0...Int(camera.pixelSize.height) - 1)) + 0.5))
      }
      for pixel in pixels {
        let world = camera.worldPoint(atPixel: pixel)
        guard world.y >= 0, world.y < 1 else { continue }  // no tile above or below the world
        let column = Int((world.x * count).rounded(.down))
        let row = Int((world.y * count).rounded(.down))
        XCTAssertTrue(
          placed.contains("\(row)@\(column)"), "pixel \(pixel) needs \(row)@\(column) in \(range)")
        // And the tile drawn there really covers the pixel.
        if let tile = TileID(
          z: tileZoom, x: ((column % (1 << tileZoom)) + (1 << tileZoom)) % (1 << tileZoom), y: row)
        {
          XCTAssertEqual(tile, TileID(containing: world, zoom: tileZoom))
        }
      }
      assertTilesCoverImage(camera, tileZoom: tileZoom, "\(camera)")
    }
  }

  private func randomCamera(_ random: inout SeededGenerator) -> Camera {
    Camera(
      center: random.coordinate(maxLatitude: 84),
      zoom: random.bool() ? Double(random.int(in: 0...19)) : random.double(in: 0..<19),
      size: PixelSize(width: Double(random.int(in: 1...1200)), height: Double(random.int(in: 1...900))),
      scale: Double(random.int(in: 1...3)))
  }
}
