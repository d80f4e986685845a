import Foundation

/// An output written a piece at a time, for one too large to build in memory first (an export of a
/// million places). A file gets its pieces in a temporary file beside it, which `finish` flushes to disk
/// and hands on as an `OutputFile` whose `commit` renames it over the target, so a reader never sees
/// half of it and a failure halfway leaves the old file as it was. Standard output and a FIFO or device
/// get each piece as it comes (what a pipe would show of any failing writer).
final class OutputPieces {
  let path: String
  private let descriptor: Int32
  /// The temporary file and the file it will replace; nil when writing into the output directly.
  private let staged: (temporary: String, target: String)?
  private var isOpen = true

  /// Whether the pieces go to a temporary file (the target changes only at `commit`).
  var isStaged: Bool { staged != nil }
  /// How many bytes were written so far.
  private(set) var written = 0

  /// Opens the output; the target comes from `OutputFile.targets`, which has checked it.
  init(_ target: OutputTarget) throws(CLIError) {
    path = target.given
    switch target.kind {
    case .standardOutput:
      descriptor = STDOUT_FILENO
      staged = nil
    case .stream:
      descriptor = open(target.resolved, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard descriptor >= 0 else { throw .failure("cannot write \(path): \(OutputFile.systemError())") }
      staged = nil
    case .file:
      let folder = (target.resolved as NSString).deletingLastPathComponent
      let name = (target.resolved as NSString).lastPathComponent
      let folderPath = folder.isEmpty ? "." : folder
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folderPath, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw .failure(
          "cannot write \(path): the folder \(URL(fileURLWithPath: folderPath).path) does not exist")
      }
      StaleTemporaryFiles.remove(beside: name, in: folderPath)
      guard
        let (descriptor, temporary) = makeTemporaryFile(
          startingWith: folderPath + "/" + StaleTemporaryFiles.prefix(for: name))
      else { throw .failure("cannot write \(path): \(OutputFile.systemError())") }
      self.descriptor = descriptor
      staged = (temporary, target.resolved)
    }
  }

  /// Writes the next piece; on a failure the output is discarded.
  func write(_ bytes: [UInt8]) throws(CLIError) {
    written += bytes.count
    guard writeAll(bytes, to: descriptor) else {
      let reason = OutputFile.systemError()
      discard()
      throw .failure(
        staged == nil && descriptor == STDOUT_FILENO
          ? "cannot write to standard output: \(reason)" : "cannot write \(path): \(reason)")
    }
  }

  /// Ends the output: a temporary file gets the permissions a new file would have and is flushed to
  /// disk, ready for `commit`. Committing output written directly does nothing more.
  func finish() throws(CLIError) -> OutputFile {
    guard let staged else {
      close()
      return OutputFile(path: path, bytes: [], destination: .standardOutput)
    }
    let mask = umask(0)
    umask(mask)
    guard fchmod(descriptor, 0o666 & ~mask) == 0 && fsync(descriptor) == 0 else {
      let reason = OutputFile.systemError()
      discard()
      throw .failure("cannot write \(path): \(reason)")
    }
    close()
    return OutputFile(
      path: path, bytes: [], destination: .staged(temporary: staged.temporary, target: staged.target))
  }

  /// Stops writing; a temporary file is removed, the target left as it was.
  func discard() {
    close()
    if let staged { unlink(staged.temporary) }
  }

  private func close() {
    guard isOpen else { return }
    isOpen = false
    if descriptor != STDOUT_FILENO { Glibc.close(descriptor) }
  }

  deinit { close() }
}
