import Foundation
import Gzip
import MapMath
import TestSupport
import XCTest

@testable import Tiles

/// Archives built by hand to be wrong: each gives a `PMTilesError` that names the problem.
final class PMTilesHostileArchiveTests: XCTestCase {
  func testCompressionsOtherThanNoneAndGzipAreRefusedByName() {
    for (directories, tiles, expected) in [
      (3, 1, PMTilesError.unsupportedCompression(.brotli, of: .directories)),
      (1, 4, .unsupportedCompression(.zstd, of: .tiles)),
      (1, 0, .unsupportedCompression(.unknown, of: .tiles)),
      (9, 1, .unsupportedCompression(.other(9), of: .directories)),
    ] as [(UInt8, UInt8, PMTilesError)] {
      var builder = PMTilesArchiveBuilder(tiles: [(0, [1, 2, 3])])
      builder.internalCompression = directories
      builder.tileCompression = tiles
      XCTAssertThrowsError(try open(builder.build())) { XCTAssertEqual($0 as? PMTilesError, expected) }
    }
    XCTAssertEqual(
      PMTilesError.unsupportedCompression(.brotli, of: .tiles).description,
      "PMTiles tiles compressed with brotli are not supported (only none and gzip)")
  }

  func testUncompressedAndGzipDirectoriesBothWork() throws {
    for directories in [1, 2] as [UInt8] {
      var builder = PMTilesArchiveBuilder(tiles: [(0, Array("zero".utf8)), (7, Array("seven".utf8))])
      builder.internalCompression = directories
      let archive = try open(builder.build())
      XCTAssertEqual(try archive.tile(tile(1, 0, 0)), nil)
      XCTAssertEqual(try archive.tile(try XCTUnwrap(TileID(pmtilesID: 7))), Array("seven".utf8))
      XCTAssertEqual(try archive.metadata()["name"], .string("hand"))
    }
  }

  func testSectionsOutsideTheFileAreRefused() {
    let good = PMTilesArchiveBuilder(tiles: [(0, [1, 2, 3])]).build()
    for (field, value, section) in [
      (8, UInt64(good.count), PMTilesSectionName.rootDirectory),
      (16, UInt64(PMTilesLimits.maximumDirectoryBytes + 1), .rootDirectory),
      (32, UInt64.max - 10, .metadata),
      (48, 1 << 40, .leafDirectories),
      (56, UInt64.max, .tileData),
    ] {
      var bytes = good
      bytes.replaceSubrange(field..<field + 8, with: withUnsafeBytes(of: value.littleEndian, Array.init))
      XCTAssertThrowsError(try open(bytes), "field at \(field)") {
        guard case .sectionOutOfBounds(let name, _, _, let size) = $0 as? PMTilesError else {
          return XCTFail("\($0)")
        }
        XCTAssertEqual(name, section)
        XCTAssertEqual(size, UInt64(good.count))
      }
    }
  }

  func testDamagedRootDirectoriesNameTheProblem() {
    var builder = PMTilesArchiveBuilder(tiles: [(0, [1, 2, 3])])
    builder.rootEntries[0].length = 50
    XCTAssertThrowsError(try open(builder.build())) {
      XCTAssertEqual($0 as? PMTilesError, .damagedDirectory(fileOffset: 127, .outOfBounds(entry: 0)))
    }
    var gzipped = PMTilesArchiveBuilder(tiles: [(0, [1, 2, 3])])
    gzipped.internalCompression = 2
    var bytes = gzipped.build()
    bytes[127 + 12] ^= 0xFF
    XCTAssertThrowsError(try open(bytes)) {
      guard case .inflateFailed(.directories, _) = $0 as? PMTilesError else { return XCTFail("\($0)") }
    }
  }

  func testLeafCyclesAndDeepNestingStop() throws {
    // A leaf directory whose only entry points to itself: five bytes (count, id, run, length, offset).
    let loop = PMTilesArchiveBuilder.directory([PMTilesEntry(tileID: 0, offset: 0, length: 5, runLength: 0)])
    XCTAssertEqual(loop.count, 5)
    var cycle = PMTilesArchiveBuilder(rootEntries: [
      PMTilesEntry(tileID: 0, offset: 0, length: 5, runLength: 0)
    ])
    cycle.leafDirectories = loop
    let archive = try open(cycle.build())
    let leafOffset = archive.header.leafDirectories.offset
    XCTAssertThrowsError(try archive.tile(tile(3, 1, 1))) {
      XCTAssertEqual($0 as? PMTilesError, .leafDirectoryCycle(fileOffset: leafOffset))
    }

    // Leaves nested as deep as allowed work; one level more is refused.
    XCTAssertEqual(try open(nestedLeaves(levels: PMTilesLimits.maximumLeafDepth)).tile(tile(0, 0, 0)), [42])
    XCTAssertThrowsError(
      try open(nestedLeaves(levels: PMTilesLimits.maximumLeafDepth + 1)).tile(tile(0, 0, 0))
    ) {
      XCTAssertEqual($0 as? PMTilesError, .leafDirectoriesTooDeep(limit: PMTilesLimits.maximumLeafDepth))
    }
  }

