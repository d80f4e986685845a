import Dispatch
import Foundation
import Locking
import TileFetching
import Tiles

/// Ctrl-C during a tile download: the first one lets the tiles in flight finish and commits the cache; a
/// second one ends the process at once (the cache stays consistent even then: every tile is written to a
/// temporary file and renamed, and SQLite keeps its own journal).
enum Interrupts {
  /// Routes Ctrl-C to `cancellation` until the returned source is cancelled.
  static func forward(to cancellation: FetchCancellation, quiet: Bool, progress: ProgressLine?)
    -> DispatchSourceSignal
  {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    let presses = Counter()
    source.setEventHandler {
      if presses.increment() == 1 {
        if !quiet {
          progress?.finish()
          Console.note("stopping after the tiles in flight (Ctrl-C again to quit at once)")
        }
        cancellation.cancel()
      } else {
        signal(SIGINT, SIG_DFL)
        kill(getpid(), SIGINT)
      }
    }
    source.resume()
    return source
  }

  /// Puts Ctrl-C back to its default.
  static func restore(_ source: DispatchSourceSignal) {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}

/// A count shared by the signal handler's dispatch source and the command.
final class Counter: Sendable {
  private let value = Locked(0)

  func increment() -> Int {
    value.withLock { value in
      value += 1
      return value
    }
  }
}
