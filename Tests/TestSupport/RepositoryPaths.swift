import Foundation
import XCTest

/// Where things are in the checkout, found from this source file's own path so that tests work from any
/// working directory (`swift test`, an IDE, CI).
public enum RepositoryPaths {
  /// The checkout's root: this file is `Tests/TestSupport/RepositoryPaths.swift`.
  public static let root: URL = URL(fileURLWithPath: #filePath).standardizedFileURL
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// `Examples/`: the sample location files shipped with mymap.
  public static var examples: URL { root.appendingPathComponent("Examples", isDirectory: true) }

  /// `Tests/Fixtures/`: small inputs shared by the test targets.
  public static var fixtures: URL { root.appendingPathComponent("Tests/Fixtures", isDirectory: true) }

  /// `Styles/`: the bundled map styles.
  public static var styles: URL { root.appendingPathComponent("Styles", isDirectory: true) }

  /// `Tests/RenderingTests/Goldens/`: the golden images.
  public static var goldens: URL {
    root.appendingPathComponent("Tests/RenderingTests/Goldens", isDirectory: true)
  }

  /// A file under `Tests/Fixtures/`.
  public static func fixture(_ relativePath: String) -> URL {
    fixtures.appendingPathComponent(relativePath)
  }

  /// The team's larger shared data (`../shared/data` next to the checkout, or `$MYMAP_SHARED_DATA`); nil when
  /// it is not there, e.g. in a plain clone. Tests that need it use `requireSharedData`.
  public static var sharedData: URL? {
    let candidate: URL
    if let override = ProcessInfo.processInfo.environment["MYMAP_SHARED_DATA"], !override.isEmpty {
      candidate = URL(fileURLWithPath: override, isDirectory: true)
    } else {
      candidate = root.deletingLastPathComponent().appendingPathComponent("shared/data", isDirectory: true)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    return candidate.standardizedFileURL
  }

  /// The shared data folder (or a path inside it), or an `XCTSkip` that says what is missing and why the test
  /// needs it, so that a clone without the data skips instead of failing.
  public static func requireSharedData(_ relativePath: String = "", for purpose: String) throws -> URL {
    guard let base = sharedData else {
      throw XCTSkip(
        "\(purpose) needs the shared data folder (\(root.deletingLastPathComponent().path)/shared/data or "
          + "$MYMAP_SHARED_DATA), which is not present")
    }
    let url = relativePath.isEmpty ? base : base.appendingPathComponent(relativePath)
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw XCTSkip("\(purpose) needs \(url.path), which is not present")
    }
    return url
  }
}
