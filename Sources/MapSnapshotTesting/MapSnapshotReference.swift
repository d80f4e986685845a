import Foundation
import ImageCodecs
import Rendering

/// A reference image on disk and the check of a new image against it: decoded pixels compared with
/// `ImageComparison`, as `mymap diff` and mymap's own golden images do, never file bytes.
///
/// References are `<folder>/<name>.png`; on a mismatch the new image and a diff (the reference faded to
/// grey, differing pixels in magenta) are written to `<folder>/failures/<name>.actual.png` and
/// `<name>.diff.png`, and removed again by the next run that passes or records.
public enum MapSnapshotReference {
  /// What a check found.
  public enum Outcome: Sendable {
    /// The image matches its reference within the tolerance.
    case matched(ImageComparisonResult)
    /// The reference was written from the image: it was missing, or recording was asked for.
    case recorded(reference: URL, wasMissing: Bool)
    /// The image differs beyond the tolerance; `diff` is nil when the sizes differ.
    case mismatched(ImageComparisonResult, reference: URL, actual: URL, diff: URL?)
    /// Something could not be read or written; the text says what.
    case error(String)
  }

  /// Checks `png` against `<folder>/<name>.png`, or records it there when `record` is set or the
  /// reference is missing. `name` may contain `/` to group references in folders; `recordVariable` is
  /// the environment variable that turns recording on, named in the advice for an unreadable reference.
  public static func check(
    _ png: Data, named name: String, in folder: URL, record: Bool, tolerance: ImageTolerance,
    recordVariable: String
  ) -> Outcome {
    guard isValidName(name) else {
      return .error("snapshot name \"\(name)\" must be a relative path without \"..\" and without \".png\"")
    }
    let reference = folder.appendingPathComponent(name + ".png")
    let failures = failureFolder(of: folder)
    let actualURL = failures.appendingPathComponent(name + ".actual.png")
    let diffURL = failures.appendingPathComponent(name + ".diff.png")
    let actual: RasterImage
    do {
      actual = try PNGCodec.decode(png)
    } catch {
      return .error("the image to check against \(reference.path) is not a readable PNG: \(error)")
    }
    let exists = FileManager.default.fileExists(atPath: reference.path)
    if record || !exists {
      do {
        try write(png, to: reference)
      } catch {
        return .error("cannot record \(reference.path): \(error)")
      }
      removeStale([actualURL, diffURL])
      return .recorded(reference: reference, wasMissing: !exists)
    }
    let expected: RasterImage
    do {
      expected = try PNGCodec.decode(try Data(contentsOf: reference))
    } catch {
      return .error(
        "reference \(reference.path) cannot be read (\(error)); delete it or set \(recordVariable)=1 to record"
          + " it again")
    }
    let result = ImageComparison.compare(expected, actual, tolerance: tolerance)
    if result.passes {
      removeStale([actualURL, diffURL])
      return .matched(result)
    }
    do {
      try write(png, to: actualURL)
      guard let diff = result.diffImage() else {
        removeStale([diffURL])  // an old diff would not belong to this run's image
        return .mismatched(result, reference: reference, actual: actualURL, diff: nil)
      }
      try write(try PNGCodec.encode(diff), to: diffURL)
      return .mismatched(result, reference: reference, actual: actualURL, diff: diffURL)
    } catch {
      return .error(
        "\(result.summary); and the failure images could not be written to \(failures.path): \(error)")
    }
  }

  /// Where the images of a failed check go.
  public static func failureFolder(of folder: URL) -> URL {
    folder.appendingPathComponent("failures", isDirectory: true)
  }

  private static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("/") && !name.hasSuffix(".png")
      && !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
  }

  /// Atomically: an interrupted run must not leave a truncated reference that later fails to decode.
  private static func write(_ data: Data, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
  }

  /// Failure images from an earlier run would mislead once this run has passed or recorded.
  private static func removeStale(_ urls: [URL]) {
    for url in urls { try? FileManager.default.removeItem(at: url) }
  }
}
