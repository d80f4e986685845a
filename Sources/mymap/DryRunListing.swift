import Foundation

/// What a dry run lists, kept in an unlinked temporary file until the import is known to succeed: a file
/// that turns out bad halfway prints nothing on standard output, as a file read whole does, however many
/// places came before the bad one; memory holds 64 KiB of it.
final class DryRunListing {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  /// Why the temporary file could not take the listing (a full disk), once it could not.
  private var failure: String?

  init() throws(CLIError) {
    let folder = FileManager.default.temporaryDirectory.path
    guard let (descriptor, path) = makeTemporaryFile(startingWith: folder + "/.mymap-dry-run-") else {
      throw .failure("cannot keep the dry run's listing in \(folder): \(OutputFile.systemError())")
    }
    self.descriptor = descriptor
    unlink(path)
  }

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { spill() }
  }

  /// Writes the whole listing to standard output.
  func commit() throws(CLIError) {
    spill()
    if let failure { throw .failure("cannot keep the dry run's listing: \(failure)") }
    guard lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw .failure("cannot read the dry run's listing back: \(OutputFile.systemError())")
    }
    var piece = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = piece.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        throw .failure("cannot read the dry run's listing back: \(OutputFile.systemError())")
      }
      guard count > 0 else { return }
      Console.standardOutput(Array(piece[..<count]))
    }
  }

  private func spill() {
    if failure == nil && !writeAll(buffer, to: descriptor) { failure = OutputFile.systemError() }
    buffer.removeAll(keepingCapacity: true)
  }

  deinit { close(descriptor) }
}