  /// An archive whose one tile sits below `levels` leaf directories, each at its own offset.
  private func nestedLeaves(levels: Int) -> [UInt8] {
    var leaves: [UInt8] = []
    var directory = PMTilesArchiveBuilder.directory([
      PMTilesEntry(tileID: 0, offset: 0, length: 1, runLength: 1)
    ])
    var pointer = PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0)
    for _ in 0..<levels {
      pointer = PMTilesEntry(
        tileID: 0, offset: UInt64(leaves.count), length: UInt32(directory.count), runLength: 0)
      leaves += directory
      directory = PMTilesArchiveBuilder.directory([pointer])
    }
    var builder = PMTilesArchiveBuilder(rootEntries: [pointer])
    builder.leafDirectories = leaves
    builder.tileData = [42]
    return builder.build()
  }

  func testHugeTilesAndBombsStopAtTheLimits() throws {
    var builder = PMTilesArchiveBuilder(tiles: [(0, try Gzip.deflate([UInt8](repeating: 0, count: 32 << 20)))]
    )
    builder.tileCompression = 2
    let archive = try open(builder.build())
    XCTAssertThrowsError(try archive.tile(tile(0, 0, 0))) {
      XCTAssertEqual(
        $0 as? PMTilesError, .inflateFailed(.tiles, .tooLarge(limit: PMTilesLimits.maximumTileBytes)))
    }
    XCTAssertEqual(try archive.tile(tile(0, 0, 0), limit: 32 << 20)?.count, 32 << 20)

    var big = PMTilesArchiveBuilder(rootEntries: [
      PMTilesEntry(tileID: 0, offset: 0, length: UInt32(PMTilesLimits.maximumTileBytes + 1), runLength: 1)
    ])
    big.tileData = [UInt8](repeating: 7, count: PMTilesLimits.maximumTileBytes + 1)
    XCTAssertThrowsError(try open(big.build()).tileData(tile(0, 0, 0))) {
      XCTAssertEqual(
        $0 as? PMTilesError,
        .tooLarge(
          .tiles, length: UInt64(PMTilesLimits.maximumTileBytes + 1), limit: PMTilesLimits.maximumTileBytes))
    }
  }

  func testMetadataThatIsNotAnObjectIsRefused() throws {
    var builder = PMTilesArchiveBuilder(tiles: [(0, [1])])
    builder.metadata = Array("[1, 2]".utf8)
    XCTAssertThrowsError(try open(builder.build()).metadata()) {
      XCTAssertEqual($0 as? PMTilesError, .badMetadata("an array instead of an object"))
    }
    builder.metadata = []
    XCTAssertEqual(try open(builder.build()).metadata(), .object([]))
  }

  func testTheLeafCacheStaysBounded() throws {
    // 100 leaves of one tile each.
    var leaves: [UInt8] = []
    var root: [PMTilesEntry] = []
    for index in 0..<100 {
      let leaf = PMTilesArchiveBuilder.directory([
        PMTilesEntry(tileID: UInt64(index * 10), offset: UInt64(index), length: 1, runLength: 1)
      ])
      root.append(
        PMTilesEntry(
          tileID: UInt64(index * 10), offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
      leaves += leaf
    }
    var builder = PMTilesArchiveBuilder(rootEntries: root)
    builder.leafDirectories = leaves
    builder.tileData = (0..<100).map { UInt8($0) }
    let archive = try open(builder.build())
    for index in 0..<100 {
      XCTAssertEqual(try archive.tile(try XCTUnwrap(TileID(pmtilesID: UInt64(index * 10)))), [UInt8(index)])
    }
    XCTAssertNil(try archive.tile(try XCTUnwrap(TileID(pmtilesID: 5))), "inside a leaf's range but absent")
    XCTAssertEqual(archive.cachedLeafCount, PMTilesLimits.cachedLeafDirectories)
  }

  private func open(_ bytes: [UInt8]) throws -> PMTilesArchive {
    try PMTilesArchive(source: MemorySource(bytes), name: "hand-made")
  }
}
