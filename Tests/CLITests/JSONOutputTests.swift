import Foundation
import TestSupport
import XCTest

/// `--json` for scripts: `import`, `tiles info`, `tiles fetch` print one JSON object with the figures their
/// text gives; and every command's help ends with examples.
final class JSONOutputTests: XCTestCase {
  private func object(_ result: CLIResult, file: StaticString = #filePath, line: UInt = #line) throws
    -> [String: Any]
  {
    assertSucceeded(result, file: file, line: line)
    return try XCTUnwrap(
      JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stdoutText, file: file,
      line: line)
  }

  func testImportJSONCountsWhatWasAddedAndWhatWasThere() throws {
    let sandbox = try Sandbox()
    let dry = try object(try sandbox.run(["import", Inputs.europeTrip, "--dry-run", "--json"]))
    XCTAssertEqual(dry["dryRun"] as? Bool, true)
    XCTAssertEqual(dry["places"] as? Int, 13)
    XCTAssertEqual(dry["imported"] as? Int, 13)
    let first = try object(try sandbox.run(["import", Inputs.europeTrip, "--json"]))
    XCTAssertEqual(first["imported"] as? Int, 13)
    XCTAssertEqual(first["alreadyInStore"] as? Int, 0)
    XCTAssertEqual(first["warnings"] as? [String], [])
    let again = try object(try sandbox.run(["import", Inputs.europeTrip, "--json"]))
    XCTAssertEqual(again["imported"] as? Int, 0)
    XCTAssertEqual(again["alreadyInStore"] as? Int, 13)
  }

  func testTilesInfoJSONHasTheTableOfTheText() throws {
    let sandbox = try Sandbox()
    let text = try sandbox.run(["tiles", "info", Inputs.europeTiles])
    let info = try object(try sandbox.run(["tiles", "info", Inputs.europeTiles, "--json"]))
    XCTAssertEqual(info["kind"] as? String, "mbtiles")
    let total = try XCTUnwrap(text.stdoutText.split(separator: "\n").first { $0.hasPrefix("total") })
    let figures = total.split(separator: " ").dropFirst().map { Int($0) }
    XCTAssertEqual(figures, [info["tiles"] as? Int, info["bytes"] as? Int])
    let zooms = try XCTUnwrap(info["zooms"] as? [[String: Any]])
    XCTAssertEqual(zooms.compactMap { $0["tiles"] as? Int }.reduce(0, +), info["tiles"] as? Int)
  }

  func testTilesFetchJSONSaysWhatWasFetched() throws {
    let server = try LocalTileServer()
    defer { server.stop() }
    let sandbox = try Sandbox()
    let fetch = [
      "tiles", "fetch", "--url", FetchTesting.url(server, "ok"), "--bbox", "-10,-10,10,10", "--zoom", "0-3",
      "--attribution", "T", "--to", "tiles", "--json",
    ]
    let plan = try object(try sandbox.run(fetch + ["--dry-run"]))
    XCTAssertEqual(plan["dryRun"] as? Bool, true)
    XCTAssertEqual(plan["wouldFetch"] as? Int, 13)
    let done = try object(try sandbox.run(fetch))
    XCTAssertEqual(done["stored"] as? Int, 13)
    XCTAssertEqual(done["failed"] as? Int, 0)
    XCTAssertGreaterThan(try XCTUnwrap(done["bytes"] as? Int), 0)
    let again = try object(try sandbox.run(fetch))
    XCTAssertEqual(again["fresh"] as? Int, 13)
    XCTAssertEqual(again["stored"] as? Int, 0)
  }

  func testEveryCommandsHelpEndsWithExamples() throws {
    let sandbox = try Sandbox()
    let commands = [
      "render", "add", "list", "show", "edit", "delete", "categories", "import", "export", "tiles fetch",
      "tiles info", "tiles prune", "diff", "help", "completions",
    ]
    for command in commands {
      let help = try sandbox.run(command.split(separator: " ").map(String.init) + ["--help"]).stdoutText
      let examples = try XCTUnwrap(help.components(separatedBy: "\nEXAMPLES:\n").last, command)
      XCTAssertTrue(help.contains("\nEXAMPLES:\n"), command)
      XCTAssertTrue(examples.contains("mymap \(command.split(separator: " ")[0])"), "\(command): \(examples)")
    }
  }
}
