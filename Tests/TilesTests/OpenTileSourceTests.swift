import Foundation
import TestSupport
import Tiles
import XCTest

final class OpenTileSourceTests: XCTestCase {
  func testOpensByKind() throws {
    XCTAssertTrue(try openTileSource(at: worldFixturePath) is MBTilesSource)
    XCTAssertTrue(try openTileSource(at: makeTemporaryFolder(self)) is DirectoryTileSource)
    // An SQLite file is recognized by its header whatever its name.
    let renamed = try makeTemporaryFolder(self) + "/basemap.db"
    try FileManager.default.copyItem(atPath: worldFixturePath, toPath: renamed)
    XCTAssertEqual(try openTileSource(at: renamed).zoomRange, 0...5)
  }

  func testErrors() throws {
    let folder = try makeTemporaryFolder(self)
    let text = folder + "/notes.txt"
    try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
    let garbage = folder + "/tiles.mbtiles"
    try Data("hello, I am not SQLite at all, not even a little".utf8).write(to: URL(fileURLWithPath: garbage))
    let cases: [(String, TileSourceError)] = [
      (folder + "/nothing-here", .notFound(folder + "/nothing-here")),
      (text, .notATileSource(text)),
      (garbage, .notAnSQLiteDatabase(garbage)),
      (
        "https://tile.example.org/{z}/{x}/{y}.png",
        .urlTemplateNotSupported("https://tile.example.org/{z}/{x}/{y}.png")
      ),
      (
        "HTTP://tile.example.org/{z}/{x}/{y}.png",
        .urlTemplateNotSupported("HTTP://tile.example.org/{z}/{x}/{y}.png")
      ),
    ]
    for (path, expected) in cases {
      XCTAssertThrowsError(try openTileSource(at: path), path) {
        XCTAssertEqual($0 as? TileSourceError, expected)
      }
    }
  }

  func testMessages() {
    let messages: [(TileSourceError, String)] = [
      (.notFound("/x/tiles"), "tile source /x/tiles does not exist"),
      (
        .notATileSource("/x/a.txt"),
        "/x/a.txt is not a tile source (expected a tile directory {z}/{x}/{y}.png or an .mbtiles file)"
      ),
      (
        .notAnSQLiteDatabase("/x/a.mbtiles"),
        "/x/a.mbtiles is not an MBTiles file (it is not an SQLite database)"
      ),
      (.noTilesTable("/x/a.db"), "/x/a.db is not an MBTiles file (the SQLite database has no 'tiles' table)"),
      (
        .unreadable("/x/a.mbtiles", "permission denied"),
        "cannot read tile source /x/a.mbtiles: permission denied"
      ),
      (
        .badMetadata("/x/metadata.json", "not valid JSON"),
        "bad tile metadata in /x/metadata.json: not valid JSON"
      ),
      (
        .urlTemplateNotSupported("https://t/{z}/{x}/{y}.png"),
        "tile URL templates are not supported yet (https://t/{z}/{x}/{y}.png); use a tile directory or an .mbtiles file"
      ),
    ]
    for (error, message) in messages {
      XCTAssertEqual(error.description, message)
      XCTAssertFalse(error.description.contains("\n"))
    }
  }
}
