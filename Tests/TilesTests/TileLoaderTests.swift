import Foundation
import Locking
import MapMath
import TestSupport
import Tiles
import XCTest

final class TileLoaderTests: XCTestCase {
  func testParallelLoadingMatchesSerial() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    var tiles: [TileID] = []
    for z in 0...3 {
      for y in 0..<(1 << z) {
        for x in 0..<(1 << z) { tiles.append(tile(z, x, y)) }
      }
    }
    tiles += [tile(5, 16, 20), tile(5, 31, 16), tile(2, 0, 0)]  // one missing, one deep, one repeated
    let serial = try TileLoader(source: source, maximumConcurrency: 1).load(tiles)
    let parallel = try TileLoader(source: source, maximumConcurrency: 4).load(tiles)
    XCTAssertEqual(serial.images.count, 86)
    XCTAssertEqual(serial.missing, [tile(5, 16, 20)])
    XCTAssertEqual(serial.failed, [])
    XCTAssertEqual(parallel.images, serial.images)
    XCTAssertEqual(parallel.missing, serial.missing)
    XCTAssertEqual(parallel.failed, serial.failed)
    XCTAssertEqual(rgba(try XCTUnwrap(parallel.images[tile(3, 4, 2)]), 113, 164), landColour)
  }

  func testTilesHandedOverAreNotKept() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    let tiles = (0..<4).flatMap { y in (0..<4).map { x in tile(2, x, y) } } + [tile(5, 16, 20)]
    let all = try TileLoader(source: source, maximumConcurrency: 1).load(tiles)
    let given = Locked([TileID: [UInt8]]())
    // Takes the tiles of the top row, as a drawing that copies them into its image would.
    let loaded = try TileLoader(source: source, maximumConcurrency: 4).load(tiles) { id, image in
      guard id.y == 0 else { return false }
      given.withLock { $0[id] = image.rgba }
      return true
    }
    let top = (0..<4).map { tile(2, $0, 0) }
    XCTAssertEqual(loaded.handedOver, top)
    XCTAssertEqual(given.withLock { $0 }, all.images.filter { $0.key.y == 0 }.mapValues(\.rgba))
    XCTAssertEqual(loaded.images, all.images.filter { $0.key.y != 0 })
    XCTAssertEqual(loaded.missing, [tile(5, 16, 20)], "a missing tile is never handed over")
  }

  func testCorruptAndWrongSizedTilesFail() throws {
    let path = try makeTemporaryFolder(self) + "/broken.mbtiles"
    var truncated = try pngTile()
    truncated.removeLast(truncated.count / 2)
    try writeMBTiles(
      at: path, metadata: ["minzoom": "0", "maxzoom": "2"],
      tiles: [
        (tile(0, 0, 0), try pngTile()),
        (tile(1, 0, 0), Data("garbage bytes, not a PNG".utf8)),
        (tile(1, 1, 0), try pngTile(side: 300)),
        (tile(1, 0, 1), Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0])),
        (tile(1, 1, 1), Data()),
        (tile(2, 0, 0), truncated),
        (tile(2, 1, 0), try pngTile(side: 128)),
      ])
    let source = try MBTilesSource(path: path)
    let wanted = [
      tile(0, 0, 0), tile(1, 0, 0), tile(1, 1, 0), tile(1, 0, 1), tile(1, 1, 1), tile(2, 0, 0), tile(2, 1, 0),
      tile(2, 3, 3),
    ]
    let loaded = try TileLoader(source: source).load(wanted)
    XCTAssertEqual(Array(loaded.images.keys), [tile(0, 0, 0)])
    XCTAssertEqual(loaded.missing, [tile(2, 3, 3)])
    XCTAssertEqual(
      loaded.failed.map(\.tile),
      [tile(1, 0, 0), tile(1, 1, 0), tile(1, 0, 1), tile(1, 1, 1), tile(2, 0, 0), tile(2, 1, 0)])
    let reasons = Dictionary(uniqueKeysWithValues: loaded.failed.map { ($0.tile, $0.reason) })
    XCTAssertEqual(reasons[tile(1, 0, 0)]?.hasPrefix("not a readable image"), true, "\(reasons)")
    XCTAssertEqual(reasons[tile(1, 1, 0)], "tile is 300×300 pixels, expected 256×256")
    XCTAssertEqual(reasons[tile(1, 0, 1)]?.hasPrefix("not a readable image"), true, "\(reasons)")
    XCTAssertEqual(reasons[tile(1, 1, 1)], "empty tile data")
    XCTAssertEqual(reasons[tile(2, 0, 0)]?.hasPrefix("not a readable image"), true, "\(reasons)")
    XCTAssertEqual(reasons[tile(2, 1, 0)], "tile is 128×128 pixels, expected 256×256")
    XCTAssertEqual(loaded.failed.first?.description.hasPrefix("tile 1/0/0: not a readable image"), true)
  }

  func testBrokenSourceThrows() throws {
    let source = BrokenSource()
    XCTAssertThrowsError(try TileLoader(source: source).load([tile(0, 0, 0), tile(1, 0, 0), tile(1, 1, 1)])) {
      XCTAssertEqual($0 as? TileSourceError, .unreadable("broken", "disk on fire"))
    }
  }

  func testCacheServesWarmLoads() throws {
    let source = try MBTilesSource(path: worldFixturePath)
    let cache = TileImageCache(byteLimit: 10 * 256 * 256 * 4)
    let loader = TileLoader(source: source, cache: cache)
    let tiles = [tile(0, 0, 0), tile(1, 0, 0), tile(1, 1, 0), tile(6, 0, 0)]
    let cold = try loader.load(tiles)
    XCTAssertEqual(cache.usage.tiles, 3)
    XCTAssertEqual(cache.usage.bytes, 3 * 256 * 256 * 4)
    XCTAssertNotNil(cache.image(source: source.cacheIdentity, tile: tile(1, 1, 0)))
    let warm = try loader.load(tiles)
    XCTAssertEqual(warm.images, cold.images)
    XCTAssertEqual(warm.missing, [tile(6, 0, 0)])
  }
}

/// A source whose storage fails.
private struct BrokenSource: TileSource {
  var description: String { "broken" }
  var attribution: String? { nil }
  var zoomRange: ClosedRange<Int> { 0...1 }
  var tileSize: Int { 256 }
  func tileData(_ id: TileID) throws -> Data? {
    throw TileSourceError.unreadable("broken", "disk on fire")
  }
}
