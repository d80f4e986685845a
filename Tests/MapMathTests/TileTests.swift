import MapMath
import XCTest

/// Tile numbering and tile ranges.
///
/// Reference tiles and bounds come from mercantile 1.2.1: `mercantile.tile(lon, lat, z)` and
/// `mercantile.bounds(x, y, z)` (bounds as west, south, east, north in degrees).
final class TileTests: XCTestCase {
  private func tile(_ coordinate: Coordinate, _ z: Int) -> TileID {
    TileID(containing: WebMercator.project(coordinate), zoom: z)
  }

  func testTileOfPlacesMatchesMercantile() {
    let cases: [(String, Coordinate, z: Int, x: Int, y: Int)] = [
      ("Paris", Sample.paris, 0, 0, 0),
      ("Paris", Sample.paris, 1, 1, 0),
      ("Paris", Sample.paris, 10, 518, 352),
      ("Paris", Sample.paris, 15, 16_598, 11_273),
      ("Paris", Sample.paris, 18, 132_784, 90_184),
      ("Sydney", Sample.sydney, 1, 1, 1),
      ("Sydney", Sample.sydney, 10, 942, 614),
      ("Sydney", Sample.sydney, 15, 30_147, 19_663),
      ("Sydney", Sample.sydney, 18, 241_179, 157_310),
      ("Honolulu", Sample.honolulu, 1, 0, 0),
      ("Honolulu", Sample.honolulu, 10, 62, 449),
      ("Honolulu", Sample.honolulu, 15, 2015, 14_398),
      ("Honolulu", Sample.honolulu, 18, 16_123, 115_186),
      ("Auckland", Sample.auckland, 10, 1009, 624),
      ("Auckland", Sample.auckland, 15, 32_291, 19_996),
      ("Suva", Sample.suva, 10, 1019, 564),
      ("Suva", Sample.suva, 15, 32_626, 18_063),
      ("Apia", Sample.apia, 10, 23, 551),
      ("Apia", Sample.apia, 15, 750, 17_655),
    ]
    for (name, coordinate, z, x, y) in cases {
      XCTAssertEqual(tile(coordinate, z), TileID(z: z, x: x, y: y), "\(name) at z\(z)")
    }
  }

  func testTilesAtThe180DegreeMeridian() {
    // Just west of 180°: the last column (mercantile agrees).
    XCTAssertEqual(tile(Coordinate(latitude: 0, longitude: 179.9999), 10), TileID(z: 10, x: 1023, y: 512))
    XCTAssertEqual(
      tile(Coordinate(latitude: 0, longitude: 179.9999), 15), TileID(z: 15, x: 32_767, y: 16_384))
    // -180° and just east of it: the first column (mercantile agrees).
    XCTAssertEqual(tile(Coordinate(latitude: 0, longitude: -180), 10), TileID(z: 10, x: 0, y: 512))
    XCTAssertEqual(tile(Coordinate(latitude: 0, longitude: -179.9999), 15), TileID(z: 15, x: 0, y: 16_384))
    // Exactly +180°: mercantile answers column 1023 (it treats 180 as the last column's east edge); MapMath
    // wraps x = 1 round to column 0, the tile east of the same meridian. Both are the line between them.
    XCTAssertEqual(tile(Coordinate(latitude: 0, longitude: 180), 10), TileID(z: 10, x: 0, y: 512))
  }

  func testTileOnACornerBelongsToTheTileSouthEastOfIt() {
    // (0, 0) is the corner of four tiles at every zoom ≥ 1; floor puts it in the south-east one (as mercantile).
    XCTAssertEqual(tile(Coordinate(latitude: 0, longitude: 0), 10), TileID(z: 10, x: 512, y: 512))
    XCTAssertEqual(tile(Coordinate(latitude: 0, longitude: 0), 18), TileID(z: 18, x: 131_072, y: 131_072))
  }

