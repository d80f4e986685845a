import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

final class TileImageCacheTests: XCTestCase {
  private let small = RasterImage(width: 4, height: 4, red: 1, green: 2, blue: 3)  // 64 bytes

  func testEvictsLeastRecentlyUsed() {
    let cache = TileImageCache(byteLimit: 3 * 64)
    cache.insert(small, source: "a", tile: tile(1, 0, 0))
    cache.insert(small, source: "a", tile: tile(1, 1, 0))
    cache.insert(small, source: "a", tile: tile(1, 0, 1))
    XCTAssertNotNil(cache.image(source: "a", tile: tile(1, 0, 0)))  // now the most recently used
    cache.insert(small, source: "a", tile: tile(1, 1, 1))
    XCTAssertEqual(cache.usage.tiles, 3)
    XCTAssertEqual(cache.usage.bytes, 3 * 64)
    XCTAssertNil(cache.image(source: "a", tile: tile(1, 1, 0)))
    XCTAssertNotNil(cache.image(source: "a", tile: tile(1, 0, 0)))
    XCTAssertNotNil(cache.image(source: "a", tile: tile(1, 1, 1)))
  }

  func testKeysIncludeTheSource() {
    let cache = TileImageCache(byteLimit: 1_000)
    cache.insert(small, source: "a", tile: tile(0, 0, 0))
    XCTAssertNil(cache.image(source: "b", tile: tile(0, 0, 0)))
    cache.insert(small, source: "a", tile: tile(0, 0, 0))
    XCTAssertEqual(cache.usage.bytes, 64)  // replaced, not counted twice
    cache.removeAll()
    XCTAssertEqual(cache.usage.tiles, 0)
  }

  func testImageLargerThanTheLimitIsNotKept() {
    let cache = TileImageCache(byteLimit: 63)
    cache.insert(small, source: "a", tile: tile(0, 0, 0))
    XCTAssertEqual(cache.usage.tiles, 0)
  }
}
