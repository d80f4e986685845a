import Foundation
import MapMath
import TestSupport
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

  private let description = TileCacheDescription(
    source: "https://tile.example.org/{z}/{x}/{y}.png", attribution: nil, tileSize: 256)

  /// `bytes` bytes that a cache takes for a PNG tile (they start with the PNG signature).
  private func png(_ bytes: Int) -> Data {
    Data([137, 80, 78, 71, 13, 10, 26, 10]) + Data(repeating: 1, count: bytes - 8)
  }

  /// A freshness record fetched at `fetched` (unix seconds).
  private func fetched(_ fetched: TimeInterval) -> TileFreshness {
    TileFreshness(
      etag: "\"e\"", expires: Date(timeIntervalSince1970: fetched + day),
      fetched: Date(timeIntervalSince1970: fetched))
  }

  private func setModificationDate(_ path: String, _ seconds: TimeInterval) throws {
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
  }

  /// An MBTiles cache written by `openTileCache`: tiles fetched at 1_700_000_000 (0/0/0, 100 bytes;
  /// 2/1/3, 20 bytes: TMS row 0), 1_750_000_000 (2/1/2, 30 bytes) and 1_800_000_000 (2/3/0, 40 bytes:
  /// TMS row 3).
  private func makeMBTilesCache() throws -> String {
    let path = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let cache = try openTileCache(at: path, for: description)
    XCTAssertTrue(cache is MBTilesTileCache)
    try cache.store(tile(2, 3, 0), data: png(40), freshness: fetched(1_800_000_000))
    try cache.store(tile(0, 0, 0), data: png(100), freshness: fetched(1_700_000_000))
    try cache.store(tile(2, 1, 2), data: png(30), freshness: fetched(1_750_000_000))
    try cache.store(tile(2, 1, 3), data: png(20), freshness: fetched(1_700_000_000))
    try cache.commit()
    return path
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
    XCTAssertFalse(inventory.hasFetchDates)
    XCTAssertEqual(inventory.tilesWithoutFetchDate, 0)
    XCTAssertFalse(inventory.oldestIsFileDate)
    XCTAssertFalse(inventory.newestIsFileDate)
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

  func testMBTilesWithoutFetchDates() throws {
    let folder = try makeTemporaryFolder(self)
    let path = folder + "/cache.mbtiles"
    try writeMBTiles(
      at: path, metadata: ["name": "test"],
      tiles: [
        (tile(0, 0, 0), Data(count: 100)), (tile(2, 1, 1), Data(count: 7)), (tile(2, 3, 0), Data(count: 9)),
      ])
    let modified = Date(timeIntervalSince1970: 1_700_000_000)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let inventory = try TileCacheInventory(path: path)
    XCTAssertEqual(inventory.kind, .mbtiles)
    XCTAssertEqual(
      inventory.zooms, [.init(zoom: 0, tiles: 1, bytes: 100), .init(zoom: 2, tiles: 2, bytes: 16)])
    XCTAssertEqual(inventory.totalBytes, 116)
    XCTAssertFalse(inventory.hasFetchDates)
    XCTAssertEqual(inventory.tilesWithoutFetchDate, 3)
    XCTAssertTrue(inventory.oldestIsFileDate)
    XCTAssertTrue(inventory.newestIsFileDate)
    XCTAssertEqual(inventory.oldest, modified)
    XCTAssertEqual(inventory.newest, modified)
    let message =
      "cannot prune \(path): the MBTiles file has no fetch dates (it was not written by 'mymap tiles fetch')"
    XCTAssertThrowsError(try inventory.prune(olderThan: now)) {
      XCTAssertEqual($0 as? TileCacheError, .pruneNotSupported(path))
      XCTAssertEqual("\($0)", message)
    }
    XCTAssertThrowsError(try inventory.tiles(olderThan: now)) {
      XCTAssertEqual($0 as? TileCacheError, .pruneNotSupported(path))
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "a refused file is not changed")
  }

  func testMBTilesDatesAreTheFetchDates() throws {
    let path = try makeMBTilesCache()
    try setModificationDate(path, 1_900_000_000)
    let inventory = try TileCacheInventory(path: path)
    XCTAssertEqual(inventory.kind, .mbtiles)
    XCTAssertEqual(
      inventory.zooms, [.init(zoom: 0, tiles: 1, bytes: 100), .init(zoom: 2, tiles: 3, bytes: 90)])
    XCTAssertTrue(inventory.hasFetchDates)
    XCTAssertEqual(inventory.tilesWithoutFetchDate, 0)
    XCTAssertEqual(inventory.oldest, Date(timeIntervalSince1970: 1_700_000_000))
    XCTAssertEqual(inventory.newest, Date(timeIntervalSince1970: 1_800_000_000))
    XCTAssertFalse(inventory.oldestIsFileDate)
    XCTAssertFalse(inventory.newestIsFileDate)
  }

  func testMBTilesTileWithoutFetchDateIsDatedByTheFile() throws {
    let path = try makeMBTilesCache()
    // 2/1/2 (TMS row 1) loses its record, as if written by another tool.
    try sqliteRows(
      path, "DELETE FROM mymap_freshness WHERE zoom_level = 2 AND tile_column = 1 AND tile_row = 1")
    try setModificationDate(path, 1_600_000_000)
    var inventory = try TileCacheInventory(path: path)
    XCTAssertTrue(inventory.hasFetchDates)
    XCTAssertEqual(inventory.tilesWithoutFetchDate, 1)
    XCTAssertEqual(inventory.oldest, Date(timeIntervalSince1970: 1_600_000_000))
    XCTAssertTrue(inventory.oldestIsFileDate)
    XCTAssertEqual(inventory.newest, Date(timeIntervalSince1970: 1_800_000_000))
    XCTAssertFalse(inventory.newestIsFileDate)

    try setModificationDate(path, 1_850_000_000)
    inventory = try TileCacheInventory(path: path)
    XCTAssertEqual(inventory.oldest, Date(timeIntervalSince1970: 1_700_000_000))
    XCTAssertFalse(inventory.oldestIsFileDate)
    XCTAssertEqual(inventory.newest, Date(timeIntervalSince1970: 1_850_000_000))
    XCTAssertTrue(inventory.newestIsFileDate)
    // It is as old as the file: kept by a cutoff before the file's date, listed by one after it.
    XCTAssertEqual(
      try inventory.tiles(olderThan: Date(timeIntervalSince1970: 1_849_999_999)).map(\.relativePath),
      ["0/0/0", "2/1/3", "2/3/0"])
    let all = try inventory.tiles(olderThan: Date(timeIntervalSince1970: 1_850_000_001))
    XCTAssertEqual(all.map(\.relativePath), ["0/0/0", "2/1/2", "2/1/3", "2/3/0"])
    XCTAssertEqual(all[1].modified, Date(timeIntervalSince1970: 1_850_000_000))
  }

  func testMBTilesTilesOlderThanListsWithoutRemoving() throws {
    let path = try makeMBTilesCache()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let old = try TileCacheInventory(path: path).tiles(olderThan: Date(timeIntervalSince1970: 1_750_000_001))
    // z/x/y order with XYZ rows: 2/1/2 (TMS row 1) before 2/1/3 (TMS row 0).
    XCTAssertEqual(old.map(\.relativePath), ["0/0/0", "2/1/2", "2/1/3"])
    XCTAssertEqual(old.map(\.id), [tile(0, 0, 0), tile(2, 1, 2), tile(2, 1, 3)])
    XCTAssertEqual(old.map(\.bytes), [100, 30, 20])
    XCTAssertEqual(
      old.map(\.modified.timeIntervalSince1970), [1_700_000_000, 1_750_000_000, 1_700_000_000])
    XCTAssertEqual(
      try TileCacheInventory(path: path).tiles(olderThan: Date(timeIntervalSince1970: 1_750_000_000))
        .map(\.relativePath), ["0/0/0", "2/1/3"], "a tile fetched at the cutoff is not older")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
  }

  func testMBTilesPruneRemovesOldTilesAndTheirRecords() throws {
    let path = try makeMBTilesCache()
    // A tile of 5 bytes without a record, and the file last modified after it: dated 1_760_000_000.
    try sqliteRows(
      path,
      "INSERT INTO tiles VALUES (3, 0, 0, x'89504E470D')")
    try setModificationDate(path, 1_760_000_000)
    XCTAssertEqual(
      try mbtilesKeys(path).tiles, ["0/0/0", "2/1/0", "2/1/1", "2/3/3", "3/0/0"])
    let result = try TileCacheInventory(path: path).prune(
      olderThan: Date(timeIntervalSince1970: 1_750_000_001))
    XCTAssertEqual(result.removed, 3)
    XCTAssertEqual(result.bytes, 150)
    XCTAssertEqual(try mbtilesKeys(path).tiles, ["2/3/3", "3/0/0"])
    XCTAssertEqual(try mbtilesKeys(path).records, ["2/3/3"])
    XCTAssertEqual(try sqliteRows(path, "SELECT length(tile_data) FROM tiles WHERE zoom_level = 2"), [["40"]])
    // The tiles left still read back, and the metadata is untouched.
    let source = try MBTilesSource(path: path)
    XCTAssertEqual(try source.tileData(tile(2, 3, 0)), png(40))
    XCTAssertNil(try source.tileData(tile(0, 0, 0)))
    XCTAssertEqual(
      try sqliteRows(path, "SELECT value FROM metadata WHERE name = 'mymap_source'"), [[description.source]])

    let after = try TileCacheInventory(path: path)
    XCTAssertEqual(after.tileCount, 2)
    XCTAssertEqual(after.totalBytes, 45)
    XCTAssertEqual(try after.prune(olderThan: Date(timeIntervalSince1970: 1_750_000_001)).removed, 0)
    // The tile without a record is as old as the file, which the prune has just written.
    let written = try XCTUnwrap(
      try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    XCTAssertEqual(written.timeIntervalSinceNow, 0, accuracy: 60)
    try setModificationDate(path, 1_850_000_000)
    XCTAssertEqual(try after.prune(olderThan: Date(timeIntervalSince1970: 1_800_000_001)).removed, 1)
    XCTAssertEqual(try mbtilesKeys(path).tiles, ["3/0/0"])
    XCTAssertEqual(try mbtilesKeys(path).records, [])
    XCTAssertEqual(try after.prune(olderThan: Date().addingTimeInterval(60)).bytes, 5)
    XCTAssertEqual(try mbtilesKeys(path).tiles, [])
    // The cache is still one that `mymap tiles fetch` can fill.
    let cache = try openTileCache(at: path, for: description)
    try cache.store(tile(1, 1, 1), data: png(10), freshness: fetched(1_700_000_000))
    try cache.commit()
    XCTAssertEqual(try mbtilesKeys(path).tiles, ["1/1/0"])
    XCTAssertEqual(try mbtilesKeys(path).records, ["1/1/0"])
  }

  func testDirectoryPruneRemovesTheRecordsOfTheTilesItRemoves() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let cache = try openTileCache(at: folder, for: description)
    XCTAssertTrue(cache is DirectoryTileCache)
    try cache.store(tile(0, 0, 0), data: png(100), freshness: fetched(1_700_000_000))
    try cache.store(tile(2, 1, 3), data: png(20), freshness: fetched(1_700_000_000))
    try cache.store(tile(2, 1, 2), data: png(30), freshness: fetched(1_700_000_000))
    try cache.commit()
    // The file's date is the rule for folders, not the record's.
    try setModificationDate(folder + "/0/0/0.png", now.timeIntervalSince1970 - 60 * day)
    try setModificationDate(folder + "/2/1/3.png", now.timeIntervalSince1970 - 60 * day)
    let records = "SELECT z || '/' || x || '/' || y FROM freshness ORDER BY 1"
    let freshness = folder + "/freshness.sqlite"
    XCTAssertEqual(try sqliteRows(freshness, records), [["0/0/0"], ["2/1/2"], ["2/1/3"]])

    let inventory = try TileCacheInventory(path: folder)
    XCTAssertEqual(
      try inventory.tiles(olderThan: now.addingTimeInterval(-30 * day)).map(\.relativePath),
      ["0/0/0.png", "2/1/3.png"])
    XCTAssertEqual(
      try sqliteRows(freshness, records), [["0/0/0"], ["2/1/2"], ["2/1/3"]], "listing removes none")
    let result = try inventory.prune(olderThan: now.addingTimeInterval(-30 * day))
    XCTAssertEqual(result.removed, 2)
    XCTAssertEqual(result.bytes, 120)
    XCTAssertEqual(try sqliteRows(freshness, records), [["2/1/2"]])
    XCTAssertFalse(exists(folder, "0"))
    XCTAssertTrue(exists(folder, "2/1/2.png"))
    XCTAssertTrue(exists(folder, "metadata.json"))
    // The cache still works: the pruned tile has no entry, the kept one keeps its record.
    XCTAssertNil(try cache.entry(for: tile(0, 0, 0)))
    XCTAssertEqual(try cache.entry(for: tile(2, 1, 2))?.freshness, fetched(1_700_000_000))
  }

  func testPruneOfAFolderWithoutRecordsCreatesNone() throws {
    let folder = try makeCache()
    try TileCacheInventory(path: folder).prune(olderThan: now.addingTimeInterval(-30 * day))
    XCTAssertFalse(exists(folder, "freshness.sqlite"))
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