  func testTilesNearThePolesAreClampedIntoTheGrid() {
    XCTAssertEqual(
      tile(Coordinate(latitude: 85.051_128_779_8, longitude: 0), 10), TileID(z: 10, x: 512, y: 0))
    XCTAssertEqual(tile(Coordinate(latitude: 85.06, longitude: 0), 10), TileID(z: 10, x: 512, y: 0))
    XCTAssertEqual(tile(Coordinate(latitude: 90, longitude: 0), 10), TileID(z: 10, x: 512, y: 0))
    XCTAssertEqual(tile(Coordinate(latitude: -85.06, longitude: 0), 10), TileID(z: 10, x: 512, y: 1023))
    XCTAssertEqual(tile(Coordinate(latitude: -90, longitude: 0), 10), TileID(z: 10, x: 512, y: 1023))
    // World points off the grid vertically are clamped too.
    XCTAssertEqual(TileID(containing: WorldPoint(x: 0.5, y: -0.3), zoom: 2), TileID(z: 2, x: 2, y: 0))
    XCTAssertEqual(TileID(containing: WorldPoint(x: 0.5, y: 1.3), zoom: 2), TileID(z: 2, x: 2, y: 3))
  }

  func testUnwrappedWorldPointsWrapToTheGrid() {
    XCTAssertEqual(TileID(containing: WorldPoint(x: 1.3, y: 0.5), zoom: 2), TileID(z: 2, x: 1, y: 2))
    XCTAssertEqual(TileID(containing: WorldPoint(x: -0.3, y: 0.5), zoom: 2), TileID(z: 2, x: 2, y: 2))
    XCTAssertEqual(TileID(containing: WorldPoint(x: -2.99, y: 0.5), zoom: 3), TileID(z: 3, x: 0, y: 4))
  }

  /// The geographic bounds of a tile from MapMath's pieces: origin and the next origin, unprojected.
  private func bounds(of tile: TileID) -> (west: Double, south: Double, east: Double, north: Double) {
    let side = 1 / Double(tile.gridSize)
    let northWest = WebMercator.unproject(tile.origin)
    let southEast = WebMercator.unproject(WorldPoint(x: tile.origin.x + side, y: tile.origin.y + side))
    return (northWest.longitude, southEast.latitude, southEast.longitude, northWest.latitude)
  }

  func testTileBoundsMatchMercantile() {
    let cases: [(z: Int, x: Int, y: Int, west: Double, south: Double, east: Double, north: Double)] = [
      (0, 0, 0, -180, -85.051_128_779_806_6, 180, 85.051_128_779_806_6),
      (1, 1, 0, 0, 0, 180, 85.051_128_779_806_6),
      (2, 3, 1, 90, 0, 180, 66.513_260_443_111_86),
      (3, 7, 7, 135, -85.051_128_779_806_6, 180, -79.171_334_640_819_45),
      (10, 518, 352, 2.109_375, 48.690_960_390_925_5, 2.460_937_5, 48.922_499_263_758_24),
      (
        15, 16_598, 11_273, 2.351_074_218_75, 48.850_258_199_721_495, 2.362_060_546_875, 48.857_487_002_645_48
      ),
      (10, 1023, 624, 179.648_437_5, -36.879_620_605_026_766, 180, -36.597_889_133_070_21),
      (10, 0, 624, -180, -36.879_620_605_026_766, -179.648_437_5, -36.597_889_133_070_21),
      (18, 0, 0, -180, 85.051_010_309_055_41, -179.998_626_708_984_38, 85.051_128_779_806_6),
    ]
    for c in cases {
      guard let tile = TileID(z: c.z, x: c.x, y: c.y) else { return XCTFail("\(c) is a valid tile") }
      let b = bounds(of: tile)
      // Longitudes compare round the circle: MapMath reports the 180° meridian as -180.
      XCTAssertLessThanOrEqual(longitudeDistance(b.west, c.west), Epsilon.degrees, "west of \(tile)")
      XCTAssertLessThanOrEqual(longitudeDistance(b.east, c.east), Epsilon.degrees, "east of \(tile)")
      XCTAssertEqual(b.south, c.south, accuracy: Epsilon.degrees, "south of \(tile)")
      XCTAssertEqual(b.north, c.north, accuracy: Epsilon.degrees, "north of \(tile)")
    }
  }

