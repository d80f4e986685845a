import Foundation

/// Standard output in 64 KiB writes, so that listing a million places is not a million system calls.
final class BufferedOutput {
  private var buffer: [UInt8] = []
  private let limit = 1 << 16

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= limit { flush() }
  }

  /// Lets `body` append bytes to the buffer directly (no `String` in between).
  func write(_ body: (inout [UInt8]) -> Void) {
    body(&buffer)
    if buffer.count >= limit { flush() }
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    Console.standardOutput(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  deinit { flush() }
}
