import Foundation
import TileFetching
import Tiles

/// The single line on the terminal that shows how a tile download goes, redrawn in place at most ten times
/// a second. Made only when standard error is a terminal and --quiet is not given, so that cron jobs and
/// pipes see nothing but errors.
///
/// `@unchecked Sendable`: the download reports from several tasks; `lastDraw` and `drawn` are touched only
/// while `lock` is held.
final class ProgressLine: @unchecked Sendable {
  private let lock = NSLock()
  private var lastDraw: UInt64 = 0
  private var drawn = false
  private var stopped = false

  /// Nil when nothing should be shown.
  init?(quiet: Bool) {
    guard !quiet, Console.stderrIsTerminal else { return nil }
  }

  func update(_ progress: TileDownloadProgress) {
    let now = DispatchTime.now().uptimeNanoseconds
    lock.lock()
    defer { lock.unlock() }
    guard !stopped, progress.done == progress.total || now - lastDraw >= 100_000_000 else { return }
    lastDraw = now
    drawn = true
    // Carriage return, the line, then "erase to the end of the line" for a shorter line after a longer one.
    FileHandle.standardError.write(Data(("\r" + progress.line + "\u{1B}[K").utf8))
  }

  /// Clears the line for good (the download is over or stopping), so the next message starts on a clean
  /// line and no later report draws it again.
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    drawn = false
    stopped = true
  }
}
