import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

final class MBTilesSourceTests: XCTestCase {
  func testFixtureMetadata() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    XCTAssertEqual(source.description, worldFixturePath)
    XCTAssertEqual(source.attribution, "© OpenStreetMap contributors")
    XCTAssertEqual(source.zoomRange, 0...5)
    XCTAssertEqual(source.tileSize, 256)
    XCTAssertEqual(source.format, "png")
    let bounds = try XCTUnwrap(source.bounds)
    XCTAssertEqual(bounds.west, -180)
    XCTAssertEqual(bounds.east, 180)
    XCTAssertEqual(bounds.north, 85.051129, accuracy: 1e-6)
  }

  func testRowsAreTMS() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    // Tile 3/4/2 (XYZ) holds central Europe and is stored at TMS row 5. With rows read the wrong way
    // round, 3/4/5 (the South Atlantic) would come back, which is ocean at both points.
    let europe = try PNGCodec.decode(XCTUnwrap(source.tileData(tile(3, 4, 2))))
    XCTAssertEqual(europe.width, 256)
    XCTAssertEqual(europe.height, 256)
    XCTAssertEqual(rgba(europe, 113, 164), landColour)  // Poland, 52° N 20° E
    XCTAssertEqual(rgba(europe, 22, 125), oceanColour)  // North Sea, 56° N 4° E
    let paris = try PNGCodec.decode(XCTUnwrap(source.tileData(tile(5, 16, 11))))
    XCTAssertEqual(rgba(paris, 53, 2), [121, 122, 119, 255])  // Paris is grey at zoom 5
  }

  func testMissingTiles() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    XCTAssertNil(try source.tileData(tile(5, 16, 20)))  // zoom 5 only covers two areas
    XCTAssertNil(try source.tileData(tile(6, 0, 0)))  // above the top zoom
    XCTAssertNotNil(try source.tileData(tile(5, 31, 16)))  // Pacific, west of 180°
    XCTAssertNotNil(try source.tileData(tile(5, 0, 16)))  // Pacific, east of 180°
  }

  func testHTMLAttributionSizeAndZoomsFromTheTiles() throws {
    let path = try makeTemporaryFolder(self) + "/large.mbtiles"
    try writeMBTiles(
      at: path,
      metadata: [
        "attribution": "<a href=\"https://osm.org/copyright\">&copy; OpenStreetMap</a> &amp; friends"
      ],
      tiles: [(tile(2, 1, 1), try pngTile(side: 512)), (tile(4, 3, 3), try pngTile(side: 512))])
    let source = try MBTilesSource(path: path)
    XCTAssertEqual(source.attribution, "© OpenStreetMap & friends")
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertEqual(source.zoomRange, 2...4)
    XCTAssertNil(source.bounds)
    XCTAssertNotNil(try source.tileData(tile(2, 1, 1)))
  }

  func testTileSizeFromMetadata() throws {
    let path = try makeTemporaryFolder(self) + "/sized.mbtiles"
    try writeMBTiles(
      at: path, metadata: ["tilesize": "512", "minzoom": "1", "maxzoom": "9"],
      tiles: [(tile(0, 0, 0), Data())])
    let source = try MBTilesSource(path: path)
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertEqual(source.zoomRange, 1...9)
    XCTAssertNil(source.attribution)
  }

  func testEmptySourceDefaults() throws {
    let path = try makeTemporaryFolder(self) + "/empty.mbtiles"
    try writeMBTiles(at: path, metadata: [:], tiles: [])
    let source = try MBTilesSource(path: path)
    XCTAssertEqual(source.zoomRange, 0...0)
    XCTAssertEqual(source.tileSize, 256)
    XCTAssertNil(try source.tileData(tile(0, 0, 0)))
  }

  func testNotAnSQLiteDatabase() throws {
    let path = try makeTemporaryFolder(self) + "/garbage.mbtiles"
    try Data("this is not a database, just some text that is long enough".utf8).write(
      to: URL(fileURLWithPath: path))
    XCTAssertThrowsError(try MBTilesSource(path: path)) { error in
      XCTAssertEqual(error as? TileSourceError, .notAnSQLiteDatabase(path))
    }
  }

  func testDatabaseWithoutTilesTable() throws {
    let path = try makeTemporaryFolder(self) + "/places.sqlite"
    try writeMBTiles(at: path, metadata: [:], tiles: [], withTilesTable: false)
    XCTAssertThrowsError(try MBTilesSource(path: path)) { error in
      XCTAssertEqual(error as? TileSourceError, .noTilesTable(path))
    }
  }

  func testReadsFromManyThreads() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    let tiles = (0..<64).map { tile(3, $0 % 8, $0 / 8) }
    let serial = try tiles.map { try source.tileData($0) }
    let results = ResultsBox(count: tiles.count * 4)
    DispatchQueue.concurrentPerform(iterations: tiles.count * 4) { index in
      results.set(index, try? source.tileData(tiles[index % tiles.count]))
    }
    for index in 0..<tiles.count * 4 {
      XCTAssertEqual(results.get(index), serial[index % tiles.count], "tile \(tiles[index % tiles.count])")
    }
  }
}

/// `@unchecked Sendable`: the array is only touched while `lock` is held.
private final class ResultsBox: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Data?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Data?) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }

  func get(_ index: Int) -> Data? {
    lock.lock()
    defer { lock.unlock() }
    return values[index]
  }
}
