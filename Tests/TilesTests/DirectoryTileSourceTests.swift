import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

final class DirectoryTileSourceTests: XCTestCase {
  /// Writes `{z}/{x}/{y}.ext` files under `folder`.
  private func write(_ folder: String, _ files: [(String, Data)]) throws {
    for (name, data) in files {
      let url = URL(fileURLWithPath: folder + "/" + name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
    }
  }

  func testCacheWithMetadata() throws {
    let folder = try makeTemporaryFolder(self)
    try write(
      folder,
      [
        ("0/0/0.png", try pngTile(red: 10)),
        ("1/1/0.png", try pngTile(red: 20)),
        ("1/0/1.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0])),
        (
          "metadata.json",
          Data(
            #"{"attribution": "Tiles &copy; <b>Example</b>", "minzoom": "0", "maxzoom": 4, "tileSize": 512}"#
              .utf8)
        ),
      ])
    let source = try DirectoryTileSource(path: folder)
    XCTAssertEqual(source.description, folder)
    XCTAssertEqual(source.attribution, "Tiles © Example")
    XCTAssertEqual(source.zoomRange, 0...4)
    XCTAssertEqual(source.tileSize, 512)
    let top = try PNGCodec.decode(XCTUnwrap(source.tileData(tile(0, 0, 0))))
    XCTAssertEqual(top.pixel(x: 5, y: 5).red, 10)
    let northEast = try PNGCodec.decode(XCTUnwrap(source.tileData(tile(1, 1, 0))))
    XCTAssertEqual(northEast.pixel(x: 0, y: 0).red, 20)
    XCTAssertEqual(try source.tileData(tile(1, 0, 1)), Data([0xFF, 0xD8, 0xFF, 0xE0]))
    XCTAssertNil(try source.tileData(tile(1, 0, 0)))
    XCTAssertNil(try source.tileData(tile(3, 0, 0)))
  }

  func testZoomsAndSizeFromTheFiles() throws {
    let folder = try makeTemporaryFolder(self)
    try write(
      folder,
      [
        ("2/1/1.png", try pngTile(side: 512)), ("5/3/4.webp", Data("RIFF0000WEBP".utf8)),
        ("notes/readme.txt", Data("x".utf8)),
      ])
    let source = try DirectoryTileSource(path: folder)
    XCTAssertEqual(source.zoomRange, 2...5)
    XCTAssertEqual(source.tileSize, 512)
    XCTAssertNil(source.attribution)
    XCTAssertNotNil(try source.tileData(tile(5, 3, 4)))
  }

  func testTMSFolders() throws {
    let folder = try makeTemporaryFolder(self)
    try write(folder, [("1/0/1.png", try pngTile()), ("metadata.json", Data(#"{"scheme": "tms"}"#.utf8))])
    let source = try DirectoryTileSource(path: folder)
    XCTAssertTrue(source.usesTMSRows)
    XCTAssertNotNil(try source.tileData(tile(1, 0, 0)))  // row 1 from the south is row 0 from the north
    XCTAssertNil(try source.tileData(tile(1, 0, 1)))
  }

  func testEmptyFolder() throws {
    let source = try DirectoryTileSource(path: makeTemporaryFolder(self))
    XCTAssertEqual(source.zoomRange, 0...0)
    XCTAssertEqual(source.tileSize, 256)
    XCTAssertNil(try source.tileData(tile(0, 0, 0)))
  }

  func testBadMetadata() throws {
    let folder = try makeTemporaryFolder(self)
    try write(folder, [("metadata.json", Data("{ not json".utf8))])
    XCTAssertThrowsError(try DirectoryTileSource(path: folder)) { error in
      XCTAssertEqual(error as? TileSourceError, .badMetadata(folder + "/metadata.json", "not valid JSON"))
    }
    try write(folder, [("metadata.json", Data("[1, 2]".utf8))])
    XCTAssertThrowsError(try DirectoryTileSource(path: folder)) { error in
      XCTAssertEqual(
        error as? TileSourceError, .badMetadata(folder + "/metadata.json", "expected a JSON object"))
    }
  }

  func testAFileIsNotADirectorySource() throws {
    let file = try makeTemporaryFolder(self) + "/tile.png"
    try pngTile().write(to: URL(fileURLWithPath: file))
    XCTAssertThrowsError(try DirectoryTileSource(path: file)) { error in
      XCTAssertEqual(error as? TileSourceError, .notATileSource(file))
    }
  }
}
