import Foundation
import XCTest

/// Inputs that used to crash, hang, lose places or fill memory: each now ends with one clear line and the
/// documented exit code, and writes nothing.
final class HostileInputTests: XCTestCase {
  func testAnEndlessLocationsFileIsRefusedAtTheLimit() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--locations", "/dev/zero", "--out", "map.png"])
    assertFailed(
      result, status: 3,
      message: "/dev/zero: the file is larger than 256 MiB, the most mymap reads as one locations file")
    XCTAssertEqual(try sandbox.files(), [])
  }

  func testAFIFOAsTheLocationsFileIsRead() throws {
    let sandbox = try Sandbox()
    let fifo = sandbox.path("places.json")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: fifo)
      handle?.write(Data(Inputs.californiaJSON.utf8))
      try? handle?.close()
    }
    writer.start()
    let result = try sandbox.run([
      "render", "--locations", fifo, "--size", "200x150", "--out", "map.png", "-q",
    ])
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "map.png"), width: 200, height: 150)
  }

  func testLocationsNullImportsNothingAndFails() throws {
    let sandbox = try Sandbox()
    let file = try sandbox.write(#"{"locations": null}"#, to: "null.json")
    assertFailed(
      try sandbox.run(["import", file]), status: 3,
      message: "\(file): \"locations\" must be an array, not null")
    XCTAssertFalse(sandbox.storeExists)
  }

  func testAHugeDescriptionIsRefusedWithAShortMessage() throws {
    let sandbox = try Sandbox()
    let huge = String(repeating: "x", count: 4_000_000)
    let file = try sandbox.write(
      #"{"locations": [{"latitude": 1, "longitude": 2, "description": "\#(huge)"}]}"#, to: "huge.json")
    for command in [["import", file], ["render", "--locations", file, "--out", "map.png"]] {
      assertFailed(
        try sandbox.run(command), status: 3,
        message: "\(file): location 1: description is 4000000 bytes long; the limit is 16 KiB")
    }
    XCTAssertFalse(sandbox.storeExists)
    XCTAssertEqual(try sandbox.files(), ["huge.json"])
  }

  func testAMillionDigitNumberGivesAShortLine() throws {
    let sandbox = try Sandbox()
    let digits = String(repeating: "9", count: 1_000_000)
    let file = try sandbox.write(#"{"locations": [{"latitude": \#(digits), "longitude": 2}]}"#, to: "n.json")
    let result = try sandbox.run(["render", "--locations", file, "--out", "map.png"])
    assertFailed(result, status: 3, message: "\(file):1:29: number of 1000000 characters is too large")
  }

  /// Identical rows used to make id assignment probe `-2`, `-3`… from the start for each: 32,000 rows took
  /// over a minute to import.
  func testManyIdenticalRowsImportAsOnePlace() throws {
    let sandbox = try Sandbox()
    let file = try sandbox.write(
      "latitude,longitude,description\n" + String(repeating: "48.85,2.35,Same\n", count: 32_000), to: "d.csv")
    let result = try sandbox.run(["import", file])
    assertSucceeded(result)
    XCTAssertEqual(result.stdoutText, "imported 1 place (31999 already in the store)\n")
  }
}
