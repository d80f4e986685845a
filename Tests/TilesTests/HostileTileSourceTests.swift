import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

/// Tile sources that lie: tiles of the wrong size (0×0, 40,000 pixels), declared tile sizes that cannot be
/// drawn, decompression bombs, tiles too large to read, and files that are not files. None may trap, hang
/// or allocate without bound; a bad tile is a failed tile, a bad source a `TileSourceError`.
final class HostileTileSourceTests: XCTestCase {
  func testA0x0PNGIsAFailedTileAndNotTheSourcesTileSize() throws {
    let folder = try makeTemporaryFolder(self)
    let empty = try HostileTiles.png(claiming: 0, 0)
    try writeMBTiles(at: folder + "/empty.mbtiles", metadata: [:], tiles: [(tile(0, 0, 0), empty)])
    try FileManager.default.createDirectory(atPath: folder + "/tiles/0/0", withIntermediateDirectories: true)
    try empty.write(to: URL(fileURLWithPath: folder + "/tiles/0/0/0.png"))

    for source in [
      try MBTilesSource(path: folder + "/empty.mbtiles") as any TileSource,
      try DirectoryTileSource(path: folder + "/tiles"),
    ] {
      // The sampled header says 0: no tile size can come of it.
      XCTAssertEqual(source.tileSize, 256, "\(source)")
      let loaded = try TileLoader(source: source).load([tile(0, 0, 0)])
      XCTAssertEqual(loaded.images.count, 0)
      XCTAssertEqual(loaded.failed.map(\.description), ["tile 0/0/0: tile is 0×0 pixels, expected 256×256"])
    }
  }

  func testDeclaredTileSizesThatCannotBeDrawnAreRefusedNamingTheSource() throws {
    let folder = try makeTemporaryFolder(self)
    let png = try HostileTiles.png()
    for value in ["0", "-256", "NaN", "1e9", "1000000000", "4611686018427387904", "abc", "8"] {
      let path = folder + "/size-\(value).mbtiles"
      try writeMBTiles(at: path, metadata: ["tilesize": value], tiles: [(tile(0, 0, 0), png)])
      XCTAssertThrowsError(try MBTilesSource(path: path), value) { error in
        XCTAssertEqual(
          "\(error)",
          "tile source \(path) declares tiles of \(value) pixels ('tilesize' in its metadata); tiles must be"
            + " 16 to 1024 pixels a side")
      }
    }
    for (index, (json, shown)) in [
      ("0", "0"), ("-1", "-1"), ("1000000000", "1000000000"), ("1e300", "1e+300"), ("\"NaN\"", "\"NaN\""),
      ("2048", "2048"),
    ].enumerated() {
      let tiles = folder + "/folder-\(index)"
      try FileManager.default.createDirectory(atPath: tiles + "/0/0", withIntermediateDirectories: true)
      try png.write(to: URL(fileURLWithPath: tiles + "/0/0/0.png"))
      try Data("{\"tileSize\": \(json)}".utf8).write(to: URL(fileURLWithPath: tiles + "/metadata.json"))
      XCTAssertThrowsError(try DirectoryTileSource(path: tiles), json) { error in
        XCTAssertEqual(
          "\(error)",
          "tile source \(tiles) declares tiles of \(shown) pixels (tileSize in metadata.json); tiles must be"
            + " 16 to 1024 pixels a side")
      }
    }
    // Sizes that can be drawn, written as tools write them, still open.
    try writeMBTiles(at: folder + "/ok.mbtiles", metadata: ["tile_size": " 512.0 "], tiles: [])
    XCTAssertEqual(try MBTilesSource(path: folder + "/ok.mbtiles").tileSize, 512)
  }

