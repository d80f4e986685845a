import Foundation
import TestSupport
import XCTest

/// Local tiles carry their credit: from their metadata, from --attribution, or, for a folder named after a
/// well-known tile server, that server's; a map left without one says so on stderr.
final class TileCreditTests: XCTestCase {
  private func tileFolder(_ sandbox: Sandbox, _ name: String) throws -> String {
    let tile = try HostileTiles.png()
    try sandbox.write(tile, to: name + "/0/0/0.png")
    return sandbox.path(name)
  }

  private func render(_ sandbox: Sandbox, _ tiles: String, _ extra: [String] = []) throws -> CLIResult {
    try sandbox.run(
      [
        "render", "--locations", Inputs.europeTrip, "--tiles", tiles, "--size", "300x200", "--callouts",
        "none", "--zoom", "0", "--scale-bar", "none", "--out", "map.png", "--layout-json", "map.json",
      ] + extra)
  }

  private func credit(_ sandbox: Sandbox) throws -> String? {
    let json = try XCTUnwrap(sandbox.contents(of: "map.json"))
    let layout = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    let plates = try XCTUnwrap(layout["plates"] as? [[String: Any]])
    return plates.first { $0["kind"] as? String == "attribution" }?["text"] as? String
  }

  func testAFolderWithoutMetadataIsDrawnWithAWarningThatItCarriesNoCredit() throws {
    let sandbox = try Sandbox()
    let folder = try tileFolder(sandbox, "tiles")
    let result = try render(sandbox, folder)
    assertSucceeded(result)
    XCTAssertEqual(
      result.stderrLines,
      [
        "mymap: warning: \(folder) names no credit for its tiles (no attribution in its metadata), so the map"
          + " carries none: give one with --attribution TEXT"
      ])
    XCTAssertNil(try credit(sandbox))
  }

  func testAFolderNamedAfterAKnownServerCarriesItsCredit() throws {
    let sandbox = try Sandbox()
    for name in ["cache/tile.openstreetmap.org", "cache/tile.openstreetmap.org-0a1b2c3d@2x/"] {
      let folder = try tileFolder(sandbox, name)
      let result = try render(sandbox, folder)
      assertSucceeded(result)
      XCTAssertEqual(result.stderr, "", name)
      XCTAssertEqual(try credit(sandbox), "© OpenStreetMap contributors", name)
    }
  }

  func testAttributionIsDrawnOverAnyTileSource() throws {
    let sandbox = try Sandbox()
    let folder = try tileFolder(sandbox, "tiles")
    let result = try render(sandbox, folder, ["--attribution", "© My Tiles"])
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "")
    XCTAssertEqual(try credit(sandbox), "© My Tiles")
    // A source whose metadata names its credit needs nothing more.
    let described = try render(sandbox, Inputs.europeTiles)
    assertSucceeded(described)
    XCTAssertEqual(described.stderr, "")
    XCTAssertNotNil(try credit(sandbox))
  }
}
