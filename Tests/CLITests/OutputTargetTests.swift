import Foundation
import XCTest

/// An output never destroys an input, follows links to their files, writes into FIFOs, and cleans up after
/// writers that were killed.
final class OutputTargetTests: XCTestCase {
  private func storeWithOnePlace(_ sandbox: Sandbox) throws -> [String] {
    let id = try sandbox.add(["--lat", "48.8584", "--lon", "2.2945", "--description", "Tour Eiffel"])
    XCTAssertEqual(try sandbox.listedIDs(), [id])
    return [id]
  }

  private func assertRefused(
    _ result: CLIResult, option: String, given: String, role: String, path: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    assertFailed(
      result, status: 2,
      message:
        "\(option) \(given) is \(role) (\(path)), which this command reads; writing there would destroy"
        + " it: choose another path", file: file, line: line)
  }

  func testARenderIntoItsOwnStoreIsRefusedAndTheStoreKeepsItsPlaces() throws {
    let sandbox = try Sandbox()
    let ids = try storeWithOnePlace(sandbox)
    let before = sandbox.contents(of: ".home/mymap/locations.sqlite")
    let store = sandbox.storePath
    assertRefused(
      try sandbox.run(["render", "--store", store, "--out", store, "--format", "png"]), option: "--out",
      given: store, role: "the places store", path: store)
    try FileManager.default.createSymbolicLink(atPath: sandbox.path("map.png"), withDestinationPath: store)
    assertRefused(
      try sandbox.run(["render", "--out", "map.png"]), option: "--out", given: "map.png",
      role: "the places store", path: store)
    assertRefused(
      try sandbox.run(["render", "--out", "layout.png", "--layout-json", "map.png"]), option: "--layout-json",
      given: "map.png", role: "the places store", path: store)
    assertRefused(
      try sandbox.run(["export", "--out", store, "--format", "json"]), option: "--out", given: store,
      role: "the places store", path: store)
    XCTAssertEqual(sandbox.contents(of: ".home/mymap/locations.sqlite"), before)
    XCTAssertEqual(try sandbox.listedIDs(), ids)
    XCTAssertEqual(try sandbox.files(), ["map.png"])
  }

  func testTheStoresJournalIsProtectedToo() throws {
    let sandbox = try Sandbox()
    _ = try storeWithOnePlace(sandbox)
    let journal = sandbox.storePath + "-journal"
    XCTAssertTrue(FileManager.default.createFile(atPath: journal, contents: Data()))
    let result = try sandbox.run(["render", "--out", journal, "--format", "png"])
    assertFailed(
      result, status: 2,
      message: "--out \(journal) is a journal of the places store (\(sandbox.storePath)), which this command"
        + " reads; writing there would destroy it: choose another path")
    XCTAssertEqual(sandbox.contents(of: ".home/mymap/locations.sqlite-journal"), Data())
  }