  func testTilesWhoseHeadersClaimAnotherSizeFailBeforeTheyAreDecoded() throws {
    let path = try makeTemporaryFolder(self) + "/liars.mbtiles"
    let good = try HostileTiles.png()
    // The liars come first at the lowest zoom, where the tile size is sampled: they are passed over.
    try writeMBTiles(
      at: path, metadata: [:],
      tiles: [
        (tile(1, 0, 0), try HostileTiles.png(claiming: 40_000, 40_000)),
        (tile(1, 1, 0), try HostileTiles.jpeg(claimingSide: 40_000)),
        (tile(1, 0, 1), try HostileTiles.webp(claimingSide: 16_383)),
        (tile(1, 1, 1), good),
      ])
    let source = try MBTilesSource(path: path)
    XCTAssertEqual(source.tileSize, 256)
    let loaded = try TileLoader(source: source).load([
      tile(1, 0, 0), tile(1, 1, 0), tile(1, 0, 1), tile(1, 1, 1),
    ])
    XCTAssertEqual(Array(loaded.images.keys), [tile(1, 1, 1)])
    XCTAssertEqual(
      loaded.failed.map(\.description),
      [
        "tile 1/0/0: tile is 40000×40000 pixels, expected 256×256",
        "tile 1/1/0: tile is 40000×40000 pixels, expected 256×256",
        "tile 1/0/1: tile is 16383×16383 pixels, expected 256×256",
      ])
  }

  func testADecompressionBombIsAFailedTileAndStopsEarly() throws {
    let bomb = try HostileTiles.pngBomb(side: 256, realHeight: 8192)
    XCTAssertEqual(PNGCodec.size(of: bomb)?.width, 256)
    XCTAssertThrowsError(try PNGCodec.decode(bomb, maximumSide: 256)) { error in
      XCTAssertEqual(
        "\(error)",
        "not a readable image (its image data inflates to more than the 196864 bytes a 256×256 PNG holds:"
          + " a decompression bomb)")
    }
    // The same rows without the excess decode as they should.
    let honest = try HostileTiles.pngBomb(side: 256, realHeight: 256)
    XCTAssertEqual(try PNGCodec.decode(honest, maximumSide: 256).width, 256)
  }

  func testTilesOverTheByteLimitAreFailedTilesAndAreNotRead() throws {
    let folder = try makeTemporaryFolder(self)
    let limit = TileLimits.maximumTileBytes
    let path = folder + "/big.mbtiles"
    try writeMBTiles(at: path, metadata: ["minzoom": "0", "maxzoom": "1"], tiles: [(tile(0, 0, 0), Data())])
    try sqliteExecute(
      path,
      "UPDATE tiles SET tile_data = zeroblob(\(limit + 1)); "
        + "INSERT INTO tiles VALUES (1, 0, 1, \(HostileTiles.sqlBlob(try HostileTiles.png())))")
    let tiles = folder + "/tiles"
    try FileManager.default.createDirectory(atPath: tiles + "/0/0", withIntermediateDirectories: true)
    // A sparse file: its size is what counts, and it is never read.
    XCTAssertTrue(FileManager.default.createFile(atPath: tiles + "/0/0/0.png", contents: nil))
    XCTAssertEqual(truncate(tiles + "/0/0/0.png", off_t(limit + 1)), 0)

    let mbtiles = try TileLoader(source: MBTilesSource(path: path)).load([tile(0, 0, 0), tile(1, 0, 0)])
    XCTAssertEqual(Array(mbtiles.images.keys), [tile(1, 0, 0)])
    XCTAssertEqual(
      mbtiles.failed.map(\.description),
      ["tile 0/0/0: its data has 4194305 bytes, more than the limit of 4 MiB"])
    let folderTiles = try TileLoader(source: DirectoryTileSource(path: tiles)).load([tile(0, 0, 0)])
    XCTAssertEqual(
      folderTiles.failed.map(\.description),
      ["tile 0/0/0: its file 0.png: it has 4194305 bytes, more than the limit of 4 MiB"])
  }

