import Foundation
import MapMath
import Tiles
import XCTest

final class TileCacheInventoryTests: XCTestCase {
  private let now = Date()
  private let day: TimeInterval = 86_400

  /// Writes `bytes` bytes at `relativePath` under `folder`, last modified `age` seconds ago.
  private func write(_ folder: String, _ relativePath: String, bytes: Int, age: TimeInterval) throws {
    let url = URL(fileURLWithPath: folder).appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(repeating: 7, count: bytes).write(to: url)
    try FileManager.default.setAttributes(
      [.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: url.path)
  }

  private func exists(_ folder: String, _ relativePath: String) -> Bool {
    FileManager.default.fileExists(atPath: folder + "/" + relativePath)
  }

  /// A cache with old and new tiles at zooms 0, 1 and 3, plus files that are not tiles.
  private func makeCache() throws -> String {
    let folder = try makeTemporaryFolder(self)
    try write(folder, "0/0/0.png", bytes: 100, age: 60 * day)
    try write(folder, "1/0/0.png", bytes: 10, age: 40 * day)
    try write(folder, "1/0/1.jpg", bytes: 20, age: 40 * day)
    try write(folder, "1/1/0.webp", bytes: 30, age: 1 * day)
    try write(folder, "3/2/5.jpeg", bytes: 5, age: 2 * day)
    // Not tiles: never counted, never removed.
    try write(folder, "metadata.json", bytes: 40, age: 90 * day)
    try write(folder, "1/0/notes.txt", bytes: 3, age: 90 * day)
    try write(folder, "1/0/2.png", bytes: 3, age: 90 * day)  // outside the zoom-1 grid
    try write(folder, "1/0/1.png.part", bytes: 3, age: 90 * day)
    try write(folder, "0/0/0.PNG.bak", bytes: 3, age: 90 * day)
    try write(folder, "tmp/0/0.png", bytes: 3, age: 90 * day)
    return folder
  }

  func testDirectoryCounts() throws {
    let folder = try makeCache()
    let inventory = try TileCacheInventory(path: folder)
    XCTAssertEqual(inventory.kind, .directory)
    XCTAssertEqual(
      inventory.zooms,
      [
        .init(zoom: 0, tiles: 1, bytes: 100), .init(zoom: 1, tiles: 3, bytes: 60),
        .init(zoom: 3, tiles: 1, bytes: 5),
      ])
    XCTAssertEqual(inventory.tileCount, 5)
    XCTAssertEqual(inventory.totalBytes, 165)
    XCTAssertFalse(inventory.datesAreFileDate)
    XCTAssertEqual(inventory.oldest!.timeIntervalSince1970, now.timeIntervalSince1970 - 60 * day, accuracy: 1)
    XCTAssertEqual(inventory.newest!.timeIntervalSince1970, now.timeIntervalSince1970 - 1 * day, accuracy: 1)
  }

  func testEmptyFolderIsAnEmptyCache() throws {
    let inventory = try TileCacheInventory(path: try makeTemporaryFolder(self))
    XCTAssertEqual(inventory.zooms, [])
    XCTAssertEqual(inventory.tileCount, 0)
    XCTAssertNil(inventory.oldest)
    XCTAssertNil(inventory.newest)
  }

  func testTilesOlderThanListsWithoutRemoving() throws {
    let folder = try makeCache()
    let old = try TileCacheInventory(path: folder).tiles(olderThan: now.addingTimeInterval(-30 * day))
    XCTAssertEqual(old.map(\.relativePath), ["0/0/0.png", "1/0/0.png", "1/0/1.jpg"])
    XCTAssertEqual(old.map(\.bytes), [100, 10, 20])
    XCTAssertTrue(exists(folder, "0/0/0.png"))
  }

  func testPruneRemovesOnlyOldTilesAndTheFoldersItEmptied() throws {
    let folder = try makeCache()
    let result = try TileCacheInventory(path: folder).prune(olderThan: now.addingTimeInterval(-30 * day))
    XCTAssertEqual(result.removed, 3)
    XCTAssertEqual(result.bytes, 130)
    for removed in ["0/0/0.png", "1/0/0.png", "1/0/1.jpg"] {
      XCTAssertFalse(exists(folder, removed), removed)
    }
    for kept in [
      "1/1/0.webp", "3/2/5.jpeg", "metadata.json", "1/0/notes.txt", "1/0/2.png", "1/0/1.png.part",
      "tmp/0/0.png", "0/0/0.PNG.bak",
    ] {
      XCTAssertTrue(exists(folder, kept), kept)
    }
    let after = try TileCacheInventory(path: folder)
    XCTAssertEqual(after.tileCount, 2)
    XCTAssertEqual(after.totalBytes, 35)
    // Nothing left that old: a second prune removes nothing.
    XCTAssertEqual(try after.prune(olderThan: now.addingTimeInterval(-30 * day)).removed, 0)
  }

  func testPruneKeepsFoldersThatStillHoldOtherFiles() throws {
    let folder = try makeTemporaryFolder(self)
    try write(folder, "2/1/1.png", bytes: 8, age: 10 * day)
    try write(folder, "2/1/README", bytes: 8, age: 10 * day)
    try write(folder, "2/3/3.png", bytes: 8, age: 10 * day)
    try write(folder, "4/0/0.png", bytes: 8, age: 10 * day)
    try write(folder, "4/0/1.png", bytes: 8, age: 10 * day)
    try write(folder, "4/2/0.png", bytes: 8, age: 10 * day)
    try write(folder, "5/0/0.png", bytes: 8, age: 1 * day)
    let result = try TileCacheInventory(path: folder).prune(olderThan: now.addingTimeInterval(-5 * day))
    XCTAssertEqual(result.removed, 5)
    XCTAssertTrue(exists(folder, "2/1/README"))
    XCTAssertFalse(exists(folder, "2/1/1.png"))
    XCTAssertFalse(exists(folder, "2/3"))
    XCTAssertTrue(exists(folder, "2"))
    XCTAssertFalse(exists(folder, "4"))
    XCTAssertTrue(exists(folder, "5/0/0.png"))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["2", "5"])
  }

