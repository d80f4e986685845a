import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

final class TileCacheStoreTests: XCTestCase {
  private let osm = TileCacheDescription(
    source: "https://tile.example.org/{z}/{x}/{y}.png", attribution: "© Example contributors", tileSize: 256)

  private func imageFixture(_ name: String) throws -> Data {
    try Data(contentsOf: RepositoryPaths.fixture("images/\(name)"))
  }

  private func text(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  private func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  /// Every file under `folder` whose name ends in `.tmp`.
  private func temporaryFiles(under folder: String) -> [String] {
    (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".tmp") }
  }

  private func modificationDate(_ path: String) throws -> Date {
    try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
  }

  private func setModificationDate(_ path: String, _ date: Date) throws {
    try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
  }

  /// Asserts that `body` throws exactly `expected`, whose message is `message`.
  private func assertRefused(
    _ expected: TileCacheError, _ message: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Any
  ) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
      XCTAssertEqual(error as? TileCacheError, expected, file: file, line: line)
      XCTAssertEqual("\(error)", message, file: file, line: line)
    }
  }

  // MARK: - Directory cache

  func testDirectoryTilesReadBackThroughItsTileSource() throws {
    let folder = try makeTemporaryFolder(self) + "/not/yet/there"
    let cache = try openTileCache(at: folder, for: osm)
    XCTAssertTrue(cache is DirectoryTileCache)
    XCTAssertEqual(cache.path, folder)
    let europe = try pngTile(red: 10)
    let paris = try pngTile(red: 20)
    try cache.store(tile(3, 4, 2), data: europe, freshness: record("a"))
    try cache.store(tile(5, 16, 11), data: paris, freshness: record("b"))
    // Visible at once, before any commit, where DirectoryTileSource looks.
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/3/4/2.png"), europe)

    let source = try XCTUnwrap(cache.tileSource() as? DirectoryTileSource)
    XCTAssertEqual(source.path, folder)
    XCTAssertEqual(try source.tileData(tile(3, 4, 2)), europe)
    XCTAssertEqual(try source.tileData(tile(5, 16, 11)), paris)
    XCTAssertNil(try source.tileData(tile(3, 4, 5)))  // rows are XYZ, not TMS
    XCTAssertFalse(source.usesTMSRows)
    XCTAssertEqual(source.attribution, "© Example contributors")
    XCTAssertEqual(source.tileSize, 256)
    XCTAssertEqual(source.zoomRange, 3...5)
    XCTAssertEqual(temporaryFiles(under: folder), [])
  }

  func testDirectoryMetadataIsWrittenInAFixedOrderAndReadBack() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let description = TileCacheDescription(
      source: "https://tiles.example.com/{z}/{x}/{y}@2x.jpg?key=REDACTED",
      attribution: "© \"Example\" \\ Maps", tileSize: 512)
    let cache = try openTileCache(at: folder, for: description)
    XCTAssertEqual(
      try text(folder + "/metadata.json"),
      """
      {
        "generator": "mymap",
        "source": "https://tiles.example.com/{z}/{x}/{y}@2x.jpg?key=REDACTED",
        "attribution": "© \\"Example\\" \\\\ Maps",
        "tileSize": 512,
        "scheme": "xyz"
      }

      """)
    // JPEG tiles: DirectoryTileSource finds their size only in the metadata.
    let jpeg = try imageFixture("baseline.jpg")
    try cache.store(tile(7, 1, 1), data: jpeg, freshness: record(nil))
    try cache.store(tile(2, 1, 1), data: jpeg, freshness: record(nil))
    try cache.store(tile(4, 1, 1), data: jpeg, freshness: record(nil))
    XCTAssertEqual(
      try text(folder + "/metadata.json"),
      """
      {
        "generator": "mymap",
        "source": "https://tiles.example.com/{z}/{x}/{y}@2x.jpg?key=REDACTED",
        "attribution": "© \\"Example\\" \\\\ Maps",
        "tileSize": 512,
        "minzoom": 2,
        "maxzoom": 7,
        "scheme": "xyz",
        "format": "jpg"
      }

      """)
    XCTAssertTrue(exists(folder + "/7/1/1.jpg"))
    let source = try XCTUnwrap(cache.tileSource() as? DirectoryTileSource)
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertEqual(source.zoomRange, 2...7)
    XCTAssertEqual(source.attribution, "© \"Example\" \\ Maps")

    // Reopened with a new attribution text for the same source: the metadata follows, zooms stay.
    var renamed = description
    renamed.attribution = "© Example Maps 2025"
    _ = try openTileCache(at: folder, for: renamed)
    let reread = try DirectoryTileSource(path: folder)
    XCTAssertEqual(reread.attribution, "© Example Maps 2025")
    XCTAssertEqual(reread.zoomRange, 2...7)
  }

  func testDirectoryFormatChangeRemovesTheOtherFile() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let cache = try openTileCache(at: folder, for: osm)
    let png = try pngTile(red: 30)
    let jpeg = try imageFixture("tile-256.jpg")
    let webp = try imageFixture("tile-256.webp")
    try cache.store(tile(1, 1, 0), data: png, freshness: record("png"))
    try cache.commit()
    try cache.store(tile(1, 1, 0), data: jpeg, freshness: record("jpeg"))
    XCTAssertFalse(exists(folder + "/1/1/0.png"))
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/1/1/0.jpg"), jpeg)
    // DirectoryTileSource tries .png first: with the old file left, it would read that one.
    XCTAssertEqual(try cache.tileSource().tileData(tile(1, 1, 0)), jpeg)
    XCTAssertEqual(
      try cache.entry(for: tile(1, 1, 0)), CachedTileEntry(freshness: record("jpeg"), isPresent: true))

    try cache.store(tile(1, 1, 0), data: webp, freshness: record("webp"))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/1/1"), ["0.webp"])
    XCTAssertEqual(try cache.tileSource().tileData(tile(1, 1, 0)), webp)
    XCTAssertTrue(try text(folder + "/metadata.json").contains(#""format": "webp""#))
  }

  func testDirectoryEntryStates() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let cache = try openTileCache(at: folder, for: osm)
    XCTAssertNil(try cache.entry(for: tile(3, 4, 2)))

    // A tile without a record (put there by another tool, or a run stopped before its record).
    let png = try pngTile()
    try FileManager.default.createDirectory(atPath: folder + "/3/4", withIntermediateDirectories: true)
    try png.write(to: URL(fileURLWithPath: folder + "/3/4/2.png"))
    XCTAssertEqual(try cache.entry(for: tile(3, 4, 2)), CachedTileEntry(freshness: nil, isPresent: true))
    // An empty file is no tile.
    try Data().write(to: URL(fileURLWithPath: folder + "/3/4/3.png"))
    XCTAssertNil(try cache.entry(for: tile(3, 4, 3)))

    let stored = record("\"v1\"", expires: 1_700_003_600.25, fetched: 1_699_999_999.75)
    try cache.store(tile(3, 4, 3), data: png, freshness: stored)
    XCTAssertEqual(try cache.entry(for: tile(3, 4, 3)), CachedTileEntry(freshness: stored, isPresent: true))
    try cache.commit()
    let reopened = try openTileCache(at: folder, for: osm)
    XCTAssertEqual(
      try reopened.entry(for: tile(3, 4, 3)), CachedTileEntry(freshness: stored, isPresent: true))
    XCTAssertEqual(try reopened.entry(for: tile(3, 4, 2)), CachedTileEntry(freshness: nil, isPresent: true))
    let row = try sqliteRows(
      folder + "/freshness.sqlite",
      "SELECT etag, last_modified, typeof(expires), expires, typeof(fetched) FROM freshness WHERE z = 3 AND x = 4 AND y = 3"
    )
    XCTAssertEqual(row, [["\"v1\"", "Tue, 14 Nov 2023 22:13:20 GMT", "real", "1700003600.25", "real"]])
  }

  func testDirectoryRecordsNotCommittedAreDroppedButTheirTilesStay() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    do {
      let cache = try openTileCache(at: folder, for: osm)
      try cache.store(tile(2, 1, 1), data: try pngTile(), freshness: record("kept"))
      try cache.commit()
      try cache.store(tile(2, 2, 1), data: try pngTile(), freshness: record("dropped"))
    }
    let reopened = try openTileCache(at: folder, for: osm)
    XCTAssertEqual(
      try reopened.entry(for: tile(2, 1, 1)), CachedTileEntry(freshness: record("kept"), isPresent: true))
    XCTAssertEqual(try reopened.entry(for: tile(2, 2, 1)), CachedTileEntry(freshness: nil, isPresent: true))
  }

  func testDirectoryRecordsAreCommittedEvery200Writes() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let writer = try openTileCache(at: folder, for: osm)
    let reader = try openTileCache(at: folder, for: osm)
    let png = try pngTile(side: 1)
    for x in 0..<199 { try writer.store(tile(8, x, 0), data: png, freshness: record("\(x)")) }
    XCTAssertEqual(try reader.entry(for: tile(8, 0, 0)), CachedTileEntry(freshness: nil, isPresent: true))
    try writer.store(tile(8, 199, 0), data: png, freshness: record("199"))
    XCTAssertEqual(try reader.entry(for: tile(8, 0, 0))?.freshness, record("0"))
    XCTAssertEqual(try reader.entry(for: tile(8, 199, 0))?.freshness, record("199"))
    XCTAssertEqual(try sqliteRows(folder + "/freshness.sqlite", "SELECT COUNT(*) FROM freshness"), [["200"]])
  }

  func testDirectoryRefreshUpdatesTheRecordAndTheFileDate() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let cache = try openTileCache(at: folder, for: osm)
    try cache.store(tile(4, 8, 5), data: try pngTile(), freshness: record("\"a\""))
    try cache.commit()
    let file = folder + "/4/8/5.png"
    let longAgo = Date().addingTimeInterval(-10 * 86_400)
    try setModificationDate(file, longAgo)
    XCTAssertEqual(
      try TileCacheInventory(path: folder).newest!.timeIntervalSince1970, longAgo.timeIntervalSince1970,
      accuracy: 1)

    let confirmed = record("\"a\"", expires: 1_800_000_000, fetched: 1_750_000_000)
    try cache.refresh(tile(4, 8, 5), freshness: confirmed)
    XCTAssertEqual(try modificationDate(file).timeIntervalSinceNow, 0, accuracy: 5)
    XCTAssertEqual(try TileCacheInventory(path: folder).newest!.timeIntervalSinceNow, 0, accuracy: 5)
    XCTAssertTrue(
      try TileCacheInventory(path: folder).tiles(olderThan: Date().addingTimeInterval(-86_400)).isEmpty)
    try cache.commit()
    XCTAssertEqual(
      try openTileCache(at: folder, for: osm).entry(for: tile(4, 8, 5)),
      CachedTileEntry(freshness: confirmed, isPresent: true))

    // A tile that is gone (pruned meanwhile) gets no record.
    try cache.refresh(tile(4, 8, 6), freshness: confirmed)
    try cache.commit()
    XCTAssertNil(try cache.entry(for: tile(4, 8, 6)))
  }

  func testLeftoverTemporaryFilesAreIgnoredAndCleanedWhenOld() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let cache = try openTileCache(at: folder, for: osm)
    let png = try pngTile()
    try cache.store(tile(3, 4, 2), data: png, freshness: record("a"))
    try cache.commit()
    // What a process killed between writing and renaming leaves: half a tile, under a temporary name.
    let halfTile = Data(png.prefix(100))
    let old = folder + "/3/4/.3.png.1a2b3c4d.tmp"
    let young = folder + "/3/4/.5.png.5e6f7a8b.tmp"
    let oldMetadata = folder + "/.metadata.json.99aa.tmp"
    for path in [old, young, oldMetadata] { try halfTile.write(to: URL(fileURLWithPath: path)) }
    try setModificationDate(old, Date().addingTimeInterval(-2 * 3_600))
    try setModificationDate(oldMetadata, Date().addingTimeInterval(-2 * 3_600))

    let source = try DirectoryTileSource(path: folder)
    XCTAssertNil(try source.tileData(tile(3, 4, 3)))
    XCTAssertNil(try source.tileData(tile(3, 4, 5)))
    XCTAssertNil(try cache.entry(for: tile(3, 4, 3)))
    let inventory = try TileCacheInventory(path: folder)
    XCTAssertEqual(inventory.zooms, [.init(zoom: 3, tiles: 1, bytes: png.count)])
    XCTAssertTrue(
      try inventory.tiles(olderThan: Date().addingTimeInterval(3_600)).allSatisfy {
        !$0.relativePath.hasSuffix(".tmp")
      })

    _ = try openTileCache(at: folder, for: osm)
    XCTAssertFalse(exists(old))
    XCTAssertFalse(exists(oldMetadata))
    XCTAssertTrue(exists(young), "a young temporary file may be another process's write in progress")
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/3/4/2.png"), png)
  }

  func testInventoryCountsTheTilesOfAWrittenCacheOnly() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let cache = try openTileCache(at: folder, for: osm)
    let tiles = [
      (tile(2, 1, 1), try pngTile(red: 1)), (tile(3, 2, 2), try pngTile(red: 2)),
      (tile(3, 3, 2), try pngTile(red: 3)),
    ]
    for (id, data) in tiles { try cache.store(id, data: data, freshness: record("x")) }
    try cache.commit()
    XCTAssertTrue(exists(folder + "/metadata.json"))
    XCTAssertTrue(exists(folder + "/freshness.sqlite"))
    let inventory = try TileCacheInventory(path: folder)
    XCTAssertEqual(inventory.kind, .directory)
    XCTAssertEqual(
      inventory.zooms,
      [
        .init(zoom: 2, tiles: 1, bytes: tiles[0].1.count),
        .init(zoom: 3, tiles: 2, bytes: tiles[1].1.count + tiles[2].1.count),
      ])

    let file = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let mbtiles = try openTileCache(at: file, for: osm)
    for (id, data) in tiles { try mbtiles.store(id, data: data, freshness: record("x")) }
    try mbtiles.commit()
    XCTAssertEqual(try TileCacheInventory(path: file).zooms, inventory.zooms)
    XCTAssertEqual(try TileCacheInventory(path: file).kind, .mbtiles)
  }

  func testTwoDirectoryCachesFillOneFolderFromSeveralThreads() throws {
    let folder = try makeTemporaryFolder(self) + "/cache"
    let caches = [try openTileCache(at: folder, for: osm), try openTileCache(at: folder, for: osm)]
    let colours = try (0..<4).map { try pngTile(side: 8, red: UInt8(40 * $0)) }
    let failures = Failures()
    // Eight threads, four on each cache object, each on a zoom of its own (6…13) so that metadata.json is
    // rewritten by both objects at once, with JPEG and PNG tiles; the 16 tiles of zoom 14 are written by
    // every thread.
    let jpeg = try imageFixture("baseline.jpg")
    @Sendable func data(_ index: Int) -> Data { index % 5 == 0 ? jpeg : colours[index % 4] }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      let cache = caches[thread % 2]
      for index in 0..<40 {
        do {
          try cache.store(
            tile(6 + thread, index, 0), data: data(index), freshness: record("\(thread)-\(index)"))
          try cache.store(tile(14, index % 16, 0), data: colours[1], freshness: record("shared"))
        } catch {
          failures.add("\(error)")
        }
      }
    }
    XCTAssertEqual(failures.list, [])
    for cache in caches { try cache.commit() }

    let reopened = try openTileCache(at: folder, for: osm)
    let source = try reopened.tileSource()
    XCTAssertEqual(source.zoomRange, 6...14)
    for thread in 0..<8 {
      for index in 0..<40 {
        let id = tile(6 + thread, index, 0)
        XCTAssertEqual(try source.tileData(id), data(index), "\(id)")
        XCTAssertEqual(
          try reopened.entry(for: id),
          CachedTileEntry(freshness: record("\(thread)-\(index)"), isPresent: true))
      }
    }
    for x in 0..<16 {
      XCTAssertEqual(try source.tileData(tile(14, x, 0)), colours[1])
      XCTAssertEqual(try reopened.entry(for: tile(14, x, 0))?.freshness, record("shared"))
    }
    XCTAssertEqual(temporaryFiles(under: folder), [])
    XCTAssertEqual(try sqliteRows(folder + "/freshness.sqlite", "PRAGMA integrity_check"), [["ok"]])
    XCTAssertEqual(
      try sqliteRows(folder + "/freshness.sqlite", "SELECT COUNT(*) FROM freshness"), [["\(8 * 40 + 16)"]])
    XCTAssertEqual(try TileCacheInventory(path: folder).tileCount, 8 * 40 + 16)
  }

  // MARK: - Refusals

  func testDirectoryRefusals() throws {
    let root = try makeTemporaryFolder(self)

    let foreign = root + "/photos"
    try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
    try Data("hello".utf8).write(to: URL(fileURLWithPath: foreign + "/notes.txt"))
    assertRefused(
      .foreignFolder(foreign),
      "\(foreign) is not empty and is not a mymap tile cache (it has no metadata.json written by mymap); "
        + "choose an empty or new folder"
    ) { try openTileCache(at: foreign, for: self.osm) }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: foreign), ["notes.txt"])

    // Another tool's tile folder, with a metadata.json of its own.
    let otherTool = root + "/other-tool"
    try FileManager.default.createDirectory(atPath: otherTool + "/0/0", withIntermediateDirectories: true)
    try pngTile().write(to: URL(fileURLWithPath: otherTool + "/0/0/0.png"))
    try Data(#"{"attribution": "Someone", "tileSize": 256}"#.utf8).write(
      to: URL(fileURLWithPath: otherTool + "/metadata.json"))
    assertRefused(.foreignFolder(otherTool), TileCacheError.foreignFolder(otherTool).description) {
      try openTileCache(at: otherTool, for: self.osm)
    }
    XCTAssertFalse(exists(otherTool + "/freshness.sqlite"))

    let cache = root + "/osm"
    try openTileCache(at: cache, for: osm).store(tile(0, 0, 0), data: try pngTile(), freshness: record(nil))
    let topo = TileCacheDescription(
      source: "https://topo.example.net/{z}/{x}/{y}.png", attribution: nil, tileSize: 256)
    assertRefused(
      .otherSource(cache, cached: osm.source, requested: topo.source),
      "\(cache) holds tiles from https://tile.example.org/{z}/{x}/{y}.png, not https://topo.example.net/{z}/{x}/{y}.png; "
        + "choose another cache"
    ) { try openTileCache(at: cache, for: topo) }
    var retina = osm
    retina.tileSize = 512
    assertRefused(
      .otherTileSize(cache, cached: 256, requested: 512),
      "\(cache) holds 256-pixel tiles, not 512-pixel ones; choose another cache"
    ) { try openTileCache(at: cache, for: retina) }
    XCTAssertTrue(
      try text(cache + "/metadata.json").contains(#""source": "https://tile.example.org/{z}/{x}/{y}.png""#))

    let textFile = root + "/tiles.txt"
    try Data("not tiles".utf8).write(to: URL(fileURLWithPath: textFile))
    assertRefused(
      .notAFolder(textFile),
      "\(textFile) is a file, neither a folder nor an .mbtiles file; choose another cache"
    ) { try openTileCache(at: textFile, for: self.osm) }

    // A folder that cannot be created (works as root too, unlike a permission test).
    XCTAssertThrowsError(try openTileCache(at: textFile + "/cache", for: osm)) { error in
      guard case .notWritable(let path, _)? = error as? TileCacheError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, textFile + "/cache")
      XCTAssertTrue(
        "\(error)".hasPrefix("cannot write to tile cache \(textFile)/cache (cannot create folder"), "\(error)"
      )
      XCTAssertTrue("\(error)".hasSuffix("; check its permissions or choose another cache"), "\(error)")
    }
  }

  func testMBTilesRefusals() throws {
    let root = try makeTemporaryFolder(self)

    let notSQLite = root + "/notes.mbtiles"
    let notes = Data("these are notes, not tiles\n".utf8)
    try notes.write(to: URL(fileURLWithPath: notSQLite))
    assertRefused(
      .notAnMBTilesFile(notSQLite, "it is not an SQLite database"),
      "\(notSQLite) is not an MBTiles file (it is not an SQLite database); choose another cache"
    ) { try openTileCache(at: notSQLite, for: self.osm) }
    XCTAssertEqual(FileManager.default.contents(atPath: notSQLite), notes)

    let noTiles = root + "/no-tiles.mbtiles"
    try writeMBTiles(at: noTiles, metadata: ["name": "x"], tiles: [], withTilesTable: false)
    assertRefused(
      .notAnMBTilesFile(noTiles, "it has no tiles table"),
      "\(noTiles) is not an MBTiles file (it has no tiles table); choose another cache"
    ) { try openTileCache(at: noTiles, for: self.osm) }

    // Someone's MBTiles file: never written into.
    let foreign = root + "/world.mbtiles"
    try FileManager.default.copyItem(atPath: worldFixturePath, toPath: foreign)
    let before = FileManager.default.contents(atPath: foreign)
    assertRefused(
      .foreignMBTiles(foreign),
      "\(foreign) is an MBTiles file not made by mymap; choose a new .mbtiles file"
    ) { try openTileCache(at: foreign, for: self.osm) }
    XCTAssertEqual(FileManager.default.contents(atPath: foreign), before)

    let cache = root + "/osm.mbtiles"
    try openTileCache(at: cache, for: osm).commit()
    let topo = TileCacheDescription(
      source: "https://topo.example.net/{z}/{x}/{y}.png", attribution: nil, tileSize: 256)
    assertRefused(
      .otherSource(cache, cached: osm.source, requested: topo.source),
      "\(cache) holds tiles from \(osm.source), not \(topo.source); choose another cache"
    ) { try openTileCache(at: cache, for: topo) }
    var retina = osm
    retina.tileSize = 512
    assertRefused(
      .otherTileSize(cache, cached: 256, requested: 512),
      "\(cache) holds 256-pixel tiles, not 512-pixel ones; choose another cache"
    ) { try openTileCache(at: cache, for: retina) }

    let folder = root + "/folder.mbtiles"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    assertRefused(
      .notAnMBTilesFile(folder, "it is a folder"),
      "\(folder) is not an MBTiles file (it is a folder); choose another cache"
    ) { try openTileCache(at: folder, for: self.osm) }
  }

  func testOpenTileCacheChoosesTheKindByPath() throws {
    let root = try makeTemporaryFolder(self)
    XCTAssertTrue(try openTileCache(at: root + "/deep/er/cache.MBTiles", for: osm) is MBTilesTileCache)
    XCTAssertTrue(
      FileManager.default.contents(atPath: root + "/deep/er/cache.MBTiles")?.prefix(16)
        == Data("SQLite format 3\0".utf8))
    XCTAssertTrue(try openTileCache(at: root + "/folder", for: osm) is DirectoryTileCache)
    // An existing SQLite file of another name is read as MBTiles, as `openTileSource` does.
    try FileManager.default.copyItem(atPath: root + "/deep/er/cache.MBTiles", toPath: root + "/cache.db")
    XCTAssertTrue(try openTileCache(at: root + "/cache.db", for: osm) is MBTilesTileCache)
    // An empty folder becomes a cache.
    let empty = root + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    XCTAssertTrue(try openTileCache(at: empty, for: osm) is DirectoryTileCache)
    XCTAssertTrue(exists(empty + "/metadata.json"))
  }

  // MARK: - MBTiles cache

  func testMBTilesTilesReadBackThroughMBTilesSource() throws {
    let file = try makeTemporaryFolder(self) + "/sub/cache.mbtiles"
    let cache = try openTileCache(at: file, for: osm)
    XCTAssertEqual(cache.path, file)
    let europe = try pngTile(red: 10)
    let paris = try pngTile(red: 20)
    try cache.store(tile(3, 4, 2), data: europe, freshness: record("a"))
    try cache.store(tile(5, 16, 11), data: paris, freshness: record("b"))

    let source = try XCTUnwrap(cache.tileSource() as? MBTilesSource)
    XCTAssertEqual(source.path, file)
    XCTAssertEqual(try source.tileData(tile(3, 4, 2)), europe)
    XCTAssertEqual(try source.tileData(tile(5, 16, 11)), paris)
    XCTAssertEqual(source.attribution, "© Example contributors")
    XCTAssertEqual(source.tileSize, 256)
    XCTAssertEqual(source.zoomRange, 3...5)
    XCTAssertEqual(source.format, "png")
    // TMS rows: 3/4/2 is row 2^3 − 1 − 2 = 5.
    XCTAssertEqual(
      try sqliteRows(file, "SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level"),
      [["3", "4", "5"], ["5", "16", "20"]])
    XCTAssertEqual(
      try sqliteRows(file, "SELECT name, value FROM metadata ORDER BY name"),
      [
        ["attribution", "© Example contributors"],
        ["description", "Tiles from \(osm.source), cached by mymap"],
        ["format", "png"], ["maxzoom", "5"], ["minzoom", "3"],
        ["mymap_source", osm.source], ["mymap_tile_size", "256"],
        ["name", osm.source], ["tilesize", "256"], ["type", "baselayer"], ["version", "1"],
      ])
    XCTAssertEqual(
      try sqliteRows(
        file, "SELECT tile_row, etag, typeof(expires) FROM mymap_freshness WHERE zoom_level = 3"),
      [["5", "a", "real"]])
    XCTAssertEqual(try sqliteRows(file, "PRAGMA journal_mode"), [["delete"]])
    XCTAssertFalse(exists(file + "-journal"))
    XCTAssertFalse(exists(file + "-wal"))
  }

  func testMBTilesOfJPEGTilesKeepsTheirSize() throws {
    let file = try makeTemporaryFolder(self) + "/retina.mbtiles"
    let retina = TileCacheDescription(
      source: "https://example.com/{z}/{x}/{y}@2x.jpg", attribution: nil, tileSize: 512)
    let cache = try openTileCache(at: file, for: retina)
    let jpeg = try imageFixture("baseline.jpg")
    try cache.store(tile(2, 1, 1), data: jpeg, freshness: record(nil))
    let source = try XCTUnwrap(cache.tileSource() as? MBTilesSource)
    // No PNG tile to measure: only the metadata knows the size.
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertEqual(source.format, "jpg")
    XCTAssertNil(source.attribution)
    XCTAssertEqual(try source.tileData(tile(2, 1, 1)), jpeg)

    // A format change replaces the tile.
    let png = try pngTile(side: 512)
    try cache.store(tile(2, 1, 1), data: png, freshness: record(nil))
    XCTAssertEqual(try cache.tileSource().tileData(tile(2, 1, 1)), png)
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM tiles"), [["1"]])
    XCTAssertEqual(try sqliteRows(file, "SELECT value FROM metadata WHERE name = 'format'"), [["png"]])
  }

  func testMBTilesWritesAreInvisibleUntilCommitted() throws {
    let file = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let png = try pngTile()
    do {
      let cache = try openTileCache(at: file, for: osm)
      try cache.store(tile(1, 0, 0), data: png, freshness: record("committed"))
      // The cache itself sees what it wrote; another connection does not.
      XCTAssertEqual(
        try cache.entry(for: tile(1, 0, 0)), CachedTileEntry(freshness: record("committed"), isPresent: true))
      let reader = try MBTilesSource(path: file)
      XCTAssertNil(try reader.tileData(tile(1, 0, 0)))
      XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM tiles"), [["0"]])
      try cache.commit()
      XCTAssertEqual(try reader.tileData(tile(1, 0, 0)), png)

      try cache.store(tile(1, 1, 0), data: png, freshness: record("never committed"))
      try cache.refresh(tile(1, 0, 0), freshness: record("refresh never committed"))
      XCTAssertEqual(try cache.entry(for: tile(1, 0, 0))?.freshness, record("refresh never committed"))
      XCTAssertNil(try reader.tileData(tile(1, 1, 0)))
      // The cache goes away without a commit.
    }
    let reopened = try openTileCache(at: file, for: osm)
    XCTAssertNil(try reopened.entry(for: tile(1, 1, 0)))
    XCTAssertEqual(
      try reopened.entry(for: tile(1, 0, 0)), CachedTileEntry(freshness: record("committed"), isPresent: true)
    )
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM tiles"), [["1"]])
    XCTAssertEqual(try sqliteRows(file, "PRAGMA integrity_check"), [["ok"]])
  }

  func testMBTilesCommitsEvery200Writes() throws {
    let file = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let cache = try openTileCache(at: file, for: osm)
    let png = try pngTile(side: 1)
    for x in 0..<199 { try cache.store(tile(8, x, 0), data: png, freshness: record(nil)) }
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM tiles"), [["0"]])
    try cache.store(tile(8, 199, 0), data: png, freshness: record(nil))
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*), MIN(tile_row) FROM tiles"), [["200", "255"]])
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM mymap_freshness"), [["200"]])
  }

  func testMBTilesEntryStatesAndRefresh() throws {
    let file = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let cache = try openTileCache(at: file, for: osm)
    XCTAssertNil(try cache.entry(for: tile(2, 3, 1)))
    let first = record("\"1\"", expires: 1_700_000_100.125)
    try cache.store(tile(2, 3, 1), data: try pngTile(), freshness: first)
    try cache.commit()
    XCTAssertEqual(try cache.entry(for: tile(2, 3, 1)), CachedTileEntry(freshness: first, isPresent: true))

    let confirmed = record("\"1\"", expires: 1_800_000_000, fetched: 1_750_000_000.5)
    try cache.refresh(tile(2, 3, 1), freshness: confirmed)
    try cache.commit()
    XCTAssertEqual(
      try sqliteRows(
        file,
        "SELECT expires, fetched FROM mymap_freshness WHERE zoom_level = 2 AND tile_column = 3 AND tile_row = 2"
      ),
      [["1800000000.0", "1750000000.5"]])
    XCTAssertEqual(
      try openTileCache(at: file, for: osm).entry(for: tile(2, 3, 1)),
      CachedTileEntry(freshness: confirmed, isPresent: true))

    // No record for a tile the file does not hold.
    try cache.refresh(tile(2, 0, 0), freshness: confirmed)
    try cache.commit()
    XCTAssertNil(try cache.entry(for: tile(2, 0, 0)))
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM mymap_freshness"), [["1"]])

    // A tile without a record: written by another tool into the same table.
    try sqliteExecute(file, "INSERT INTO tiles VALUES (2, 0, 3, x'89504E47')")
    XCTAssertEqual(try cache.entry(for: tile(2, 0, 0)), CachedTileEntry(freshness: nil, isPresent: true))
  }

  func testTwoMBTilesCachesFillOneFileFromSeveralThreads() throws {
    let file = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let caches = [try openTileCache(at: file, for: osm), try openTileCache(at: file, for: osm)]
    let png = try pngTile(side: 4)
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<150 {
        do {
          try caches[thread % 2].store(
            tile(5 + thread, index % 8, index / 8), data: png, freshness: record("\(thread)"))
        } catch {
          failures.add("\(error)")
        }
      }
    }
    XCTAssertEqual(failures.list, [])
    for cache in caches { try cache.commit() }
    XCTAssertEqual(
      try sqliteRows(file, "SELECT zoom_level, COUNT(*) FROM tiles GROUP BY zoom_level"),
      [["5", "150"], ["6", "150"], ["7", "150"], ["8", "150"]])
    XCTAssertEqual(try sqliteRows(file, "SELECT COUNT(*) FROM mymap_freshness"), [["600"]])
    XCTAssertEqual(try MBTilesSource(path: file).zoomRange, 5...8)
    XCTAssertEqual(try sqliteRows(file, "PRAGMA integrity_check"), [["ok"]])
  }

  func testVectorTilesAreCachedAsPbfAndReadBackAsAVectorSource() throws {
    let gzipped = try Data(contentsOf: RepositoryPaths.fixture("vector/helsinki-14-9326-4742.mvt.gz"))
    let bare = try Data(contentsOf: RepositoryPaths.fixture("vector/known.mvt"))
    let root = try makeTemporaryFolder(self)
    let folder = root + "/folder"
    let file = root + "/file.mbtiles"
    for path in [folder, file] {
      let cache = try openTileCache(at: path, for: osm)
      try cache.store(tile(14, 9326, 4742), data: gzipped, freshness: record("a"))
      try cache.store(tile(3, 4, 2), data: bare, freshness: record("b"))
      try cache.commit()
      let source = try cache.tileSource()
      XCTAssertEqual(source.content, .vector, path)
      XCTAssertEqual(try source.tileData(tile(14, 9326, 4742)), gzipped)
      XCTAssertEqual(try source.tileData(tile(3, 4, 2)), bare)
    }
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/14/9326/4742.pbf"), gzipped)
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/3/4/2.pbf"), bare)
    XCTAssertEqual(try sqliteRows(file, "SELECT value FROM metadata WHERE name = 'format'"), [["pbf"]])
  }

  func testBytesThatAreNoImageAreRefused() throws {
    let root = try makeTemporaryFolder(self)
    for path in [root + "/folder", root + "/file.mbtiles"] {
      let cache = try openTileCache(at: path, for: osm)
      assertRefused(
        .notAnImage("1/0/0"),
        "cannot cache tile 1/0/0: its bytes are not a PNG, JPEG or WebP image or a vector tile"
      ) {
        try cache.store(
          tile(1, 0, 0), data: Data("<html>rate limited</html>".utf8), freshness: record(nil))
      }
      XCTAssertNil(try cache.entry(for: tile(1, 0, 0)))
    }
  }
}

/// A record with dates that survive REAL unix seconds exactly.
private func record(
  _ etag: String?, expires: TimeInterval = 1_700_086_400.5, fetched: TimeInterval = 1_700_000_000
)
  -> TileFreshness
{
  TileFreshness(
    etag: etag, lastModified: etag.map { _ in "Tue, 14 Nov 2023 22:13:20 GMT" },
    expires: Date(timeIntervalSince1970: expires), fetched: Date(timeIntervalSince1970: fetched))
}

/// Error texts collected from several threads.
private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var texts: [String] = []

  func add(_ text: String) {
    lock.lock()
    texts.append(text)
    lock.unlock()
  }

  var list: [String] {
    lock.lock()
    defer { lock.unlock() }
    return texts
  }
}