  func testPathsThatAreNotFilesAreRefusedAtOnce() throws {
    let folder = try makeTemporaryFolder(self)
    let pipe = folder + "/pipe.mbtiles"
    try makeNamedPipe(pipe)
    let pipeError = "\(pipe) is a named pipe (FIFO), not an MBTiles file"
    let results = finishing(within: 10, "opening a named pipe") { () -> [String] in
      [
        Self.error { _ = try openTileSource(at: pipe) },
        Self.error { _ = try MBTilesSource(path: pipe) },
        Self.error { _ = try TileCacheInventory(path: pipe) },
        Self.error {
          _ = try openTileCache(
            at: pipe,
            for: TileCacheDescription(source: "http://x/{z}/{x}/{y}.png", attribution: nil, tileSize: 256))
        },
      ]
    }
    XCTAssertEqual(
      results,
      [
        pipeError, pipeError, pipeError,
        "\(pipe) is not an MBTiles file (it is a named pipe (FIFO)); choose another cache",
      ])

    let archive = folder + "/pipe.pmtiles"
    try makeNamedPipe(archive)
    let pmtiles = finishing(within: 10, "opening a named pipe as a PMTiles archive") { () -> String in
      Self.error { _ = try PMTilesFile(path: archive) }
    }
    XCTAssertEqual(pmtiles, "\(PMTilesError.unreadable(path: archive, reason: "not a regular file"))")

    let namedLikeAFile = folder + "/folder.mbtiles"
    try FileManager.default.createDirectory(atPath: namedLikeAFile, withIntermediateDirectories: true)
    XCTAssertEqual(
      Self.error { _ = try openTileSource(at: namedLikeAFile) },
      "\(namedLikeAFile) is a folder, not an MBTiles file")
    XCTAssertEqual(
      Self.error { _ = try TileCacheInventory(path: namedLikeAFile) },
      "\(namedLikeAFile) is a folder, not an MBTiles file")
    if FileManager.default.fileExists(atPath: "/dev/zero") {
      XCTAssertEqual(
        Self.error { _ = try openTileSource(at: "/dev/zero") },
        "/dev/zero is a character device, not a tile folder or an MBTiles file")
    }
  }

