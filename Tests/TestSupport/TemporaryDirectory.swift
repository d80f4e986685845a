import Foundation
import XCTest

/// A fresh, empty directory under `NSTemporaryDirectory()`, removed when the value goes away or on `remove()`.
///
/// Each instance has a unique name, so tests running in parallel (or a crashed earlier run) never share one.
public final class TemporaryDirectory: Sendable {
  public let url: URL

  /// Creates `<tmp>/<prefix>-<UUID>/`.
  public init(prefix: String = "mymap-tests") throws {
    url = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { remove() }

  public var path: String { url.path }

  /// A path inside the directory (nothing is created).
  public func url(_ relativePath: String) -> URL {
    url.appendingPathComponent(relativePath)
  }

  /// Writes bytes to a path inside the directory, creating intermediate folders; returns the file's URL.
  @discardableResult
  public func write(_ data: Data, to relativePath: String) throws -> URL {
    let file = url(relativePath)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file)
    return file
  }

  /// Writes UTF-8 text to a path inside the directory; returns the file's URL.
  @discardableResult
  public func write(_ text: String, to relativePath: String) throws -> URL {
    try write(Data(text.utf8), to: relativePath)
  }

  /// Removes the directory and everything in it. Safe to call more than once.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// A fresh temporary folder, removed when the test ends.
public func makeTemporaryFolder(_ test: XCTestCase) throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "mymap-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
  return folder.path
}
