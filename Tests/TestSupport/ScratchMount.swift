import Foundation
import XCTest

/// A small tmpfs mounted for one test, to play a read-only or a full disk. Mounting needs root (or
/// CAP_SYS_ADMIN); where it is refused, `init` throws `TestPrerequisiteMissing`, failing the test. Unmounted when the value goes away.
public final class ScratchMount {
  public let url: URL
  private let folder: TemporaryDirectory

  /// Mounts a tmpfs of `kilobytes` KiB on a fresh temporary folder.
  public init(kilobytes: Int) throws {
    folder = try TemporaryDirectory(prefix: "mymap-mount")
    url = folder.url
    let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", url.path])
    guard status == 0 else {
      throw TestPrerequisiteMissing(
        "cannot mount a tmpfs here (mount exited \(status); it needs root): a read-only or full disk cannot be played"
      )
    }
  }

  deinit {
    _ = Self.run("/bin/umount", ["-l", url.path])
  }

  public var path: String { url.path }

  /// A path inside the mount.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Makes the file system read-only.
  public func remountReadOnly() throws {
    let status = Self.run("/bin/mount", ["-o", "remount,ro", url.path])
    guard status == 0 else {
      throw TestPrerequisiteMissing("cannot remount \(url.path) read-only (mount exited \(status))")
    }
  }

  /// Fills the file system until not one more block fits.
  public func fill() throws {
    let filler = path(".filler")
    _ = FileManager.default.createFile(atPath: filler, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: filler) else { return }
    defer { try? handle.close() }
    let block = Data(count: 4096)
    while (try? handle.write(contentsOf: block)) != nil {}
  }

  private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
