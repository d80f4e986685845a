import Foundation
import Locking
import MapMath
import MapStyle
import Tiles
import VectorTiles
import XCTest

@testable import Rendering

/// Decoded vector tiles kept between renders (`VectorTileCache`): a second map takes them instead of
/// reading and decoding again, with the same bytes; missing and broken tiles are asked for again; a
/// supply that does not name its tiles is never kept; the cache stays within its limit.
final class VectorTileCacheTests: XCTestCase {
  /// A supply over memory that counts the reads of each tile.
  private struct CountingSupply: VectorTileSupply {
    var memory = MemoryTileSupply()
    var identity: String?
    let reads = Locked([TileID: Int]())

    var zoomRange: ClosedRange<Int> { memory.zoomRange }
    var cacheIdentity: String? { identity }

    func vectorTileBytes(_ tile: TileID) throws -> [UInt8]? {
      reads.withLock { $0[tile, default: 0] += 1 }
      return try memory.vectorTileBytes(tile)
    }
  }

  private let tile = SyntheticMaps.tile
  private var east: TileID { TileID(z: tile.z, x: tile.x + 1, y: tile.y)! }
  private var south: TileID { TileID(z: tile.z, x: tile.x, y: tile.y + 1)! }

  private func parks() -> [UInt8] {
    let square = SyntheticTile.Feature(
      kind: .polygon, attributes: [("class", "park")],
      parts: [[(-64, -64), (4160, -64), (4160, 4160), (-64, 4160)]])
    return SyntheticTile(layers: [("parks", [square])]).encoded()
  }

  private func render(_ supply: CountingSupply, cache: VectorTileCache) throws -> Data {
    let style = try SyntheticMaps.style(
      """
      {"id": "parks", "type": "fill", "source": "s", "source-layer": "parks", "paint": {"fill-color": "#0000ff"}}
      """)
    let camera = SyntheticMaps.camera(across: (1, 1))
    let layer = try VectorMapLayer(
      supply: supply, style: style, camera: camera, obstacles: [], measuring: MeasuringContext(),
      tileCache: cache)
    let canvas = try Canvas(format: .png, pixelWidth: 512, pixelHeight: 512, scale: 1)
    layer.draw(on: canvas)
    return try canvas.finish()
  }

  func testASecondMapTakesDecodedTilesAndOnlyAsksAgainForMissingAndBrokenOnes() throws {
    var supply = CountingSupply(identity: "memory:parks")
    supply.memory.tiles[tile] = parks()
    supply.memory.tiles[east] = [0x1A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]  // a layer claiming 4 GB
    supply.memory.failing = [south]
    let cache = VectorTileCache(byteLimit: 1 << 20)
    let first = try render(supply, cache: cache)
    XCTAssertEqual(cache.usage.tiles, 1, "only the tile that decoded is kept")
    let second = try render(supply, cache: cache)
    XCTAssertEqual(second, first, "the same bytes from kept tiles")
    let reads = supply.reads.withLock { $0 }
    XCTAssertEqual(reads[tile], 1, "the decoded tile is read once")
    XCTAssertEqual(reads[east], 2, "a broken tile is read again")
    XCTAssertEqual(reads[south], 2, "so is one its source failed to give")
    let southEast = TileID(z: tile.z, x: tile.x + 1, y: tile.y + 1)!
    XCTAssertEqual(reads[southEast], 2, "and a missing one")
  }

  func testASupplyThatDoesNotNameItsTilesIsNeverKept() throws {
    var supply = CountingSupply(identity: nil)
    supply.memory.tiles[tile] = parks()
    let cache = VectorTileCache(byteLimit: 1 << 20)
    _ = try render(supply, cache: cache)
    _ = try render(supply, cache: cache)
    XCTAssertEqual(supply.reads.withLock { $0[tile] }, 2)
    XCTAssertEqual(cache.usage.tiles, 0)
  }

  func testTheLeastRecentlyUsedTilesGoFirstAndTheLimitHolds() throws {
    let layers = try VectorTile(decoding: parks()).layers
    let decoded = Dictionary(uniqueKeysWithValues: layers.map { ($0.name, $0) })
    let size = 1024 + layers.reduce(0) { $0 + $1.estimatedBytes }
    let cache = VectorTileCache(byteLimit: 2 * size)
    func key(_ x: Int, layers: Set<String> = ["parks"]) -> VectorTileCache.Key {
      VectorTileCache.Key(source: "s", tile: TileID(z: 14, x: x, y: 0)!, layers: layers)
    }
    cache.insert(decoded, for: key(0))
    cache.insert(decoded, for: key(1))
    XCTAssertNotNil(cache.layers(key(0)), "used again: now the most recent")
    cache.insert(decoded, for: key(2))
    XCTAssertEqual(cache.usage.tiles, 2)
    XCTAssertLessThanOrEqual(cache.usage.bytes, cache.byteLimit)
    XCTAssertNil(cache.layers(key(1)), "the least recently used went")
    XCTAssertNotNil(cache.layers(key(0)))
    XCTAssertNil(cache.layers(key(0, layers: ["parks", "roads"])), "another style's layers are another tile")
    let small = VectorTileCache(byteLimit: size - 1)
    small.insert(decoded, for: key(0))
    XCTAssertEqual(small.usage.tiles, 0, "a tile larger than the whole limit is not kept")
  }
}