  func testValidTileIDs() {
    XCTAssertNotNil(TileID(z: 0, x: 0, y: 0))
    XCTAssertNotNil(TileID(z: 30, x: (1 << 30) - 1, y: (1 << 30) - 1))
    XCTAssertNil(TileID(z: -1, x: 0, y: 0))
    XCTAssertNil(TileID(z: 31, x: 0, y: 0))
    XCTAssertNil(TileID(z: 0, x: 1, y: 0))
    XCTAssertNil(TileID(z: 3, x: 8, y: 0))
    XCTAssertNil(TileID(z: 3, x: 0, y: 8))
    XCTAssertNil(TileID(z: 3, x: -1, y: 0))
    XCTAssertNil(TileID(z: 3, x: 0, y: -1))
  }

  func testTMSRow() throws {
    // MBTiles counts rows from the south: row = 2^z − 1 − y.
    XCTAssertEqual(try XCTUnwrap(TileID(z: 10, x: 518, y: 352)).tmsRow, 671)
    XCTAssertEqual(try XCTUnwrap(TileID(z: 0, x: 0, y: 0)).tmsRow, 0)
    XCTAssertEqual(try XCTUnwrap(TileID(z: 1, x: 0, y: 0)).tmsRow, 1)
    XCTAssertEqual(try XCTUnwrap(TileID(z: 15, x: 16_598, y: 11_273)).tmsRow, 21_494)
  }

  func testParentDescriptionOrderAndGrid() throws {
    let paris15 = try XCTUnwrap(TileID(z: 15, x: 16_598, y: 11_273))
    XCTAssertEqual(paris15.parent, TileID(z: 14, x: 8299, y: 5636))
    // Five steps up from z15 is the z10 tile mercantile gives for Paris.
    var tile: TileID? = paris15
    for _ in 0..<5 { tile = tile?.parent }
    XCTAssertEqual(tile, TileID(z: 10, x: 518, y: 352))
    XCTAssertNil(try XCTUnwrap(TileID(z: 0, x: 0, y: 0)).parent)
    XCTAssertEqual(paris15.description, "15/16598/11273")
    XCTAssertEqual(paris15.gridSize, 32_768)
    XCTAssertEqual(paris15.origin.x, 16_598 / 32_768.0)
    XCTAssertEqual(paris15.origin.y, 11_273 / 32_768.0)
    // Ordered by zoom, then row (north to south), then column.
    let sorted = [TileID(z: 2, x: 0, y: 1), TileID(z: 1, x: 1, y: 1), TileID(z: 2, x: 3, y: 0)].compactMap {
      $0
    }
    .sorted()
    XCTAssertEqual(sorted.map(\.description), ["1/1/1", "2/3/0", "2/0/1"])
  }

  // MARK: - TileRange

  func testRangeWithEdgesOnTileEdgesNeedsNoExtraTiles() {
    let range = TileRange(zoom: 2, covering: WorldPoint(x: 0.25, y: 0.25), WorldPoint(x: 0.5, y: 0.5))
    XCTAssertEqual(range.columns, 1...1)
    XCTAssertEqual(range.rows, 1...1)
    XCTAssertEqual(range.placements.map(\.tile), [TileID(z: 2, x: 1, y: 1)].compactMap { $0 })
  }

  func testRangeAcrossThe180DegreeMeridianUsesUnwrappedColumns() {
    let range = TileRange(zoom: 3, covering: WorldPoint(x: -0.1, y: 0.4), WorldPoint(x: 0.1, y: 0.6))
    XCTAssertEqual(range.columns, -1...0)
    XCTAssertEqual(range.rows, 3...4)
    XCTAssertEqual(
      range.placements.map { "\($0.tile)@\($0.column)" }, ["3/7/3@-1", "3/0/3@0", "3/7/4@-1", "3/0/4@0"])
  }

  func testRangeWiderThanTheWorldRepeatsTiles() {
    let range = TileRange(zoom: 0, covering: WorldPoint(x: -0.5, y: -0.2), WorldPoint(x: 1.5, y: 1.2))
    XCTAssertEqual(range.columns, -1...1)
    XCTAssertEqual(range.rows, 0...0)
    XCTAssertEqual(range.placements.count, 3)
    XCTAssertEqual(range.tiles, Set([TileID(z: 0, x: 0, y: 0)].compactMap { $0 }))
  }

  func testRangeRowsAreClampedToTheGrid() {
    let range = TileRange(zoom: 1, covering: WorldPoint(x: 0.1, y: -0.3), WorldPoint(x: 0.2, y: 1.3))
    XCTAssertEqual(range.columns, 0...0)
    XCTAssertEqual(range.rows, 0...1)
  }

