import Foundation
import Rendering
import XCTest

/// Settings of `assertMapSnapshot` shared by every test.
public enum MapSnapshotTesting {
  /// The environment variable that turns recording on for every snapshot (value `1`).
  public static let recordVariable = "MYMAP_RECORD_SNAPSHOTS"

  /// True when this run records snapshots instead of comparing them.
  public static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

  /// The folder of a test file's references: `MapSnapshots/<file name without .swift>/` beside it.
  public static func referenceFolder(forTestFile file: StaticString) -> URL {
    let test = URL(fileURLWithPath: "\(file)")
    return test.deletingLastPathComponent().appendingPathComponent("MapSnapshots", isDirectory: true)
      .appendingPathComponent(test.deletingPathExtension().lastPathComponent, isDirectory: true)
  }

  /// The comparison of `mymap diff` for an image drawn at `scale` (blocks of 16 points).
  public static func tolerance(scale: Double) -> ImageTolerance {
    let whole = scale.isFinite ? min(max(scale.rounded(.up), 1), 8) : 1
    return .standard(scale: Int(whole))
  }

  /// The sentence a test fails with, or nil when the outcome passes.
  public static func failureMessage(_ outcome: MapSnapshotReference.Outcome, named name: String) -> String? {
    switch outcome {
    case .matched:
      return nil
    case .recorded(let reference, let wasMissing):
      return wasMissing
        ? "no reference for snapshot \"\(name)\": recorded \(reference.path) from this run; look at it, then"
          + " run the test again"
        : "snapshot \"\(name)\" recorded to \(reference.path) (recording is on: record: true or"
          + " \(recordVariable)=1); turn it off and run again to compare"
    case .mismatched(let result, let reference, let actual, let diff):
      var message = "snapshot \"\(name)\" does not match \(reference.path): \(result.summary)"
      message += "\n  actual image: \(actual.path)"
      message +=
        diff.map { "\n  diff image:   \($0.path) (differences in magenta)" } ?? " (sizes differ: no diff)"
      return message
    case .error(let text):
      return text
    }
  }
}

/// Renders `options` as a PNG and compares it with the reference image `name`: the failure message, or
/// nil when it matches. The check behind `assertMapSnapshot`, for harnesses other than XCTest.
///
/// - Parameters:
///   - options: the map; drawn as a PNG whatever its `format`.
///   - name: the reference's file name without `.png`; `/` groups references in folders.
///   - record: record instead of comparing; nil records when `MYMAP_RECORD_SNAPSHOTS=1`.
///   - folder: where references live (`MapSnapshotTesting.referenceFolder(forTestFile:)` by default).
///   - tolerance: nil compares as `mymap diff` does (`MapSnapshotTesting.tolerance(scale:)`).
public func verifyMapSnapshot(
  of options: MapSnapshotOptions, named name: String, record: Bool? = nil, in folder: URL,
  tolerance: ImageTolerance? = nil
) -> String? {
  var options = options
  options.format = .png
  let snapshot: MapSnapshot
  do {
    snapshot = try MapSnapshotter(options: options).snapshot(cancellation: nil)
  } catch {
    return "snapshot \"\(name)\" could not be drawn: \(error)"
  }
  let outcome = MapSnapshotReference.check(
    snapshot.data, named: name, in: folder, record: record ?? MapSnapshotTesting.isRecording,
    tolerance: tolerance ?? MapSnapshotTesting.tolerance(scale: options.scale),
    recordVariable: MapSnapshotTesting.recordVariable)
  return MapSnapshotTesting.failureMessage(outcome, named: name)
}

/// Fails the calling test unless the map `options` draw matches its reference image `name`.
///
/// The first run records the reference (`MapSnapshots/<test file>/<name>.png` beside the test file) and
/// fails, saying so: look at the image, commit it, and run again. `record: true` or
/// `MYMAP_RECORD_SNAPSHOTS=1` records again (and fails, so recording is never left on by accident). A
/// mismatch writes the new image and a diff to `MapSnapshots/<test file>/failures/` and names them.
/// Images are compared as decoded pixels with the tolerance of `mymap diff`: antialiasing from another
/// cairo or FreeType build passes, one changed letter fails. The same fonts must be installed where the
/// references are recorded and checked.
public func assertMapSnapshot(
  of options: MapSnapshotOptions, named name: String, record: Bool? = nil,
  tolerance: ImageTolerance? = nil, file: StaticString = #filePath, line: UInt = #line
) {
  let folder = MapSnapshotTesting.referenceFolder(forTestFile: file)
  if let message = verifyMapSnapshot(
    of: options, named: name, record: record, in: folder, tolerance: tolerance)
  {
    XCTFail(message, file: file, line: line)
  }
}