  func testTheLocationsFileAndTheStyleAreNotOutputs() throws {
    let sandbox = try Sandbox()
    let places = try sandbox.write(Inputs.californiaJSON, to: "places.json")
    for (option, extra) in [("--out", ["--format", "png"]), ("--layout-json", ["--out", "map.png"])] {
      let result = try sandbox.run(["render", "--locations", "places.json", option, "places.json"] + extra)
      assertRefused(
        result, option: option, given: "places.json", role: "the places file", path: "places.json")
    }
    let style = try sandbox.write(#"{"name": "mine"}"#, to: "mine.json")
    let styled = try sandbox.run([
      "render", "--locations", places, "--style", style, "--out", style, "--format", "svg",
    ])
    assertRefused(styled, option: "--out", given: style, role: "the style file", path: style)
    let tiles = try sandbox.run(
      [
        "render", "--locations", places, "--tiles", Inputs.europeTiles, "--out", Inputs.europeTiles,
        "--format", "png",
      ])
    assertRefused(
      tiles, option: "--out", given: Inputs.europeTiles, role: "the tile source", path: Inputs.europeTiles)
    XCTAssertEqual(sandbox.contents(of: "places.json"), Data(Inputs.californiaJSON.utf8))
    XCTAssertEqual(try sandbox.files(), ["mine.json", "places.json"])
  }

  func testTwoOutputsNamingOneFileAreRefusedBeforeAnythingIsWritten() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "X.png", "--layout-json", "./X.png"]))
    assertFailed(
      result, status: 2, message: "--out and --layout-json name the same file (./X.png); give two paths")
    try sandbox.write("old", to: "Y.png")
    try FileManager.default.createSymbolicLink(
      atPath: sandbox.path("link.json"), withDestinationPath: "Y.png")
    let linked = try sandbox.run(Inputs.renderEurope(["--out", "Y.png", "--layout-json", "link.json"]))
    assertFailed(
      linked, status: 2, message: "--out and --layout-json name the same file (link.json); give two paths")
    XCTAssertEqual(sandbox.contents(of: "Y.png"), Data("old".utf8))
    XCTAssertEqual(try sandbox.files(), ["Y.png", "link.json"])
  }

  func testACompareDoesNotOverwriteTheImagesItCompares() throws {
    let sandbox = try Sandbox()
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "a.png", "-q"])))
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "b.png", "-q", "--user", "48.85,2.35"])))
    let before = sandbox.contents(of: "a.png")
    let result = try sandbox.run(["diff", "a.png", "b.png", "--out", "a.png"])
    assertFailed(
      result, status: 2,
      message:
        "--out a.png is an image this command compares (a.png), which this command reads; writing there"
        + " would destroy it: choose another path")
    XCTAssertEqual(sandbox.contents(of: "a.png"), before)
  }

  func testASymbolicLinkIsWrittenThrough() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("maps"), withIntermediateDirectories: false)
    try sandbox.write("old", to: "maps/real.png")
    try FileManager.default.createSymbolicLink(
      atPath: sandbox.path("map.png"), withDestinationPath: "maps/real.png")
    try FileManager.default.createSymbolicLink(
      atPath: sandbox.path("new.png"), withDestinationPath: "maps/new.png")
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "map.png", "-q"])))
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "new.png", "-q"])))
    for (link, target) in [("map.png", "maps/real.png"), ("new.png", "maps/new.png")] {
      XCTAssertEqual(
        try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path(link)), target,
        "\(link) stays a link")
      assertPNG(sandbox.contents(of: target), width: 200, height: 150)
    }
    XCTAssertEqual(try sandbox.files(in: "maps"), ["new.png", "real.png"])
  }

  func testAFIFOIsWrittenIntoAndStaysAFIFO() throws {
    let sandbox = try Sandbox()
    let fifo = sandbox.path("map.png")
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    let received = LockedData()
    let reader = Thread {
      if let handle = FileHandle(forReadingAtPath: fifo) { received.set(handle.readDataToEndOfFile()) }
    }
    reader.start()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "map.png", "-q"]))
    assertSucceeded(result)
    for _ in 0..<200 where received.get() == nil { usleep(10_000) }
    assertPNG(received.get(), width: 200, height: 150)
    var info = stat()
    XCTAssertEqual(lstat(fifo, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO must not be replaced by a file")
    XCTAssertEqual(try sandbox.files(), ["map.png"])
  }

  /// A writer killed between writing and renaming leaves its temporary file; the next write of the same
  /// output removes it, but not the temporary file of a writer that is still running.
  func testTemporaryFilesOfKilledWritersAreRemovedByTheNextWrite() throws {
    let sandbox = try Sandbox()
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let gone = finished.processIdentifier
    let alive = ProcessInfo.processInfo.processIdentifier
    try sandbox.write("partial", to: ".map.png.tmp-\(gone)-a1B2c3")
    try sandbox.write("partial", to: ".map.png.tmp-\(alive)-d4E5f6")
    try sandbox.write("partial", to: ".map.png.tmp-OLDone")
    try sandbox.write("partial", to: ".map.png.tmp-NEWone")
    try sandbox.write("partial", to: ".other.png.tmp-\(gone)-a1B2c3")
    let old = Date().addingTimeInterval(-2 * 3600)
    try FileManager.default.setAttributes(
      [.modificationDate: old], ofItemAtPath: sandbox.path(".map.png.tmp-OLDone"))
    assertSucceeded(try sandbox.run(Inputs.renderEurope(["--out", "map.png", "-q"])))
    XCTAssertEqual(
      try sandbox.files(),
      [".map.png.tmp-\(alive)-d4E5f6", ".map.png.tmp-NEWone", ".other.png.tmp-\(gone)-a1B2c3", "map.png"]
        .sorted())
  }
}

/// Data handed from a reader thread to the test.
private final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?

  func set(_ value: Data) { lock.withLock { data = value } }
  func get() -> Data? { lock.withLock { data } }
}
