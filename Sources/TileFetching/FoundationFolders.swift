import Foundation
import Tiles

/// The folders FoundationNetworking makes in the user's home whenever a session configuration is made,
/// although mymap uses neither (it keeps tiles itself, and its sessions have no disk cache and no persistent
/// cookies):
///
/// - `URLSessionConfiguration.default` (which `.ephemeral` starts from) reads `HTTPCookieStorage.shared`,
///   whose first use makes `<application support>/<name of the executable's folder>` (on Linux
///   `$XDG_DATA_HOME`, else `~/.local/share`; `debug`, `release`, `bin`, …) for a cookie file it writes only
///   when a persistent cookie is set through it, and `URLCache.shared`, whose first use makes
///   `<caches>/org.swift.foundation.URLCache/<program>` (`$XDG_CACHE_HOME`, else `~/.cache`);
/// - `.ephemeral` also makes a URLCache of its own without a disk path, which makes that same folder again
///   each time.
///
/// No configuration setting can prevent this (it happens while the configuration is made, before any
/// setting can be changed), so the folders are removed again afterwards: each of them, and each parent made
/// along with it, only when it did not exist before and is still empty.
enum FoundationFolders {
  private static let lock = NSLock()

  /// Makes a session configuration with `make` and leaves no new, empty `foundationFolders()` behind.
  static func leavingNoneBehind<T>(_ make: () -> T) -> T {
    leavingNoneBehind(foundationFolders(), make)
  }

  /// Runs `make`, then removes each of `folders` and of their parents that did not exist before and is an
  /// empty folder afterwards, deepest first. Runs one at a time, so that one caller cannot take another's
  /// new folder for one that existed before.
  static func leavingNoneBehind<T>(_ folders: [String], _ make: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    let missing = Set(folders.flatMap(missingFolders))
    let result = make()
    // A folder comes before its parents: its path is longer.
    for folder in missing.sorted(by: { $0.count > $1.count }) {
      // rmdir removes only an empty folder (not a file, nor a link to a folder).
      _ = rmdir(folder)
    }
    return result
  }

  /// The folders FoundationNetworking makes, computed as it does.
  static func foundationFolders() -> [String] {
    let files = FileManager.default
    var folders: [String] = []
    if let support = files.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
      var name = Bundle.main.bundlePath.components(separatedBy: "/").last ?? ""
      if let dot = name.range(of: ".", options: .backwards) { name = String(name[..<dot.lowerBound]) }
      folders.append(URL(fileURLWithPath: name, relativeTo: support).path)
    }
    if let caches = files.urls(for: .cachesDirectory, in: .userDomainMask).first {
      let name = (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName)
        .replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "\\", with: "_")
        .replacingOccurrences(of: ":", with: "_")
      folders.append(
        caches.appendingPathComponent("org.swift.foundation.URLCache", isDirectory: true)
          .appendingPathComponent(name, isDirectory: true).path)
    }
    return folders
  }

  /// `path` and its parents, up to the first that exists, when `path` does not exist; else nothing.
  private static func missingFolders(_ path: String) -> [String] {
    var missing: [String] = []
    var folder = URL(fileURLWithPath: path).standardizedFileURL
    while folder.path != "/", !FileManager.default.fileExists(atPath: folder.path) {
      missing.append(folder.path)
      folder = folder.deletingLastPathComponent().standardizedFileURL
    }
    return missing
  }
}
