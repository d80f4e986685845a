import Foundation
import XCTest

/// Exit 4 with `--offline` when tiles are missing; placeholders and warnings without it; `--quiet`.
///
/// The example tiles cover the world only at zoom 0–2 and Europe at zoom 3–6, so a map of California or Japan
/// at a useful zoom has no tiles.
final class OfflineAndWarningTests: XCTestCase {
  func testOfflineFailsWhenTilesAreMissingAndWritesNothing() throws {
    let sandbox = try Sandbox()
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    let result = try sandbox.run(
      [
        "render", "--locations", california, "--tiles", Inputs.europeTiles, "--size", "300x200", "--offline",
        "--out", "ca.png", "--layout-json", "ca.json",
      ])
    assertFailed(
      result, status: 4, prefix: "",
      containing: ["tiles are missing from \(Inputs.europeTiles)", "nothing was written (--offline)"])
    XCTAssertEqual(try sandbox.files(), ["california.json"])
  }

  func testOfflineFailsForJapanGeoJSONToo() throws {
    let sandbox = try Sandbox()
    let japan = try sandbox.write(Inputs.japanGeoJSON, to: "japan.geojson")
    let result = try sandbox.run(
      [
        "render", "--locations", japan, "--tiles", Inputs.europeTiles, "--size", "200x150", "--offline",
        "--out", "-",
      ])
    assertFailed(result, status: 4, prefix: "", containing: ["tiles are missing from \(Inputs.europeTiles)"])
    XCTAssertEqual(try sandbox.files(), ["japan.geojson"])
  }

  func testWithoutOfflineMissingTilesAreDrawnAsPlaceholders() throws {
    let sandbox = try Sandbox()
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    let result = try sandbox.run(
      [
        "render", "--locations", california, "--tiles", Inputs.europeTiles, "--size", "300x200",
        "--out", "ca.png", "--layout-json", "-",
      ])
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "ca.png"), width: 300, height: 200)
    let placeholders = result.stderrLines.filter { $0.contains("drawn as placeholders") }
    XCTAssertEqual(placeholders.count, 1, result.transcript)
    XCTAssertTrue(
      placeholders.first?.hasPrefix("mymap: warning: ") == true
        && placeholders.first?.contains("tiles are not in \(Inputs.europeTiles)") == true,
      result.transcript)
    let tiles = try Layout(result.stdout).tiles
    let missing = try XCTUnwrap(number(tiles["missing"]))
    XCTAssertGreaterThan(missing, 0)
    XCTAssertEqual(number(tiles["needed"]), (number(tiles["drawn"]) ?? -1) + missing)
  }

  func testOfflineSucceedsWhenEveryTileIsThere() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--offline", "--out", "europe.png", "--layout-json", "-"], size: "800x600"))
    assertSucceeded(result)
    XCTAssertEqual(number(try Layout(result.stdout).tiles["missing"]), 0)
    XCTAssertFalse(result.stderr.contains("placeholder"), result.transcript)
  }

  func testUnknownCategoryWarnsAndRenders() throws {
    let sandbox = try Sandbox()
    let input = try sandbox.write(
      #"{ "locations": [ { "id": "cape", "latitude": 48.8, "longitude": 2.3, "category": "Spaceport" } ] }"#,
      to: "odd.json")
    let result = try sandbox.run(
      [
        "render", "--locations", input, "--tiles", Inputs.europeTiles, "--size", "300x200", "--out",
        "odd.png",
      ])
    assertSucceeded(result)
    XCTAssertTrue(result.stdout.isEmpty)
    let warnings = result.stderrLines.filter { $0.contains("Spaceport") }
    XCTAssertEqual(warnings.count, 1, result.transcript)
    XCTAssertTrue(
      warnings.first?.hasPrefix(#"mymap: warning: location 1: unknown category "Spaceport""#) == true,
      result.transcript)
    assertPNG(sandbox.contents(of: "odd.png"), width: 300, height: 200)
  }

  func testQuietSuppressesWarnings() throws {
    let sandbox = try Sandbox()
    let input = try sandbox.write(
      #"{ "locations": [ { "id": "cape", "latitude": 48.8, "longitude": 2.3, "category": "Spaceport" } ] }"#,
      to: "odd.json")
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    for arguments in [
      ["render", "--locations", input, "--size", "300x200", "--quiet", "--out", "odd.png"],
      [
        "render", "--locations", california, "--tiles", Inputs.europeTiles, "--size", "300x200", "-q",
        "--out", "ca.png",
      ],
      Inputs.renderEurope(["-q", "--out", "europe.png"], size: "100x80"),
    ] {
      let result = try sandbox.run(arguments)
      XCTAssertEqual(result.status, 0, result.transcript)
      XCTAssertEqual(result.stderr, "", "--quiet prints nothing: \(result.transcript)")
    }
    XCTAssertEqual(
      try sandbox.files(), ["ca.png", "california.json", "europe.png", "odd.json", "odd.png"])
  }

  func testQuietStillPrintsErrors() throws {
    let result = try Sandbox().run(Inputs.renderEurope(["-q", "--zoom", "23"]))
    assertFailed(result, status: 2, message: "invalid value '23' for --zoom: expected a zoom from 0 to 22")
  }
}
