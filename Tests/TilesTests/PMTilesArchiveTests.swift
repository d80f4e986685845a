import Foundation
import Gzip
import JSON
import Locking
import MapMath
import TestSupport
import Tiles
import XCTest

/// Archives written by the PyPI pmtiles package (Tests/Fixtures/pmtiles/make-fixtures.py), read back.
final class PMTilesArchiveTests: XCTestCase {
  private func fixture(_ name: String) -> String { RepositoryPaths.fixture("pmtiles/\(name)").path }

  func testHeaderOfTheVectorFixture() throws {
    let header = try PMTilesArchive(path: fixture("vector.pmtiles")).header
    XCTAssertEqual(header.tileType, .mvt)
    XCTAssertEqual(header.tileCompression, .gzip)
    XCTAssertEqual(header.internalCompression, .gzip)
    XCTAssertEqual(header.minZoom...header.maxZoom, 0...3)
    XCTAssertEqual(header.addressedTileCount, 64)
    XCTAssertEqual(header.tileEntryCount, 55, "ten tiles share one run")
    XCTAssertTrue(header.isClustered)
    XCTAssertEqual(header.rootDirectory, PMTilesHeader.Section(offset: 127, length: 47))
    XCTAssertEqual(header.bounds, GeoBox(north: 60.1791, south: 60.1642, west: 24.9352, east: 24.9534))
    XCTAssertEqual(header.centerZoom, 2)
    XCTAssertEqual(header.center, Coordinate(latitude: 60.17165, longitude: 24.9443))
  }

  func testEveryTileOfTheVectorFixtureAndItsMetadata() throws {
    let archive = try PMTilesArchive(path: fixture("vector.pmtiles"))
    for id in UInt64(0)...tile(3, 7, 7).pmtilesID {
      let tileID = try XCTUnwrap(TileID(pmtilesID: id))
      let expected = (21...30).contains(id) ? "sea" : "tile \(tileID)"
      XCTAssertEqual(try archive.tile(tileID).map { String(decoding: $0, as: UTF8.self) }, expected)
      XCTAssertEqual(try archive.tileData(tileID).map(Gzip.isCompressed), true, "stored bytes stay gzip")
    }
    XCTAssertNil(try archive.tile(tile(4, 0, 0)))
    XCTAssertNil(try archive.tile(tile(14, 9326, 4742)))
    let metadata = try archive.metadata()
    XCTAssertEqual(metadata["name"], .string("mymap fixture"))
    XCTAssertEqual(metadata["attribution"], .string("© mymap tests"))
    guard case .array(let layers) = metadata["vector_layers"] else { return XCTFail("no vector_layers") }
    XCTAssertEqual(layers.first?["id"], .string("water"))
  }

