import Foundation
import TestSupport
import XCTest

/// mymap as installed (`Scripts/install`): the binary in `PREFIX/bin`, its data in `PREFIX/share/mymap`,
/// run through a symbolic link on `PATH` from the root folder, so neither argv[0] nor the working folder
/// can lead it to the checkout. (The static release build itself is checked by `Scripts/check-install`.)
final class InstalledLayoutTests: XCTestCase {
  /// A prefix with a copy of the built binary (and, unless `withData` is false, the data and styles), a
  /// folder on `PATH` holding a link to it, and empty XDG data folders.
  private struct Installed {
    let sandbox: Sandbox
    let prefix: URL
    let link: URL

    init(withData: Bool = true) throws {
      sandbox = try Sandbox()
      prefix = sandbox.url.appendingPathComponent("prefix")
      let files = FileManager.default
      try files.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
      try files.copyItem(at: try MymapBinary.url(), to: prefix.appendingPathComponent("bin/mymap"))
      if withData {
        let share = prefix.appendingPathComponent("share/mymap")
        try Installed.copyData(to: share)
      }
      let path = sandbox.url.appendingPathComponent("path")
      try files.createDirectory(at: path, withIntermediateDirectories: true)
      link = path.appendingPathComponent("mymap")
      try files.createSymbolicLink(at: link, withDestinationURL: prefix.appendingPathComponent("bin/mymap"))
      try files.createDirectory(
        at: sandbox.url.appendingPathComponent("xdg-dirs"), withIntermediateDirectories: true)
    }

    /// `basemap.sqlite` and `styles/` (with `vector/`) laid out as `share/mymap`.
    static func copyData(to share: URL) throws {
      let files = FileManager.default
      try files.createDirectory(at: share, withIntermediateDirectories: true)
      try files.copyItem(
        at: RepositoryPaths.root.appendingPathComponent("Data/basemap.sqlite"),
        to: share.appendingPathComponent("basemap.sqlite"))
      try files.copyItem(at: RepositoryPaths.styles, to: share.appendingPathComponent("styles"))
    }

    /// Runs `mymap` by name from `/`, found on a `PATH` of the link's folder and the system's.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
      var bare = [
        "PATH": link.deletingLastPathComponent().path + ":/usr/bin:/bin",
        "XDG_DATA_DIRS": sandbox.path("xdg-dirs"),
      ]
      bare.merge(environment) { $1 }
      return try sandbox.run(
        ["mymap"] + arguments, environment: bare, executable: URL(fileURLWithPath: "/usr/bin/env"),
        workingDirectory: URL(fileURLWithPath: "/"))
    }

    func render(_ extra: [String], environment: [String: String] = [:]) throws -> CLIResult {
      try run(
        [
          "render", "--locations", Inputs.europeTrip, "--size", "300x200", "--layout-json", "-", "--out",
          sandbox.path("map.png"),
        ] + extra, environment: environment)
    }
  }

  func testAnInstalledCopyFindsItsDataAndStylesFromTheRootFolder() throws {
    let installed = try Installed()
    let result = try installed.render(["--style", "dark"])
    assertSucceeded(result)
    XCTAssertEqual(try Layout(result.stdout).tiles["source"] as? String, "builtin")
    let png = try XCTUnwrap(installed.sandbox.contents(of: "map.png"))
    XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
  }

  func testWithoutItsDataAnInstalledCopyFailsWithExit3AndSaysWhereItLooked() throws {
    let installed = try Installed(withData: false)
    for quiet in [[], ["-q"]] {
      let result = try installed.render(quiet)
      let expected = installed.prefix.appendingPathComponent("share/mymap/basemap.sqlite").path
      assertFailed(
        result, status: 3, prefix: "the built-in basemap data was not found (looked for \(expected), ",
        containing: [installed.sandbox.path("xdg-dirs/mymap/basemap.sqlite"), "--tiles none"])
      XCTAssertNil(installed.sandbox.contents(of: "map.png"), "nothing is written")
    }
    // The plain background only when asked.
    let plain = try installed.render(["--tiles", "none", "-q"])
    assertSucceeded(plain)
    XCTAssertEqual(try Layout(plain.stdout).tiles["source"] as? String, "none")
  }

  func testMYMAP_DATAThenTheXDGDataFoldersAreSearched() throws {
    let installed = try Installed(withData: false)
    let data = installed.sandbox.url.appendingPathComponent("data-here")
    try Installed.copyData(to: data)
    let viaVariable = try installed.render(["--style", "dark"], environment: ["MYMAP_DATA": data.path])
    assertSucceeded(viaVariable)
    XCTAssertEqual(try Layout(viaVariable.stdout).tiles["source"] as? String, "builtin")

    try Installed.copyData(to: installed.sandbox.url.appendingPathComponent("xdg-dirs/mymap"))
    let viaXDG = try installed.render(["--style", "dark"])
    assertSucceeded(viaXDG)
  }

  func testXDGDataHomeIsSearchedAndTheExecutablesOwnDataComesFirst() throws {
    let bare = try Installed(withData: false)
    let home = bare.sandbox.url.appendingPathComponent("xdg-home")
    try Installed.copyData(to: home.appendingPathComponent("mymap"))
    assertSucceeded(try bare.render([], environment: ["XDG_DATA_HOME": home.path]))

    // Beside the executable wins over $MYMAP_DATA: a broken basemap there is never opened.
    let installed = try Installed()
    let broken = try installed.sandbox.write("not a basemap", to: "broken/basemap.sqlite")
    let result = try installed.render(
      [], environment: ["MYMAP_DATA": URL(fileURLWithPath: broken).deletingLastPathComponent().path])
    assertSucceeded(result)
    XCTAssertEqual(try Layout(result.stdout).tiles["source"] as? String, "builtin")
  }

  func testAMistypedStyleNameGetsADidYouMean() throws {
    let installed = try Installed()
    let result = try installed.render(["--style", "drak"])
    assertFailed(
      result, status: 3, prefix: "no style named \"drak\" (looked in ", containing: ["did you mean \"dark\"?"]
    )
  }
}

/// `--out -` on a terminal: an image is not text, so it is refused (exit 2) and nothing is drawn there.
final class ImageToTerminalTests: XCTestCase {
  func testRenderRefusesToWriteAnImageToATerminal() throws {
    let sandbox = try Sandbox()
    let terminal = try FetchTesting.runInTerminal(
      sandbox, Inputs.renderEurope(["--out", "-"]))
    XCTAssertEqual(terminal.status, 2, terminal.output)
    XCTAssertTrue(
      terminal.output.contains(
        "mymap: error: not writing an image to a terminal; redirect standard output (--out - > map.png) or"
          + " give --out FILE (see 'mymap render --help')"), terminal.output.debugDescription)
    XCTAssertFalse(terminal.output.contains("PNG"), "no image bytes on the terminal")
  }
}