  func testRangeOfAPointIsOneTile() {
    let point = WebMercator.project(Sample.paris)
    let range = TileRange(zoom: 10, covering: point, point)
    XCTAssertEqual(range.placements.map(\.tile), [TileID(z: 10, x: 518, y: 352)].compactMap { $0 })
  }

  // MARK: - TileCoverage

  func testCoverageOfABoxMatchesTheSlippyMapFormula() {
    // Paris, west 2.25, south 48.81, east 2.42, north 48.90; reference tiles from the OSM wiki's formula.
    let paris = GeoBox(north: 48.90, south: 48.81, west: 2.25, east: 2.42)
    let z12 = TileRange(zoom: 12, covering: paris)
    XCTAssertEqual(z12.columns, 2073...2075)
    XCTAssertEqual(z12.rows, 1408...1409)
    let coverage = TileCoverage(box: paris, zooms: 10...14)
    XCTAssertEqual(coverage.ranges.map(\.tileCount), [1, 2, 6, 20, 63])
    XCTAssertEqual(coverage.tileCount, 92)
    XCTAssertEqual(coverage.tiles.count, 92)
    XCTAssertEqual(Set(coverage.tiles).count, 92)
    XCTAssertEqual(coverage.tiles.first?.description, "10/518/352")
    XCTAssertEqual(coverage.tiles.last?.description, "14/8302/5639")
  }

  func testCoverageAcrossThe180DegreeMeridianTakesTheShortWay() {
    let fiji = GeoBox(north: -10, south: -20, west: 170, east: -170)
    let range = TileRange(zoom: 4, covering: fiji)
    XCTAssertEqual(range.tileCount, 2)
    XCTAssertEqual(range.tiles.map(\.description).sorted(), ["4/0/8", "4/15/8"])
  }

  func testCoverageOfTheWholeWorldCountsEveryTileOnce() {
    let world = GeoBox(north: 90, south: -90, west: -180, east: 180)
    XCTAssertEqual(TileCoverage(box: world, zooms: 0...3).tileCount, 1 + 4 + 16 + 64)
    XCTAssertEqual(TileCoverage(box: world, zooms: 0...3).tiles.count, 85)
    // Counted, not listed: zoom 20 of the whole world is 2^40 tiles.
    XCTAssertEqual(TileCoverage(box: world, zooms: 20...20).tileCount, 1 << 40)
  }

  func testCoverageOfOnePointIsOneTilePerZoom() {
    let point = GeoBox(north: 48.8566, south: 48.8566, west: 2.3522, east: 2.3522)
    XCTAssertEqual(TileCoverage(box: point, zooms: 0...18).tileCount, 19)
  }

  func testCoverageWithAMarginHoldsEveryViewCentredInTheBox() {
    // One place in Paris and an 800×600 map: at zoom 12 the view reaches 400 px (1.56 tiles) to either side
    // and 300 px (1.17 tiles) up and down of the tile holding the place.
    let point = GeoBox(north: 48.8566, south: 48.8566, west: 2.3522, east: 2.3522)
    let margin = PixelSize(width: 400, height: 300)
    let z12 = TileRange(zoom: 12, covering: point, margin: margin)
    let place = TileID(
      containing: WebMercator.project(Coordinate(latitude: 48.8566, longitude: 2.3522)), zoom: 12)
    XCTAssertTrue(z12.columns.contains(place.x - 1) && z12.columns.contains(place.x + 1))
    XCTAssertTrue(z12.rows.contains(place.y - 1) && z12.rows.contains(place.y + 1))
    XCTAssertLessThanOrEqual(z12.tileCount, 4 * 4)
    // Every whole-zoom camera centred anywhere in the box sees only covered tiles.
    for zoom in 0...16 {
      let range = TileRange(zoom: zoom, covering: point, margin: margin)
      let camera = Camera(
        center: Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: Double(zoom),
        size: PixelSize(width: 800, height: 600))
      XCTAssertTrue(camera.tileRange(tileZoom: zoom).tiles.isSubset(of: range.tiles), "zoom \(zoom)")
    }
    // At zoom 0 and 1 a margin wider than the world is the whole world, each tile once.
    XCTAssertEqual(TileRange(zoom: 1, covering: point, margin: margin).tileCount, 4)
  }
}