  func testEveryTileOfTheLeavesFixtureThroughLeafDirectories() throws {
    let archive = try PMTilesArchive(path: fixture("leaves.pmtiles"))
    XCTAssertGreaterThan(archive.header.leafDirectories.length, 0)
    for z in 0...5 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = tile(z, x, y)
          let expected = (400...499).contains(id.pmtilesID) ? "land" : "\(id)"
          XCTAssertEqual(try archive.tile(id).map { String(decoding: $0, as: UTF8.self) }, expected)
        }
      }
    }
    XCTAssertNil(try archive.tile(tile(6, 0, 0)))
    XCTAssertEqual(try archive.metadata()["name"], .string("leaves"))
  }

  func testThreadsReadingAtOnceGetTheSameTiles() throws {
    let archive = try PMTilesArchive(path: fixture("leaves.pmtiles"))
    let ids = (0..<UInt64(1365)).compactMap { TileID(pmtilesID: $0) }
    let expected = try ids.map { try archive.tile($0) }
    let mismatches = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      // Each worker walks the tiles in its own order, all sharing one leaf cache.
      for step in 0..<ids.count {
        let index = (step * 7 + worker * 131) % ids.count
        if (try? archive.tile(ids[index])) != expected[index] { mismatches.withLock { $0 += 1 } }
      }
    }
    XCTAssertEqual(mismatches.withLock { $0 }, 0)
  }

  func testALookupReadsOnlyTheHeaderRootOneLeafAndTheTile() throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture("leaves.pmtiles"))))
    let source = RecordingSource(bytes)
    let archive = try PMTilesArchive(source: source, name: "leaves")
    XCTAssertEqual(source.takeBytesRead(), 127 + Int(archive.header.rootDirectory.length))
    _ = try archive.tile(tile(5, 17, 9))
    XCTAssertLessThanOrEqual(source.takeBytesRead(), 50 + 10, "one gzip leaf of 50 entries and a 7-byte tile")
    _ = try archive.tile(tile(5, 17, 9))
    XCTAssertLessThanOrEqual(source.takeBytesRead(), 10, "the leaf comes from the cache the second time")
  }

  func testASparseGigabyteArchiveOpensReadingAFewHundredBytes() throws {
    let folder = try TemporaryDirectory()
    let path = folder.url("big.pmtiles").path
    let tileOffset: UInt64 = (1 << 30) - 4096
    let payload = Array("far tile".utf8)
    var builder = PMTilesArchiveBuilder(rootEntries: [
      PMTilesEntry(
        tileID: tile(14, 9326, 4742).pmtilesID, offset: tileOffset, length: UInt32(payload.count),
        runLength: 1)
    ])
    builder.tileData = []
    var bytes = builder.build()
    // The tile data section starts right after the header's sections and reaches to the end of the file.
    let dataOffset = UInt64(bytes.count)
    let dataLength = (UInt64(1) << 30) - dataOffset
    bytes.replaceSubrange(64..<72, with: withUnsafeBytes(of: dataLength.littleEndian, Array.init))
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 1 << 30)
    try handle.seek(toOffset: dataOffset + tileOffset)
    try handle.write(contentsOf: Data(payload))
    try handle.close()

    let source = RecordingSource(try PMTilesFile(path: path))
    XCTAssertEqual(source.size, 1 << 30)
    let archive = try PMTilesArchive(source: source, name: path)
    XCTAssertLessThan(source.takeBytesRead(), 200)
    XCTAssertEqual(try archive.tile(tile(14, 9326, 4742)), payload)
    XCTAssertEqual(source.takeBytesRead(), payload.count)
    XCTAssertNil(try archive.tile(tile(14, 9326, 4743)))
    XCTAssertEqual(source.takeBytesRead(), 0, "an absent tile reads nothing")
  }

  func testMissingAndForeignFilesAreRefused() throws {
    XCTAssertThrowsError(try PMTilesArchive(path: "/nonexistent/x.pmtiles")) {
      XCTAssertEqual(
        $0 as? PMTilesError, .unreadable(path: "/nonexistent/x.pmtiles", reason: "No such file or directory"))
    }
    let folder = try TemporaryDirectory()
    XCTAssertThrowsError(try PMTilesArchive(path: folder.path)) {
      XCTAssertEqual($0 as? PMTilesError, .unreadable(path: folder.path, reason: "not a regular file"))
    }
    XCTAssertThrowsError(try PMTilesArchive(source: MemorySource(Array("PMTiles".utf8)), name: "short")) {
      XCTAssertEqual($0 as? PMTilesError, .notPMTiles)
    }
    let mbtiles = try Data(contentsOf: URL(fileURLWithPath: worldFixturePath))
    XCTAssertThrowsError(try PMTilesArchive(source: MemorySource(Array(mbtiles)), name: "mbtiles")) {
      XCTAssertEqual($0 as? PMTilesError, .notPMTiles)
    }
    var version2 = PMTilesArchiveBuilder(tiles: [(0, [1])]).build()
    version2[7] = 2
    XCTAssertThrowsError(try PMTilesArchive(source: MemorySource(version2), name: "v2")) {
      XCTAssertEqual($0 as? PMTilesError, .unsupportedVersion(2))
    }
  }
}
