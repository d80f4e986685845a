import Foundation
import TestSupport
import XCTest

/// Tile inputs that lie, as a user would meet them on the command line: each ends in exit 0 with a warning
/// naming the tile, exit 3 naming the source, or exit 4 — never a crash (exit 132), a hang, exit 1, or a
/// 404 for what was not one.
final class HostileTileInputTests: XCTestCase {
  /// An MBTiles file with the given tiles at zoom 0 (XYZ 0/0/0) and metadata.
  private func mbtiles(_ sandbox: Sandbox, _ name: String, tile: Data, metadata: [String: String] = [:])
    throws -> String
  {
    let path = sandbox.path(name)
    let rows = metadata.map { "('\($0.key)', '\($0.value)')" }
    try sqliteExecute(
      path,
      """
      CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
      INSERT INTO tiles VALUES (0, 0, 0, \(HostileTiles.sqlBlob(tile)));
      """ + (rows.isEmpty ? "" : "INSERT INTO metadata VALUES \(rows.joined(separator: ", "));"))
    return path
  }

  /// A tile folder with one tile, `0/0/0.png`, and a `metadata.json` when given.
  private func folder(_ sandbox: Sandbox, _ name: String, tile: Data, metadata: String? = nil) throws
    -> String
  {
    try sandbox.write(tile, to: name + "/0/0/0.png")
    if let metadata { try sandbox.write(metadata, to: name + "/metadata.json") }
    return sandbox.path(name)
  }

  private func render(_ tiles: String, _ extra: [String] = []) -> [String] {
    [
      "render", "--locations", Inputs.europeTrip, "--tiles", tiles, "--size", "200x150", "--callouts", "none",
      "--out", "map.png", "--attribution", "Tiles: a test",
    ] + extra
  }

  func testA0x0TileIsAPlaceholderWithAWarningAndExit4Offline() throws {
    let sandbox = try Sandbox()
    let empty = try HostileTiles.png(claiming: 0, 0)
    for source in [
      try mbtiles(sandbox, "empty.mbtiles", tile: empty), try folder(sandbox, "empty", tile: empty),
    ] {
      let offline = try sandbox.run(render(source, ["--offline"]))
      assertFailed(
        offline, status: 4,
        message: "tile 0/0/0 of \(source) cannot be drawn: tile is 0×0 pixels, expected 256×256; nothing was"
          + " written")
      XCTAssertNil(sandbox.contents(of: "map.png"))

      let result = try sandbox.run(render(source))
      assertSucceeded(result)
      XCTAssertEqual(
        result.stderrLines,
        [
          "mymap: warning: tile 0/0/0 of \(source): tile is 0×0 pixels, expected 256×256; drawn as a placeholder"
        ])
      assertPNG(sandbox.contents(of: "map.png"), width: 200, height: 150)
      try FileManager.default.removeItem(atPath: sandbox.path("map.png"))
    }
  }

  func testATileWhoseHeaderClaims40000PixelsIsNamedInAWarning() throws {
    let sandbox = try Sandbox()
    let source = try mbtiles(sandbox, "huge.mbtiles", tile: try HostileTiles.png(claiming: 40_000, 40_000))
    let result = try sandbox.run(render(source))
    assertSucceeded(result)
    XCTAssertEqual(
      result.stderrLines,
      [
        "mymap: warning: tile 0/0/0 of \(source): tile is 40000×40000 pixels, expected 256×256; drawn as a"
          + " placeholder"
      ])
  }

  func testATileSizeThatCannotBeDrawnIsExit3NamingTheSource() throws {
    let sandbox = try Sandbox()
    let png = try HostileTiles.png()
    let tileFolder = try folder(sandbox, "tiles", tile: png, metadata: #"{"tileSize": 1000000000}"#)
    let file = try mbtiles(sandbox, "zero.mbtiles", tile: png, metadata: ["tilesize": "0"])
    for (source, value, place) in [
      (tileFolder, "1000000000", "tileSize in metadata.json"), (file, "0", "'tilesize' in its metadata"),
    ] {
      assertFailed(
        try sandbox.run(render(source)), status: 3,
        message:
          "tile source \(source) declares tiles of \(value) pixels (\(place)); tiles must be 16 to 1024"
          + " pixels a side")
    }
    XCTAssertNil(sandbox.contents(of: "map.png"))
  }

  func testANamedPipeOrAFolderNamedLikeAnMBTilesFileIsExit3AtOnce() throws {
    let sandbox = try Sandbox()
    let pipe = sandbox.path("pipe.mbtiles")
    try makeNamedPipe(pipe)
    assertFailed(
      try sandbox.run(render(pipe)), status: 3, message: "\(pipe) is a named pipe (FIFO), not an MBTiles file"
    )
    assertFailed(
      try sandbox.run(["tiles", "info", pipe]), status: 3,
      message: "\(pipe) is a named pipe (FIFO), not an MBTiles file")
    try FileManager.default.createDirectory(
      atPath: sandbox.path("dir.mbtiles"), withIntermediateDirectories: true)
    assertFailed(
      try sandbox.run(render(sandbox.path("dir.mbtiles"))), status: 3,
      message: "\(sandbox.path("dir.mbtiles")) is a folder, not an MBTiles file")
    XCTAssertNil(sandbox.contents(of: "map.png"))
  }

  func testAnEndlessTilesViewIsExit3() throws {
    let sandbox = try Sandbox()
    let path = sandbox.path("endless.mbtiles")
    try sqliteExecute(
      path,
      """
      CREATE VIEW tiles AS WITH RECURSIVE r(zoom_level, tile_column, tile_row, tile_data) AS (
        SELECT 0, 0, 0, x'00' UNION ALL SELECT zoom_level, tile_column + 1, tile_row, tile_data FROM r)
        SELECT * FROM r;
      """)
    for arguments in [["tiles", "info", path], render(path)] {
      assertFailed(
        try sandbox.run(arguments), status: 3,
        prefix: "cannot read tile source \(path): reading its tiles did not finish within ",
        containing: [" SQLite steps (is its 'tiles' table a view that never ends?)"])
    }
    XCTAssertNil(sandbox.contents(of: "map.png"))
  }

  func testARedirectToAFileURLIsAFailedTileAndExit4() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let url = "\(server.baseURL)/redirect/{z}/{x}/{y}.png?to=file%3A%2F%2F%2Fetc%2Fhostname"
    let result = try sandbox.run(
      ["tiles", "fetch", "--url", url, "--bbox", "1,1,2,2", "--zoom", "0", "--to", "tiles", "-q"])
    assertFailed(
      result, status: 4,
      message:
        "1 of 1 tiles could not be fetched: 1 × redirect not followed; the first: cannot fetch tile 0/0/0"
        + " from \(url): the server redirected to file:///etc/hostname, which mymap does not follow (only http"
        + " and https)")
    XCTAssertEqual(server.requests().map(\.path), ["/redirect/0/0/0.png"])
    XCTAssertEqual(server.requestsOutsideAnyNamespace().map(\.path), [], "no request for the file's path")
    XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("tiles/0/0/0.png")))
  }
}
