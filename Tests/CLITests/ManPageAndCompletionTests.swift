import Foundation
import TestSupport
import XCTest

/// The manual page (`mymap help --man`) and the completion scripts (`mymap completions SHELL`) are written
/// from the same specs as `--help`: every command and every option `--help` shows is in each of them.
final class ManPageAndCompletionTests: XCTestCase {
  /// The commands `mymap help` lists, then each one's options as its `--help` lists them.
  private func commandsAndOptions(_ sandbox: Sandbox) throws -> [(command: String, options: [String])] {
    let overview = try sandbox.run(["help"]).stdoutText
    let section = try XCTUnwrap(overview.components(separatedBy: "COMMANDS:\n").last)
    let rows = section.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("  ") }
    let commands = rows.compactMap { line in
      line.dropFirst(2).components(separatedBy: "  ").first
    }.filter { !$0.isEmpty && !$0.hasPrefix(" ") }
    XCTAssertTrue(commands.contains("render") && commands.contains("tiles fetch"), "\(commands)")
    return try commands.map { command in
      let help = try sandbox.run(command.split(separator: " ").map(String.init) + ["--help"]).stdoutText
      let optionsPart = try XCTUnwrap(help.components(separatedBy: "OPTIONS:\n").last)
      let options = optionsPart.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("  -") else { return nil }
        return line.split(separator: " ").first { $0.hasPrefix("--") }.map {
          String($0.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
        }
      }
      XCTAssertFalse(options.isEmpty, command)
      return (command, options)
    }
  }

  func testTheManPageHasEveryCommandAndOption() throws {
    let sandbox = try Sandbox()
    let man = try sandbox.run(["help", "--man"])
    assertSucceeded(man)
    let page = man.stdoutText
    XCTAssertTrue(page.hasPrefix(".TH \"MYMAP\" 1 "), page.prefix(80).description)
    for (command, options) in try commandsAndOptions(sandbox) {
      XCTAssertTrue(page.contains(".SS \"mymap \(command)\""), command)
      for option in options where option != "--help" {
        // troff writes a hyphen as \-.
        XCTAssertTrue(
          page.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(command) \(option)")
      }
    }
    XCTAssertTrue(page.contains(".SH \"EXIT STATUS\""))
    XCTAssertFalse(page.contains("\n'"), "no line starts a troff request by accident")
  }

  func testEveryShellGetsEveryCommandAndOption() throws {
    let sandbox = try Sandbox()
    let specs = try commandsAndOptions(sandbox)
    for shell in ["bash", "zsh", "fish"] {
      let result = try sandbox.run(["completions", shell])
      assertSucceeded(result)
      let script = result.stdoutText
      for (command, options) in specs {
        for word in command.split(separator: " ") {
          XCTAssertTrue(script.contains(String(word)), "\(shell) \(word)")
        }
        for option in options where option != "--help" {
          let name = shell == "fish" ? "-l \(option.dropFirst(2))" : option
          XCTAssertTrue(script.contains(name), "\(shell): \(command) \(option)")
        }
      }
    }
    let bash = try sandbox.run(["completions", "bash"]).stdoutText
    // The styles of Styles/ (this build's data folder) complete --style.
    let styles = try FileManager.default.contentsOfDirectory(
      atPath: RepositoryPaths.root.appendingPathComponent("Styles").path
    ).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    XCTAssertTrue(styles.contains("dark") && styles.contains("default"), "\(styles)")
    XCTAssertTrue(
      bash.contains("--style) COMPREPLY=($(compgen -W '\(styles.joined(separator: " "))' -- \"$cur\")"), bash)
    XCTAssertTrue(bash.contains("--callouts) COMPREPLY=($(compgen -W 'all none' -- \"$cur\")); return ;;"))
    XCTAssertTrue(bash.hasSuffix("complete -o filenames -F _mymap mymap\n"))
  }

  func testDashCapitalVIsTheVersion() throws {
    let sandbox = try Sandbox()
    let outputs = try ["-V", "--version", "version"].map { flag in
      let result = try sandbox.run([flag])
      assertSucceeded(result)
      return result.stdoutText
    }
    XCTAssertNotNil(
      outputs[0].range(of: #"^mymap \d+\.\d+\.\d+\n$"#, options: .regularExpression), outputs[0])
    XCTAssertEqual(Set(outputs).count, 1, "\(outputs)")
    // The man page's footer carries the same version.
    let page = try sandbox.run(["help", "--man"]).stdoutText
    XCTAssertTrue(
      page.hasPrefix(".TH \"MYMAP\" 1 \"\" \"\(outputs[0].dropLast())\""), page.prefix(80).description)
  }

  func testHelpOfAnUnknownCommandPointsToTheCommandList() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["help", "rendr"]), status: 2,
      message: "unknown command 'rendr'; did you mean 'render'? (see 'mymap help')")
  }

  func testAnUnknownShellIsAUsageErrorWithASuggestion() throws {
    let sandbox = try Sandbox()
    assertFailed(
      try sandbox.run(["completions", "zhs"]), status: 2,
      message: "unknown shell 'zhs' (expected bash, zsh, fish); did you mean zsh?")
  }

  /// The scripts are valid in the shells that are installed (bash always is).
  func testTheScriptsParseInTheirShells() throws {
    let sandbox = try Sandbox()
    var checked: [String] = []
    for shell in ["bash", "zsh", "fish"] {
      guard
        let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.isExecutableFile)
      else { continue }
      let script = try sandbox.write(
        try sandbox.run(["completions", shell]).stdoutText, to: "\(shell).script")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = ["-n", script]
      try process.run()
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 0, "\(shell) -n")
      checked.append(shell)
    }
    XCTAssertTrue(checked.contains("bash"))
  }
}
