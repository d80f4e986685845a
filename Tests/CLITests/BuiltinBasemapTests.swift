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

  /// A cron job must not publish blank maps: missing data fails (exit 3) whether the basemap was the
  /// default or named, with or without -q; the plain background is drawn only with --tiles none.
  func testWithoutItsDataRenderFailsUnlessAskedForAPlainBackground() throws {
    let sandbox = try Sandbox()
    let nowhere = sandbox.url.appendingPathComponent("nowhere.sqlite").path
    let missing = ["MYMAP_BASEMAP": nowhere]
    for extra in [["--out", "default.png"], ["--out", "builtin.png", "--tiles", "builtin"], ["-q"]] {
      let result = try render(sandbox, extra, environment: missing)
      assertFailed(
        result, status: 3, prefix: "the built-in basemap data was not found (\(nowhere) does not exist",
        containing: ["--tiles none"])
    }
    XCTAssertEqual(try sandbox.files(), [], "nothing is written")
    let plain = try render(sandbox, ["--out", "plain.png", "--tiles", "none"], environment: missing)
    assertSucceeded(plain)
    XCTAssertEqual(try Layout(plain.stdout).tiles["source"] as? String, "none")
    XCTAssertFalse(plain.stderr.contains("basemap"), "no warning: the plain background was asked for")
  }
}
