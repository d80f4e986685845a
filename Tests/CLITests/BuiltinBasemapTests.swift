import Foundation
import TestSupport
import XCTest

/// The built-in basemap as a user meets it: the default when no tile source is named, `--tiles builtin`
/// explicitly, and what happens when its data file is missing.
final class BuiltinBasemapTests: XCTestCase {
  private let data = RepositoryPaths.root.appendingPathComponent("Data/basemap.sqlite").path

  private func render(_ sandbox: Sandbox, _ extra: [String], environment: [String: String]) throws
    -> CLIResult
  {
    try sandbox.run(
      ["render", "--locations", Inputs.europeTrip, "--size", "300x200", "--layout-json", "-"] + extra,
      environment: environment)
  }

  func testTheBuiltInBasemapIsTheDefault() throws {
    let sandbox = try Sandbox()
    for extra in [["--out", "default.png"], ["--out", "explicit.png", "--tiles", "builtin"]] {
      let result = try render(sandbox, extra, environment: ["MYMAP_BASEMAP": data])
      assertSucceeded(result)
      let layout = try Layout(result.stdout)
      XCTAssertEqual(layout.tiles["source"] as? String, "builtin", "\(extra)")
      XCTAssertTrue(layout.tiles["zoom"] is NSNull, "\(extra)")
    }
    XCTAssertEqual(sandbox.contents(of: "default.png"), sandbox.contents(of: "explicit.png"))
  }

  func testWithoutItsDataTheDefaultFallsBackAndAnExplicitRequestFails() throws {
    let sandbox = try Sandbox()
    let missing = ["MYMAP_BASEMAP": sandbox.url.appendingPathComponent("nowhere.sqlite").path]
    let fallback = try render(sandbox, ["--out", "plain.png"], environment: missing)
    XCTAssertEqual(fallback.status, 0, fallback.transcript)
    XCTAssertEqual(try Layout(fallback.stdout).tiles["source"] as? String, "none")
    XCTAssertTrue(
      fallback.stderrLines.contains {
        $0.hasPrefix("mymap: warning: the built-in basemap data was not found")
      },
      fallback.transcript)
    let explicit = try render(sandbox, ["--out", "builtin.png", "--tiles", "builtin"], environment: missing)
    XCTAssertEqual(explicit.status, 3, explicit.transcript)
    XCTAssertTrue(explicit.stderr.hasPrefix("mymap: error: the built-in basemap data was not found"))
    XCTAssertNil(sandbox.contents(of: "builtin.png"), "nothing is written")
  }
}
