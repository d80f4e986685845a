import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM as a request to stop that a loop can wait for beside other files: the first
/// one makes `descriptor` readable, and the loop ends when it is done with what it is doing (a map being
/// written is finished, so no temporary file is left). A second Ctrl-C ends the process at once.
final class StopSignals {
  /// Readable once a stop was asked for.
  let descriptor: Int32
  private let sources: [DispatchSourceSignal]

  init() throws(CLIError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw .failure("cannot set up Ctrl-C: \(OutputFile.systemError())") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    descriptor = ends[0]
    let writeEnd = ends[1]
    let presses = Counter()
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        if presses.increment() == 1 {
          var byte: UInt8 = 1
          _ = write(writeEnd, &byte, 1)
        } else if number == SIGINT {
          signal(SIGINT, SIG_DFL)
          kill(getpid(), SIGINT)
        }
      }
      source.resume()
      return source
    }
  }

  /// Whether a stop was asked for (without waiting).
  func isStopped() -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLIN) != 0
  }

  /// Puts both signals back to their defaults. The pipe stays open: a handler already running may still
  /// write to it, and the process ends next.
  func restore() {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
