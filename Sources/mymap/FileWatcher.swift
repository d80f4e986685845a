import Foundation

/// Waits for files to change, through inotify on the folders they are in: a file replaced by a rename (as
/// editors save) or created anew keeps being seen, and a SQLite store in WAL mode changes through its
/// `-wal` file before its own. Only writes and renames onto the named files count; reading them, deleting
/// them and everything else in the folders (the map being written beside them) does not.
final class FileWatcher {
  /// What counts as a change of a watched name: written to (truncating counts), or renamed onto. Not a
  /// creation or a close after writing: reading a store opens (and may create) its `-wal` file for
  /// writing without writing to it, and a map's own reading must not draw it again.
  private static let changes = UInt32(IN_MODIFY | IN_MOVED_TO)
  /// Changes that go on longer than this are drawn anyway, so that a stream of writes cannot starve
  /// the map.
  static let longestWait: Duration = .seconds(5)

  private let descriptor: Int32
  /// The watched names of each watched folder, by watch descriptor.
  private var names: [Int32: Set<String>] = [:]

  /// Watches `files` (their folders must exist). A file given through a symbolic link is watched at its
  /// target too. Failing to watch is exit 1 with the reason (`fs.inotify.max_user_watches`, say).
  init(files: [String]) throws(CLIError) {
    descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard descriptor >= 0 else { throw .failure("cannot watch for changes: \(OutputFile.systemError())") }
    var byFolder: [String: Set<String>] = [:]
    for file in files {
      var paths = [file]
      if let real = realpath(file, nil) {
        paths.append(String(cString: real))
        free(real)
      }
      for path in paths {
        let url = URL(fileURLWithPath: path)
        byFolder[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
      }
    }
    for (folder, watched) in byFolder.sorted(by: { $0.key < $1.key }) {
      let watch = inotify_add_watch(descriptor, folder, Self.changes | UInt32(IN_ONLYDIR))
      guard watch >= 0 else {
        // Not closed here: the watcher is whole by now, so `deinit` runs and closes it, and a second close
        // could take a descriptor another thread has just opened (fontconfig's, seen as EBADF).
        let reason = OutputFile.systemError()
        throw .failure("cannot watch \(folder) for changes: \(reason)")
      }
      names[watch, default: []].formUnion(watched)
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Waits for a change and then for `quiet` without another (or `longestWait` at most), so that one save
  /// or one import is one redraw. Returns false, at once, when `stop` becomes readable.
  func waitForChange(quiet: Duration, stop: Int32) -> Bool {
    let clock = ContinuousClock()
    var firstChange: ContinuousClock.Instant?
    while true {
      var timeout: Int32 = -1
      if let firstChange {
        let left = min(quiet, Self.longestWait - (clock.now - firstChange))
        // Both durations are at most seconds long: the milliseconds fit.
        timeout = Int32(min(max((left / .milliseconds(1)).rounded(.up), 0), 60_000))
      }
      var polled = [
        pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
        pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&polled, 2, timeout)
      if ready < 0 {
        if errno == EINTR { continue }
        return false
      }
      if polled[0].revents != 0 { return false }
      if ready == 0 {
        if firstChange != nil { return true }
        continue
      }
      if readEvents() && firstChange == nil { firstChange = clock.now }
      if let firstChange, clock.now - firstChange >= Self.longestWait { return true }
    }
  }

  /// Reads the events waiting; true when one of them is a change of a watched name (or events were lost).
  private func readEvents() -> Bool {
    var changed = false
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return changed }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let event = buffer.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
        }
        let nameLength = Int(event.len)
        let end = min(offset + header + nameLength, count)
        let nameBytes = buffer[(offset + header)..<end].prefix { $0 != 0 }
        let name = String(decoding: nameBytes, as: UTF8.self)
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
          changed = true
        } else if event.mask & Self.changes != 0, names[event.wd]?.contains(name) == true {
          changed = true
        }
        offset = end
      }
    }
  }
}
