import Foundation
import ImageCodecs
import MapMath
import MapSnapshotTesting
import Rendering
import TestSupport
import XCTest

/// `assertMapSnapshot` and the check behind it (`verifyMapSnapshot`), as a user's test target sees them:
/// recording, passing, a changed letter failing with its images, and recording again.
final class AssertMapSnapshotTests: XCTestCase {
  private func options(subtitle: String, scale: Double = 1) -> MapSnapshotOptions {
    var options = MapSnapshotOptions(places: [
      PointAnnotation(
        identifier: "eiffel", coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945),
        title: "Eiffel Tower", subtitle: subtitle),
      PointAnnotation(
        identifier: "louvre", coordinate: Coordinate(latitude: 48.8606, longitude: 2.3376),
        title: "Louvre Museum", subtitle: "Museum"),
    ])
    options.size = PixelSize(width: 400, height: 300)
    options.scale = scale
    return options
  }

  /// A reference committed beside this file (`MapSnapshots/AssertMapSnapshotTests/paris.png`; the same
  /// map as the example package's).
  func testACommittedReferencePasses() {
    var options = options(subtitle: "Bar")
    options.places.removeLast()
    assertMapSnapshot(of: options, named: "paris")
  }

  func testTheFirstRunRecordsAndFailsThenTheSameMapPasses() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-snapshots")
    let first = try XCTUnwrap(verifyMapSnapshot(of: options(subtitle: "Bar"), named: "map", in: folder.url))
    let reference = folder.url("map.png")
    XCTAssertEqual(
      first,
      "no reference for snapshot \"map\": recorded \(reference.path) from this run; look at it, then run the"
        + " test again")
    XCTAssertNoThrow(try PNGCodec.decode(try Data(contentsOf: reference)))
    XCTAssertNil(verifyMapSnapshot(of: options(subtitle: "Bar"), named: "map", in: folder.url))
  }

  func testOneChangedLetterFailsAndWritesTheImages() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-snapshots")
    for scale in [1.0, 2.0] {
      let name = "letter@\(Int(scale))x"
      XCTAssertNotNil(
        verifyMapSnapshot(
          of: options(subtitle: "Bar", scale: scale), named: name, record: true, in: folder.url))
      let message = try XCTUnwrap(
        verifyMapSnapshot(of: options(subtitle: "Bat", scale: scale), named: name, in: folder.url),
        "scale \(scale): one changed letter passed")
      let actual = folder.url("failures/\(name).actual.png")
      let diff = folder.url("failures/\(name).diff.png")
      XCTAssertTrue(
        message.hasPrefix("snapshot \"\(name)\" does not match \(folder.url("\(name).png").path): "), message)
      XCTAssertTrue(message.contains("\n  actual image: \(actual.path)"), message)
      XCTAssertTrue(message.contains("\n  diff image:   \(diff.path) (differences in magenta)"), message)
      let diffImage = try PNGCodec.decode(try Data(contentsOf: diff))
      XCTAssertEqual(diffImage.width, Int(400 * scale))
      XCTAssertNoThrow(try PNGCodec.decode(try Data(contentsOf: actual)))
      // Back to the recorded map: it passes, and the failure images go away.
      XCTAssertNil(verifyMapSnapshot(of: options(subtitle: "Bar", scale: scale), named: name, in: folder.url))
      XCTAssertFalse(FileManager.default.fileExists(atPath: diff.path))
      XCTAssertFalse(FileManager.default.fileExists(atPath: actual.path))
    }
  }

  func testRecordModeRewritesTheReference() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-snapshots")
    let reference = folder.url("map.png")
    _ = verifyMapSnapshot(of: options(subtitle: "Bar"), named: "map", in: folder.url)
    let bar = try Data(contentsOf: reference)
    let message = verifyMapSnapshot(of: options(subtitle: "Bat"), named: "map", record: true, in: folder.url)
    XCTAssertEqual(
      message,
      "snapshot \"map\" recorded to \(reference.path) (recording is on: record: true or"
        + " MYMAP_RECORD_SNAPSHOTS=1); turn it off and run again to compare")
    XCTAssertNotEqual(try Data(contentsOf: reference), bar)
    XCTAssertNil(verifyMapSnapshot(of: options(subtitle: "Bat"), named: "map", in: folder.url))
  }

  func testBadNamesAndMapsThatCannotBeDrawnAreReported() throws {
    let folder = try TemporaryDirectory(prefix: "mymap-snapshots")
    for name in ["../escape", "/abs", "a//b", "map.png", ""] {
      XCTAssertEqual(
        verifyMapSnapshot(of: options(subtitle: "Bar"), named: name, in: folder.url),
        "snapshot name \"\(name)\" must be a relative path without \"..\" and without \".png\"")
    }
    try Data("not a PNG".utf8).write(to: folder.url("broken.png"))
    XCTAssertEqual(
      verifyMapSnapshot(of: options(subtitle: "Bar"), named: "broken", in: folder.url)?.hasPrefix(
        "reference \(folder.url("broken.png").path) cannot be read ("),
      true)
    XCTAssertEqual(
      verifyMapSnapshot(of: options(subtitle: "Bar"), named: "broken", in: folder.url)?.hasSuffix(
        "); delete it or set MYMAP_RECORD_SNAPSHOTS=1 to record it again"),
      true)
    try FileManager.default.removeItem(at: folder.url("broken.png"))
    var nothing = MapSnapshotOptions()
    nothing.tiles = .none
    XCTAssertEqual(
      verifyMapSnapshot(of: nothing, named: "empty", in: folder.url),
      "snapshot \"empty\" could not be drawn: \(RenderError.nothingToShow)")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  func testTheDefaultFolderIsBesideTheTestFile() {
    XCTAssertEqual(
      MapSnapshotTesting.referenceFolder(forTestFile: "/src/Tests/AppTests/MapTests.swift").path,
      "/src/Tests/AppTests/MapSnapshots/MapTests")
    XCTAssertEqual(MapSnapshotTesting.tolerance(scale: 2), .standard(scale: 2))
    XCTAssertEqual(MapSnapshotTesting.tolerance(scale: .nan), .standard(scale: 1))
  }
}
