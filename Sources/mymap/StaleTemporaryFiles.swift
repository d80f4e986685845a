import Foundation

/// The temporary files that atomic writes leave when a process is killed between writing and renaming
/// (`kill -9`, a power cut): each name carries its writer's process id, so a later write of the same
/// file removes those whose writer is gone and leaves those of a writer still at work.
enum StaleTemporaryFiles {
  /// `.map.png.tmp-1234-`: the start of a temporary file's name, before mkstemp's six characters.
  static func prefix(for name: String) -> String {
    ".\(name).tmp-\(getpid())-"
  }

  /// Older mymap versions wrote `.NAME.tmp-XXXXXX` without a process id: such a file older than this is
  /// taken as left behind (no write takes that long).
  static let unnamedWriterAge: TimeInterval = 3600

  /// Removes the left-behind temporary files of `name` in `folder`. Best effort: what cannot be removed
  /// stays, and the write goes on.
  static func remove(beside name: String, in folder: String) {
    let start = ".\(name).tmp-"
    guard let directory = opendir(folder) else { return }
    defer { closedir(directory) }
    var stale: [String] = []
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard entryName.hasPrefix(start) else { continue }
      if isLeftBehind(String(entryName.dropFirst(start.count)), path: folder + "/" + entryName) {
        stale.append(entryName)
      }
    }
    // A store an import was filling (`.locations.sqlite.tmp-PID-import`) may have SQLite's files beside it.
    for entryName in stale {
      for suffix in SQLiteSidecars.suffixes { unlink(folder + "/" + entryName + suffix) }
    }
  }

  /// `rest` is `PID-XXXXXX` (this version) or `XXXXXX` (older ones).
  private static func isLeftBehind(_ rest: String, path: String) -> Bool {
    let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
    if parts.count == 2, parts[1].utf8.count == 6, let pid = Int32(parts[0]), pid > 0 {
      return kill(pid, 0) != 0 && errno == ESRCH
    }
    guard parts.count == 1, rest.utf8.count == 6 else { return false }
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
    return Date().timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > unnamedWriterAge
  }
}
