import Foundation
import XCTest

/// `--version`, `help`, `--help`, and `mymap diff`.
final class HelpAndDiffTests: XCTestCase {
  /// Every option of `mymap render` (its CommandSpec), as the help must list them.
  private let renderOptions = [
    "--out", "--format", "--size", "--scale", "--locations", "--category", "--since", "--until", "--user",
    "--center", "--zoom", "--span-meters", "--tiles", "--style", "--callouts", "--padding",
    "--fractional-zoom",
    "--offline", "--layout-json", "--quiet", "--help",
  ]

  func testVersion() throws {
    for arguments in [["--version"], ["version"]] {
      let result = try Sandbox().run(arguments)
      XCTAssertEqual(result.status, 0, result.transcript)
      XCTAssertEqual(result.stderr, "")
      let text = result.stdoutText
      XCTAssertTrue(text.hasPrefix("mymap ") && text.hasSuffix("\n"), text)
      let number = text.dropFirst("mymap ".count).dropLast()
      let parts = number.split(separator: ".", omittingEmptySubsequences: false)
      XCTAssertTrue(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "a version like 1.2.3: \(text)")
    }
  }

  func testHelpListsTheCommands() throws {
    let result = try Sandbox().run(["help"])
    XCTAssertEqual(result.status, 0, result.transcript)
    XCTAssertEqual(result.stderr, "")
    let text = result.stdoutText
    XCTAssertTrue(text.contains("USAGE: mymap"), text)
    for command in ["render", "diff", "help"] {
      XCTAssertTrue(text.contains("\n  \(command) "), "the command list names \(command):\n\(text)")
    }
    XCTAssertEqual(try Sandbox().run(["--help"]).stdoutText, text, "--help is the same as help")
  }

