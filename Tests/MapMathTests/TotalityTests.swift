import MapMath
import XCTest

/// MapMath's tile functions are total: a tile size of 0 or less, a camera that is not a number and points
/// far outside the world give tiles inside the grid, never a trap in `Int(_:)`.
final class TotalityTests: XCTestCase {
  private let size = PixelSize(width: 400, height: 300)
  private let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)

  func testTileZoomOfAnyTileSizeAndCameraStaysInTheRange() {
    let camera = Camera(center: paris, zoom: 10, size: size, scale: 2)
    XCTAssertEqual(camera.tileZoom(tileSize: 256, available: 0...19), 11)
    // log2(512 / 0) is +∞: the deepest zoom; log2 of a negative number is NaN: the shallowest.
    XCTAssertEqual(camera.tileZoom(tileSize: 0, available: 3...17), 17)
    XCTAssertEqual(camera.tileZoom(tileSize: -256, available: 3...17), 3)
    XCTAssertEqual(camera.tileZoom(tileSize: Int.max, available: 3...17), 3)
    for zoom in [Double.nan, .infinity, -.infinity, 1e300] {
      let odd = Camera(center: paris, zoom: zoom, size: size, scale: 1)
      XCTAssertTrue((2...6).contains(odd.tileZoom(tileSize: 256, available: 2...6)), "\(zoom)")
    }
  }

  func testTilesOfPointsThatAreNotNumbersOrFarAwayAreInTheGrid() {
    let nan = WorldPoint(x: .nan, y: .nan)
    XCTAssertEqual(TileID(containing: nan, zoom: 5), TileID(z: 5, x: 0, y: 0))
    XCTAssertEqual(TileID(containing: WorldPoint(x: 1e300, y: -1e300), zoom: 5).y, 0)
    XCTAssertEqual(TileID(containing: WorldPoint(x: -.infinity, y: .infinity), zoom: 5).y, 31)
    XCTAssertEqual(TileID(containing: WorldPoint(x: 0.5, y: 0.5), zoom: 99).z, 30)
    XCTAssertEqual(TileID(containing: WorldPoint(x: 0.5, y: 0.5), zoom: -3), TileID(z: 0, x: 0, y: 0))

    let range = TileRange(zoom: 4, covering: nan, nan)
    XCTAssertEqual(range.rows, 0...0)
    XCTAssertEqual(range.columns.count, 1)
    let huge = TileRange(zoom: 4, covering: WorldPoint(x: -1e300, y: -1e300), WorldPoint(x: 1e300, y: 1e300))
    XCTAssertEqual(huge.rows, 0...15)
    XCTAssertEqual(huge.tileCount, 256)
    // Columns × rows cannot overflow, however wide the range.
    XCTAssertGreaterThan(huge.columns.count, 1 << 31)
    XCTAssertLessThan(
      huge.columns.count.multipliedReportingOverflow(by: huge.rows.count).partialValue, Int.max)
    XCTAssertFalse(huge.columns.count.multipliedReportingOverflow(by: huge.rows.count).overflow)
  }

  func testACameraThatIsNotANumberGivesATileRangeInsteadOfATrap() {
    let camera = Camera(center: Coordinate(latitude: .nan, longitude: .nan), zoom: .nan, size: size)
    let range = camera.tileRange(tileZoom: camera.tileZoom(tileSize: 256, available: 0...19))
    XCTAssertEqual(range.zoom, 0)
    XCTAssertEqual(range.rows, 0...0)
  }
}
