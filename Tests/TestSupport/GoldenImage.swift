import Foundation
import ImageCodecs
import MapSnapshotTesting
import Rendering
import Tiles
import XCTest

/// Golden-image checks (ARCHITECTURE.md §7): a rendered PNG is compared as decoded pixels, with tolerances, against
/// `Tests/RenderingTests/Goldens/<name>.png`.
///
/// - A missing golden is written from the actual image and the test fails, saying so: a new golden must be
///   looked at before it is trusted.
/// - `MYMAP_RECORD_GOLDENS=1` re-records every golden that is checked; those tests fail too, so a run with
///   the variable left on can never pass by accident.
/// - On a mismatch, `<name>.actual.png` and `<name>.diff.png` (expected faded to grey, differing pixels in
///   magenta) are written to `Goldens/failures/` and the failure message gives their paths and the summary.
///   A later passing run removes them again.
public enum GoldenImage {
  /// The environment variable that turns recording on (value `1`).
  public static let recordVariable = "MYMAP_RECORD_GOLDENS"

  /// True when this run re-records goldens.
  public static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

  /// What a check found.
  public enum Outcome: Sendable {
    /// The image matches its golden within the tolerance.
    case matched(ImageComparisonResult)
    /// The golden was written from the actual image: it was missing, or recording is on.
    case recorded(golden: URL, wasMissing: Bool)
    /// The image differs beyond the tolerance; `diff` is nil when the sizes differ.
    case mismatched(ImageComparisonResult, golden: URL, actual: URL, diff: URL?)
    /// Something could not be read or written.
    case error(String)

    /// The message a test fails with, or nil when it passes.
    public var failureMessage: String? {
      switch self {
      case .matched:
        return nil
      case .recorded(let golden, let wasMissing):
        return wasMissing
          ? "golden \(golden.path) was missing and has been recorded from this run; check it and run again"
          : "golden \(golden.path) re-recorded (\(recordVariable)=1); unset it and run again to compare"
      case .mismatched(let result, let golden, let actual, let diff):
        var message = "image does not match golden \(golden.lastPathComponent): \(result.summary)\n"
        message += "  expected: \(golden.path)\n  actual:   \(actual.path)"
        message += diff.map { "\n  diff:     \($0.path)" } ?? "\n  (no diff image: the sizes differ)"
        return message
      case .error(let message):
        return message
      }
    }
  }

  /// Checks a PNG against the golden `<name>.png` and fails the calling test unless it matches.
  ///
  /// `name` may contain `/` to group goldens in folders; it names the file without `.png`.
  public static func assertMatches(
    _ png: Data, named name: String, tolerance: ImageTolerance = .standard, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    if let message = check(png, named: name, tolerance: tolerance).failureMessage {
      XCTFail(message, file: file, line: line)
    }
  }

  /// The same for decoded pixels (encoded to PNG first, so a recorded golden is exactly this image).
  public static func assertMatches(
    _ image: RasterImage, named name: String, tolerance: ImageTolerance = .standard,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    do {
      assertMatches(try PNGCodec.encode(image), named: name, tolerance: tolerance, file: file, line: line)
    } catch {
      XCTFail("cannot encode the image for golden \(name): \(error)", file: file, line: line)
    }
  }

  /// The check itself, without XCTest, so that it can be tested and used from other harnesses.
  ///
  /// - Parameters:
  ///   - directory: where goldens live (`failures/` is made inside it).
  ///   - record: write the golden instead of comparing.
  public static func check(
    _ png: Data, named name: String, tolerance: ImageTolerance = .standard,
    directory: URL = RepositoryPaths.goldens, record: Bool = isRecording
  ) -> Outcome {
    // The users' snapshot check (MapSnapshotTesting) is the one implementation; goldens differ in words.
    let outcome = MapSnapshotReference.check(
      png, named: name, in: directory, record: record, tolerance: tolerance, recordVariable: recordVariable)
    switch outcome {
    case .matched(let result): return .matched(result)
    case .recorded(let golden, let wasMissing): return .recorded(golden: golden, wasMissing: wasMissing)
    case .mismatched(let result, let golden, let actual, let diff):
      return .mismatched(result, golden: golden, actual: actual, diff: diff)
    case .error(let message): return .error(message)
    }
  }
}
