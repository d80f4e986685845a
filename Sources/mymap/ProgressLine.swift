import Foundation
import Locking
import TileFetching
import Tiles

/// The single line on the terminal that shows how a tile download goes, redrawn in place at most ten times
/// a second. Made only when standard error is a terminal that can redraw a line (not `TERM=dumb`, e.g. an
/// editor's shell) and --quiet is not given, so that cron jobs and pipes see nothing but errors. The download reports from several tasks: the state lives in a `Locked`.
final class ProgressLine: Sendable {
  private struct State {
    var lastDraw: UInt64 = 0
    var drawn = false
    var stopped = false
  }

  private let state = Locked(State())

  /// Nil when nothing should be shown.
  init?(quiet: Bool) {
    guard !quiet, Console.stderrIsTerminal, ProcessInfo.processInfo.environment["TERM"] != "dumb" else {
      return nil
    }
  }

  func update(_ progress: TileDownloadProgress) {
    let now = DispatchTime.now().uptimeNanoseconds
    state.withLock { state in
      guard !state.stopped, progress.done == progress.total || now - state.lastDraw >= 100_000_000 else {
        return
      }
      state.lastDraw = now
      state.drawn = true
      // Carriage return, the line, then "erase to the end of the line" for a shorter line after a longer one.
      FileHandle.standardError.write(Data(("\r" + progress.line + "\u{1B}[K").utf8))
    }
  }

  /// Clears the line for good (the download is over or stopping), so the next message starts on a clean
  /// line and no later report draws it again.
  func finish() {
    state.withLock { state in
      if state.drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      state.drawn = false
      state.stopped = true
    }
  }
}