  func testRenderHelpMentionsEveryOption() throws {
    let sandbox = try Sandbox()
    let help = try sandbox.run(["help", "render"])
    XCTAssertEqual(help.status, 0, help.transcript)
    XCTAssertEqual(help.stderr, "")
    let text = help.stdoutText
    XCTAssertTrue(text.contains("USAGE: mymap render"), text)
    // Each option has its own entry in the OPTIONS list ("  --size WxH  …" or "  -o, --out PATH  …").
    let entries = text.split(separator: "\n").map { line -> Substring in
      let trimmed = line.drop { $0 == " " }
      return trimmed.count > 4 && trimmed.hasPrefix("-") && trimmed.dropFirst(2).hasPrefix(", ")
        ? trimmed.dropFirst(4) : trimmed
    }
    for option in renderOptions {
      XCTAssertTrue(
        entries.contains { $0 == option || $0.hasPrefix(option + " ") },
        "help render lists \(option):\n\(text)")
    }
    XCTAssertTrue(text.contains("(default: map.png)") && text.contains("(default: 800x600)"), text)
    XCTAssertTrue(text.contains("Exit\ncodes") || text.contains("Exit codes"), "the help explains exit codes")

    for flag in ["--help", "-h"] {
      let other = try sandbox.run(["render", flag])
      XCTAssertEqual(other.status, 0, other.transcript)
      XCTAssertEqual(other.stdoutText, text, "render \(flag) is the same as help render")
    }
    // --help wins over the other arguments, even bad ones, and writes no map.
    let mixed = try sandbox.run(Inputs.renderEurope(["--zoom", "99", "--help"]))
    XCTAssertEqual(mixed.status, 0, mixed.transcript)
    XCTAssertEqual(mixed.stdoutText, text)
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testDiffHelp() throws {
    let result = try Sandbox().run(["help", "diff"])
    XCTAssertEqual(result.status, 0, result.transcript)
    for option in ["--tolerance", "--max-fraction", "--out", "EXPECTED", "ACTUAL"] {
      XCTAssertTrue(result.stdoutText.contains(option), "help diff mentions \(option)")
    }
  }

  // MARK: diff

  /// Two different renders of the example (the same size) and one of another size, in a sandbox.
  private func images() throws -> Sandbox {
    let sandbox = try Sandbox()
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "a.png", "-q"], size: "160x120")))
    assertSucceeded(
      try sandbox.run(Inputs.renderEurope(["--out", "b.png", "--category", "Park", "-q"], size: "160x120")))
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "small.png", "-q"], size: "80x60")))
    return sandbox
  }

  func testDiffOfAnImageWithItself() throws {
    let sandbox = try images()
    let result = try sandbox.run(["diff", "a.png", "a.png"])
    XCTAssertEqual(result.status, 0, result.transcript)
    XCTAssertEqual(result.stderr, "")
    XCTAssertTrue(result.stdoutText.hasPrefix("0 of "), result.stdoutText)
    XCTAssertTrue(result.stdoutText.hasSuffix("\n"))
    XCTAssertEqual(result.stdoutText.split(separator: "\n").count, 1, result.stdoutText)
  }

  func testDiffOfDifferentImages() throws {
    let sandbox = try images()
    let result = try sandbox.run(["diff", "a.png", "b.png", "--out", "diff.png"])
    XCTAssertEqual(result.status, 1, result.transcript)
    XCTAssertEqual(result.stderr, "mymap: error: the images differ beyond the tolerance\n")
    XCTAssertTrue(result.stdoutText.contains(" of 19 200 pixels differ"), result.stdoutText)
    assertPNG(sandbox.contents(of: "diff.png"), width: 160, height: 120)
    XCTAssertEqual(temporaryLeftovers(try sandbox.files()), [])
  }

  func testDiffTolerances() throws {
    let sandbox = try images()
    let loose = try sandbox.run(["diff", "a.png", "b.png", "--tolerance", "255"])
    XCTAssertEqual(loose.status, 0, "every channel difference is within 255: \(loose.transcript)")
    let fraction = try sandbox.run(["diff", "a.png", "b.png", "--max-fraction", "1"])
    XCTAssertEqual(fraction.status, 1, "a block holds more than 2 differing pixels: \(fraction.transcript)")
    let blocks = try sandbox.run(["diff", "a.png", "b.png", "--max-fraction", "1", "--block-pixels", "256"])
    XCTAssertEqual(blocks.status, 0, "all pixels may differ, in every block: \(blocks.transcript)")
    let bad = try sandbox.run(["diff", "a.png", "b.png", "--tolerance", "256"])
    assertFailed(bad, status: 2, message: "invalid value '256' for --tolerance: expected 0 to 255")
    assertFailed(
      try sandbox.run(["diff", "a.png", "b.png", "--scale", "1.5"]), status: 2,
      message: "invalid value '1.5' for --scale: expected a whole number from 1 to 8")
    assertFailed(
      try sandbox.run(["diff", "a.png", "b.png", "--block-pixels", "2.5"]), status: 2,
      message: "invalid value '2.5' for --block-pixels: expected a whole number")
  }

  func testDiffOfDifferentSizes() throws {
    let sandbox = try images()
    let result = try sandbox.run(["diff", "a.png", "small.png", "--out", "diff.png"])
    XCTAssertEqual(result.status, 1, result.transcript)
    XCTAssertEqual(result.stdoutText, "image sizes differ: expected 160×120, actual 80×60\n")
    XCTAssertNil(sandbox.contents(of: "diff.png"), "no diff image when the sizes differ")
  }

  func testDiffOfAMissingFile() throws {
    let sandbox = try images()
    let result = try sandbox.run(["diff", "a.png", "nothere.png", "--out", "diff.png"])
    assertFailed(result, status: 3, message: "cannot read nothere.png")
    XCTAssertNil(sandbox.contents(of: "diff.png"))
  }

  func testDiffOfAFileThatIsNotAPNG() throws {
    let sandbox = try images()
    try sandbox.write("hello", to: "notes.txt")
    let result = try sandbox.run(["diff", "notes.txt", "a.png"])
    assertFailed(result, status: 3, prefix: "notes.txt: ")
  }

  func testDiffNeedsTwoImages() throws {
    let result = try Sandbox().run(["diff", "a.png"])
    assertFailed(result, status: 2, prefix: "missing argument ACTUAL")
  }
}
