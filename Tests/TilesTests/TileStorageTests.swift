import Foundation
import MapMath
import TestSupport
import Tiles
import VectorTiles
import XCTest

/// One place decides what a path is (folder, MBTiles, PMTiles) and what its tiles hold (images or vector
/// tiles); vector tiles read the same from an MBTiles file and a PMTiles archive.
final class TileStorageTests: XCTestCase {
  private let helsinkiMBTiles = RepositoryPaths.examples.appendingPathComponent("tiles/helsinki.mbtiles").path
  private let helsinkiPMTiles = RepositoryPaths.examples.appendingPathComponent("tiles/helsinki.pmtiles").path

  private func sourceError(_ path: String) -> TileSourceError? {
    do {
      _ = try TileStorage.kind(ofSource: path)
      return nil
    } catch {
      return error
    }
  }

  func testWhatASourcePathIs() throws {
    let folder = try makeTemporaryFolder(self)
    XCTAssertEqual(try TileStorage.kind(ofSource: folder), .folder)
    XCTAssertEqual(try TileStorage.kind(ofSource: helsinkiMBTiles), .mbtiles)
    XCTAssertEqual(try TileStorage.kind(ofSource: helsinkiPMTiles), .pmtiles)
    // By content, whatever the name says.
    let sqlite = folder + "/tiles.db"
    try FileManager.default.copyItem(atPath: helsinkiMBTiles, toPath: sqlite)
    XCTAssertEqual(try TileStorage.kind(ofSource: sqlite), .mbtiles)
    let archive = folder + "/archive.bin"
    try FileManager.default.copyItem(atPath: helsinkiPMTiles, toPath: archive)
    XCTAssertEqual(try TileStorage.kind(ofSource: archive), .pmtiles)
    let misnamed = folder + "/really-pmtiles.mbtiles"
    try FileManager.default.copyItem(atPath: helsinkiPMTiles, toPath: misnamed)
    XCTAssertEqual(try TileStorage.kind(ofSource: misnamed), .pmtiles)

    let text = folder + "/notes.txt"
    try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
    XCTAssertEqual(sourceError(text), .notATileSource(text))
    try FileManager.default.createDirectory(atPath: folder + "/x.mbtiles", withIntermediateDirectories: false)
    XCTAssertEqual(sourceError(folder + "/x.mbtiles"), .notAFile(folder + "/x.mbtiles", kind: "a folder"))
    XCTAssertEqual(mkfifo(folder + "/pipe.pmtiles", 0o600), 0)
    XCTAssertEqual(
      sourceError(folder + "/pipe.pmtiles"), .notAFile(folder + "/pipe.pmtiles", kind: "a named pipe (FIFO)"))
    XCTAssertEqual(sourceError(folder + "/missing.pmtiles"), .notFound(folder + "/missing.pmtiles"))
    XCTAssertEqual(
      sourceError("https://example.org/{z}/{x}/{y}.png"),
      .urlTemplateNotSupported("https://example.org/{z}/{x}/{y}.png"))
  }

  func testWhatACachePathIs() throws {
    let folder = try makeTemporaryFolder(self)
    XCTAssertEqual(try TileStorage.kind(ofCache: folder + "/new.mbtiles"), .mbtiles)
    XCTAssertEqual(try TileStorage.kind(ofCache: folder + "/new-folder"), .folder)
    XCTAssertEqual(try TileStorage.kind(ofCache: folder), .folder)
    let sqlite = folder + "/tiles.db"
    try FileManager.default.copyItem(atPath: helsinkiMBTiles, toPath: sqlite)
    XCTAssertEqual(try TileStorage.kind(ofCache: sqlite), .mbtiles)
    let text = folder + "/notes.txt"
    try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
    XCTAssertThrowsError(try TileStorage.kind(ofCache: text)) { error in
      XCTAssertEqual(error as? TileCacheError, .notAFolder(text))
    }
  }

  func testVectorTilesReadTheSameFromMBTilesAndPMTiles() throws {
    let mbtiles = try openTileSource(at: helsinkiMBTiles)
    let pmtiles = try openTileSource(at: helsinkiPMTiles)
    for source in [mbtiles, pmtiles] {
      XCTAssertEqual(source.content, .vector, "\(source)")
      XCTAssertEqual(source.tileSize, 512, "\(source)")
      XCTAssertEqual(source.zoomRange, 0...14, "\(source)")
      XCTAssertEqual(source.attribution, "© OpenMapTiles © OpenStreetMap contributors", "\(source)")
    }
    XCTAssertTrue(pmtiles is PMTilesSource)
    var checked = 0
    for (z, x, y) in [(14, 9326, 4742), (14, 9327, 4742), (13, 4663, 2371), (5, 18, 9), (0, 0, 0)] {
      let id = tile(z, x, y)
      let fromMBTiles = try XCTUnwrap(try mbtiles.vectorTileBytes(id), "\(id)")
      let fromPMTiles = try XCTUnwrap(try pmtiles.vectorTileBytes(id), "\(id)")
      XCTAssertEqual(fromMBTiles, fromPMTiles, "\(id)")
      let decoded = try VectorTile(decoding: fromPMTiles)
      if z == 14 { XCTAssertTrue(decoded.layers.map(\.name).contains("transportation"), "\(id)") }
      checked += 1
    }
    XCTAssertEqual(checked, 5)
    XCTAssertNil(try pmtiles.vectorTileBytes(tile(14, 0, 0)))
  }

  func testAFormatMymapCannotDrawIsRefusedByName() throws {
    let folder = try makeTemporaryFolder(self)
    let path = folder + "/avif.mbtiles"
    try writeMBTiles(at: path, metadata: ["format": "avif"], tiles: [(tile(0, 0, 0), Data([1, 2, 3]))])
    XCTAssertThrowsError(try openTileSource(at: path)) { error in
      XCTAssertEqual(error as? TileSourceError, .unsupportedTiles(path, format: "avif"))
      XCTAssertEqual(
        "\(error)",
        "\(path) holds avif tiles, which mymap cannot draw (it draws PNG, JPEG and WebP images and Mapbox Vector"
          + " Tiles)")
    }
  }

  func testAFolderOfPBFFilesHoldsVectorTiles() throws {
    let folder = try makeTemporaryFolder(self) + "/vector"
    let mbtiles = try openTileSource(at: helsinkiMBTiles)
    let id = tile(14, 9326, 4742)
    let compressed = try XCTUnwrap(try mbtiles.tileData(id))
    try FileManager.default.createDirectory(atPath: folder + "/14/9326", withIntermediateDirectories: true)
    try compressed.write(to: URL(fileURLWithPath: folder + "/14/9326/4742.pbf"))
    let source = try openTileSource(at: folder)
    XCTAssertEqual(source.content, .vector)
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertEqual(try source.vectorTileBytes(id), try mbtiles.vectorTileBytes(id))
    XCTAssertNil(try source.vectorTileBytes(tile(14, 9326, 4743)))
  }
}