  func testNamedPipesInsideATileFolderDoNotBlock() throws {
    let tiles = try makeTemporaryFolder(self) + "/tiles"
    try FileManager.default.createDirectory(atPath: tiles + "/0/0", withIntermediateDirectories: true)
    try makeNamedPipe(tiles + "/0/0/0.png")
    let outcome = finishing(within: 10, "a tile folder with a named pipe as a tile") { () -> String in
      do {
        let loaded = try TileLoader(source: DirectoryTileSource(path: tiles)).load([tile(0, 0, 0)])
        return loaded.failed.map(\.description).joined()
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(outcome, "tile 0/0/0: its file 0.png: it is a named pipe (FIFO), not a file")

    try makeNamedPipe(tiles + "/metadata.json")
    let metadata = finishing(within: 10, "a named pipe as metadata.json") {
      Self.error { _ = try DirectoryTileSource(path: tiles) }
    }
    XCTAssertEqual(
      metadata, "bad tile metadata in \(tiles)/metadata.json: it is a named pipe (FIFO), not a file")
  }

  func testEndlessTilesViewsAreStoppedWithAnError() throws {
    let folder = try makeTemporaryFolder(self)
    let recursive = folder + "/recursive.mbtiles"
    try sqliteExecute(
      recursive,
      """
      CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE VIEW tiles AS WITH RECURSIVE r(zoom_level, tile_column, tile_row, tile_data) AS (
        SELECT 0, 0, 0, x'00' UNION ALL SELECT zoom_level, tile_column + 1, tile_row, tile_data FROM r)
        SELECT * FROM r;
      """)
    let multiplied = folder + "/multiplied.mbtiles"
    try sqliteExecute(
      multiplied,
      """
      CREATE TABLE t (a INTEGER);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO t SELECT i FROM n;
      CREATE VIEW tiles AS SELECT 3 AS zoom_level, a.a AS tile_column, b.a AS tile_row, x'00' AS tile_data
        FROM t AS a, t AS b, t AS c, t AS d, t AS e;
      """)
    for path in [recursive, multiplied] {
      let messages = finishing(within: 60, "reading \(path)") { () -> [String] in
        [
          Self.error { _ = try MBTilesSource(path: path) },
          Self.error { _ = try TileCacheInventory(path: path) },
        ]
      }
      for message in messages ?? [] {
        XCTAssertTrue(
          message.hasPrefix("cannot read tile source \(path): reading its tiles did not finish within "),
          message)
        XCTAssertTrue(
          message.hasSuffix(" SQLite steps (is its 'tiles' table a view that never ends?)"), message)
      }
    }
    // With zooms in the metadata, opening needs no query over the view: reading a tile stops the same way.
    try sqliteExecute(recursive, "INSERT INTO metadata VALUES ('minzoom', '0'), ('maxzoom', '0')")
    let tileError = finishing(within: 60, "reading a tile of the recursive view") { () -> String in
      // No row of the view is at zoom 1: the search never ends.
      Self.error { _ = try MBTilesSource(path: recursive).tileData(tile(1, 0, 0)) }
    }
    XCTAssertEqual(tileError?.hasPrefix("cannot read tile source \(recursive): reading its tiles"), true)
  }

  func testAnEndlessTriggerInACacheEndsTheWriteWithAnError() throws {
    let path = try makeTemporaryFolder(self) + "/cache.mbtiles"
    let description = TileCacheDescription(
      source: "http://x/{z}/{x}/{y}.png", attribution: nil, tileSize: 256)
    try openTileCache(at: path, for: description).commit()
    try sqliteExecute(
      path,
      """
      CREATE TABLE junk (i INTEGER);
      CREATE TRIGGER endless AFTER INSERT ON tiles BEGIN
        INSERT INTO junk WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i FROM r;
      END;
      """)
    let outcome = finishing(within: 60, "writing into a cache with an endless trigger") { () -> String in
      Self.error {
        let cache = try openTileCache(at: path, for: description)
        try cache.store(
          tile(0, 0, 0), data: try HostileTiles.png(),
          freshness: TileFreshness(
            etag: nil, lastModified: nil, expires: Date(), fetched: Date()))
        try cache.commit()
      }
    }
    XCTAssertEqual(
      outcome?.hasPrefix("tile cache database \(path) failed: a query did not finish within "), true,
      outcome ?? "")
    XCTAssertEqual(try sqliteRows(path, "SELECT COUNT(*) FROM tiles"), [["0"]])
  }

  func testRowsOutsideTheTileGridAreIgnored() throws {
    let path = try makeTemporaryFolder(self) + "/odd.mbtiles"
    let png = HostileTiles.sqlBlob(try HostileTiles.png())
    try writeMBTiles(at: path, metadata: [:], tiles: [(tile(0, 0, 0), try HostileTiles.png())])
    try sqliteExecute(
      path,
      """
      INSERT INTO tiles VALUES (99, 0, 0, \(png)), (-5, 0, 0, \(png)), (4611686018427387904, 0, 0, \(png)),
        ('x', 0, 0, \(png)), (0.5, 0, 0, \(png)), (1, -1, 0, \(png)),
        (1, 0, -9223372036854775808, \(png)), (1, 0, 9223372036854775807, \(png));
      CREATE TABLE mymap_freshness (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, etag TEXT,
        last_modified TEXT, expires REAL, fetched REAL);
      """)
    let inventory = try TileCacheInventory(path: path)
    XCTAssertEqual(inventory.zooms.map(\.zoom), [0, 1])
    XCTAssertEqual(inventory.zooms.first?.tiles, 1)
    // Listing the tiles turns each row around: rows of ±2^63 must not overflow.
    let listed = try inventory.tiles(olderThan: Date().addingTimeInterval(86_400))
    XCTAssertEqual(listed.map(\.relativePath), ["0/0/0"])
    XCTAssertEqual(try MBTilesSource(path: path).zoomRange, 0...1)
  }

  func testFetchDatesThatAreNoDatesAreIgnored() throws {
    let path = try makeTemporaryFolder(self) + "/dates.mbtiles"
    let png = try HostileTiles.png()
    try writeMBTiles(
      at: path, metadata: [:], tiles: [(tile(0, 0, 0), png), (tile(1, 0, 0), png), (tile(1, 1, 0), png)])
    try sqliteExecute(
      path,
      """
      CREATE TABLE mymap_freshness (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, etag TEXT,
        last_modified TEXT, expires REAL, fetched REAL);
      INSERT INTO mymap_freshness VALUES (0, 0, 0, NULL, NULL, 0, 9e999), (1, 0, 1, NULL, NULL, 0, -9e999),
        (1, 1, 1, NULL, NULL, 0, 1e308);
      """)
    let inventory = try TileCacheInventory(path: path)
    XCTAssertEqual(inventory.tilesWithoutFetchDate, 3)
    XCTAssertTrue(inventory.oldestIsFileDate)
    XCTAssertEqual(inventory.oldest, inventory.newest)
    XCTAssertLessThan(abs(inventory.newest?.timeIntervalSinceNow ?? .infinity), 600)
  }

  func testMetadataOfAnyTypeIsReadAndOversizedMetadataIsRefused() throws {
    let folder = try makeTemporaryFolder(self)
    let typed = folder + "/typed.mbtiles"
    try writeMBTiles(at: typed, metadata: [:], tiles: [(tile(0, 0, 0), try HostileTiles.png(side: 512))])
    try sqliteExecute(
      typed,
      """
      INSERT INTO metadata VALUES ('attribution', x'C2A920FF54696C6573'), ('minzoom', x'00FF'),
        ('maxzoom', 3), ('tilesize', 512.0), ('bounds', 5);
      """)
    let source = try MBTilesSource(path: typed)
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertEqual(source.zoomRange, 0...3)
    XCTAssertEqual(source.attribution?.hasPrefix("©"), true)
    XCTAssertNil(source.bounds)

    let long = folder + "/long.mbtiles"
    try writeMBTiles(
      at: long, metadata: ["attribution": String(repeating: "©", count: 40_000)], tiles: [])
    XCTAssertThrowsError(try MBTilesSource(path: long)) { error in
      XCTAssertEqual(
        "\(error)",
        "bad tile metadata in \(long): the value of 'attribution' has 80000 bytes, more than the limit of"
          + " 64 KiB")
    }
    let many = folder + "/many.mbtiles"
    try writeMBTiles(at: many, metadata: [:], tiles: [])
    try sqliteExecute(
      many,
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
        + "INSERT INTO metadata SELECT 'attribution', 'x' FROM n")
    XCTAssertThrowsError(try MBTilesSource(path: many)) { error in
      XCTAssertTrue(
        "\(error)".hasPrefix("bad tile metadata in \(many): more than 256 entries named"), "\(error)")
    }
  }

  func testALoaderRefusesASourceWhoseTileSizeCannotBeDrawn() throws {
    for size in [0, -1, 1_000_000_000] {
      let source = FixedSizeSource(tileSize: size)
      XCTAssertThrowsError(try TileLoader(source: source).load([tile(0, 0, 0)]), "\(size)") { error in
        XCTAssertEqual(
          "\(error)",
          "tile source fixed declares tiles of \(size) pixels (its tile size); tiles must be 16 to 1024"
            + " pixels a side")
      }
    }
  }

  /// The description of the error `body` throws, or "no error".
  private static func error(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "no error"
    } catch {
      return "\(error)"
    }
  }
}

/// A source of any tile size, with one valid 256-pixel tile everywhere.
private struct FixedSizeSource: TileSource {
  let tileSize: Int
  var attribution: String? { nil }
  var zoomRange: ClosedRange<Int> { 0...3 }
  var description: String { "fixed" }

  func tileData(_ id: TileID) throws -> Data? { try HostileTiles.png() }
}
