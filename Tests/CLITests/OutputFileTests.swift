import Foundation
import TestSupport
import XCTest

/// The same command gives the same bytes, and outputs are replaced atomically or not at all.
final class OutputFileTests: XCTestCase {
  func testTheSameCommandTwiceGivesIdenticalBytes() throws {
    let sandbox = try Sandbox()
    for format in ["png", "svg", "pdf"] {
      for run in 1...2 {
        let result = try sandbox.run(
          Inputs.renderEurope(
            ["--out", "\(run).\(format)", "--user", "48.85,2.35,500", "-q"], size: "300x200"))
        assertSucceeded(result)
      }
      let first = try XCTUnwrap(sandbox.contents(of: "1.\(format)"), format)
      let second = try XCTUnwrap(sandbox.contents(of: "2.\(format)"), format)
      XCTAssertFalse(first.isEmpty, format)
      XCTAssertTrue(first == second, "\(format): two runs differ (\(first.count) and \(second.count) bytes)")
    }
  }

  func testStdoutIsIdenticalToTheFile() throws {
    let sandbox = try Sandbox()
    let file = try sandbox.run(Inputs.renderEurope(["--out", "map.png", "-q"]))
    // Without -q: the warnings must go to stderr, not into the image.
    let stdout = try sandbox.run(Inputs.renderEurope(["--out", "-"]))
    assertSucceeded(file)
    assertSucceeded(stdout)
    XCTAssertEqual(sandbox.contents(of: "map.png"), stdout.stdout)
  }

  func testReplacesAnExistingFileAndLeavesNoTemporaryFiles() throws {
    let sandbox = try Sandbox()
    try sandbox.write("old", to: "map.png")
    let result = try sandbox.run(Inputs.renderEurope(["--out", "map.png", "-q"]))
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "map.png"), width: 200, height: 150)
    XCTAssertEqual(try sandbox.files(), ["map.png"])
  }

  func testWrittenFileHasTheUsualPermissions() throws {
    // The temporary file of an atomic write is made 0600 by mkstemp; the result must follow the umask.
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
      let umask = Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
    else { throw TestPrerequisiteMissing("cannot read this process's umask from /proc/self/status") }
    let sandbox = try Sandbox()
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "map.png", "-q"])))
    let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("map.png"))
    let permissions = try XCTUnwrap(attributes[.posixPermissions] as? NSNumber).intValue
    XCTAssertEqual(String(permissions, radix: 8), String(0o666 & ~umask, radix: 8))
  }

  func testFailedRenderLeavesTheExistingOutputUnchanged() throws {
    let sandbox = try Sandbox()
    let old = Data("the previous map".utf8)
    try sandbox.write(old, to: "map.png")
    try sandbox.write(old, to: "layout.json")
    let california = try sandbox.write(Inputs.californiaJSON, to: "california.json")
    let broken = try sandbox.write("{ \"locations\": [ ", to: "broken.json")

    // Exit 4: tiles missing with --offline.
    let offline = try sandbox.run(
      [
        "render", "--locations", california, "--tiles", Inputs.europeTiles, "--size", "200x150", "--offline",
        "--out", "map.png", "--layout-json", "layout.json",
      ])
    XCTAssertEqual(offline.status, 4, offline.transcript)
    // Exit 3: bad input.
    let bad = try sandbox.run([
      "render", "--locations", broken, "--out", "map.png", "--layout-json", "layout.json",
    ])
    XCTAssertEqual(bad.status, 3, bad.transcript)
    // Exit 2: bad usage.
    let usage = try sandbox.run(Inputs.renderEurope(["--out", "map.png", "--zoom", "99"]))
    XCTAssertEqual(usage.status, 2, usage.transcript)

    XCTAssertEqual(sandbox.contents(of: "map.png"), old)
    XCTAssertEqual(sandbox.contents(of: "layout.json"), old)
    XCTAssertEqual(try sandbox.files(), ["broken.json", "california.json", "layout.json", "map.png"])
  }

  func testAFailedWriteRemovesItsTemporaryFile() throws {
    let sandbox = try Sandbox()
    // The target name is taken by a folder: the rename at the end of the write fails.
    try FileManager.default.createDirectory(
      atPath: sandbox.path("taken.png"), withIntermediateDirectories: false)
    let result = try sandbox.run(Inputs.renderEurope(["--out", "taken.png", "-q"]))
    assertFailed(result, status: 1, message: "cannot write taken.png: Is a directory")
    XCTAssertEqual(try sandbox.files(), ["taken.png"])
    XCTAssertEqual(temporaryLeftovers(try sandbox.files()), [])
    XCTAssertEqual(try sandbox.files(in: "taken.png"), [])
  }

  func testOutputIntoAMissingFolder() throws {
    let sandbox = try Sandbox()
    let target = sandbox.path("no/such/folder/map.png")
    let result = try sandbox.run(Inputs.renderEurope(["--out", target]))
    assertFailed(
      result, status: 1,
      message: "cannot write \(target): the folder \(sandbox.path("no/such/folder")) does not exist")
    XCTAssertEqual(try sandbox.files(), [])

    let relative = try sandbox.run(Inputs.renderEurope(["--out", "missing/map.png"]))
    assertFailed(
      relative, status: 1, prefix: "cannot write missing/map.png: the folder ",
      containing: ["/missing does not exist"])
  }

  func testLayoutIntoAMissingFolderWritesNothing() throws {
    // Both outputs are checked before either is written: a failed command must not replace the map.
    let sandbox = try Sandbox()
    let old = Data("the previous map".utf8)
    try sandbox.write(old, to: "map.png")
    let result = try sandbox.run(
      Inputs.renderEurope(["--out", "map.png", "--layout-json", "missing/layout.json"]))
    XCTAssertEqual(result.status, 1, result.transcript)
    XCTAssertEqual(
      result.stderrLines.last.map { $0.hasPrefix("mymap: error: cannot write missing/layout.json") }, true,
      result.transcript)
    XCTAssertEqual(sandbox.contents(of: "map.png"), old)
    XCTAssertEqual(try sandbox.files(), ["map.png"])
  }
}