  func testPruneNeverFollowsOrRemovesLinks() throws {
    let folder = try makeTemporaryFolder(self)
    let outside = try makeTemporaryFolder(self)
    try write(outside, "precious.png", bytes: 8, age: 100 * day)
    try FileManager.default.createDirectory(atPath: folder + "/0/0", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/0/0/0.png", withDestinationPath: outside + "/precious.png")
    let inventory = try TileCacheInventory(path: folder)
    XCTAssertEqual(inventory.tileCount, 0)
    XCTAssertEqual(try inventory.prune(olderThan: now).removed, 0)
    XCTAssertTrue(exists(outside, "precious.png"))
  }

  func testMBTiles() throws {
    let folder = try makeTemporaryFolder(self)
    let path = folder + "/cache.mbtiles"
    try writeMBTiles(
      at: path, metadata: ["name": "test"],
      tiles: [
        (tile(0, 0, 0), Data(count: 100)), (tile(2, 1, 1), Data(count: 7)), (tile(2, 3, 0), Data(count: 9)),
      ])
    let modified = Date(timeIntervalSince1970: 1_700_000_000)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    let inventory = try TileCacheInventory(path: path)
    XCTAssertEqual(inventory.kind, .mbtiles)
    XCTAssertEqual(
      inventory.zooms, [.init(zoom: 0, tiles: 1, bytes: 100), .init(zoom: 2, tiles: 2, bytes: 16)])
    XCTAssertEqual(inventory.totalBytes, 116)
    XCTAssertTrue(inventory.datesAreFileDate)
    XCTAssertEqual(inventory.oldest, modified)
    XCTAssertEqual(inventory.newest, modified)
    XCTAssertThrowsError(try inventory.prune(olderThan: now)) {
      XCTAssertEqual($0 as? TileCacheError, .pruneNotSupported(path))
      XCTAssertEqual(
        "\($0)", "pruning an MBTiles file is not supported yet (\(path)); it keeps no date per tile")
    }
    XCTAssertThrowsError(try inventory.tiles(olderThan: now))
  }

  func testTheCommittedFixture() throws {
    let inventory = try TileCacheInventory(path: worldFixturePath)
    XCTAssertEqual(inventory.zooms.prefix(4).map(\.tiles), [1, 4, 16, 64])
    XCTAssertGreaterThan(inventory.totalBytes, 0)
  }

  func testNotATileCache() throws {
    let folder = try makeTemporaryFolder(self)
    XCTAssertThrowsError(try TileCacheInventory(path: folder + "/missing")) {
      XCTAssertEqual($0 as? TileSourceError, .notFound(folder + "/missing"))
    }
    try write(folder, "other/readme.txt", bytes: 5, age: 0)
    XCTAssertThrowsError(try TileCacheInventory(path: folder + "/other")) {
      XCTAssertEqual($0 as? TileSourceError, .notATileSource(folder + "/other"))
    }
    try write(folder, "notes.txt", bytes: 5, age: 0)
    XCTAssertThrowsError(try TileCacheInventory(path: folder + "/notes.txt")) {
      XCTAssertEqual($0 as? TileSourceError, .notATileSource(folder + "/notes.txt"))
    }
    try write(folder, "fake.mbtiles", bytes: 50, age: 0)
    XCTAssertThrowsError(try TileCacheInventory(path: folder + "/fake.mbtiles")) {
      XCTAssertNotNil($0 as? TileSourceError)
    }
  }
}
