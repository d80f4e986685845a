import Foundation

/// Command output written so that a reader never sees half a file: the bytes go to a temporary file in the
/// same folder, flushed to disk, then renamed over the target. `-` means standard output; a FIFO or a
/// device is written into; a symbolic link is written through to its file (`OutputTarget`).
///
/// Staging first and committing later lets a command that writes two files (a map and its layout) write
/// neither when one of them cannot be written.
struct OutputFile {
  let path: String
  let bytes: [UInt8]
  let destination: Destination

  enum Destination {
    case standardOutput
    /// A FIFO or device, opened and written at commit.
    case stream(String)
    /// The written temporary file and the file it will replace.
    case staged(temporary: String, target: String)
  }

  /// Checks every output of a command before any is staged: none may be an input (`inputs`), and no two
  /// may be the same file. `outputs` pairs each path with the option that named it.
  static func targets(_ outputs: [(path: String, option: String)], inputs: [ProtectedInput]) throws(CLIError)
    -> [OutputTarget]
  {
    var targets: [OutputTarget] = []
    for (path, option) in outputs {
      let target = try OutputTarget(path)
      try target.checkNotOverwriting(inputs, option: option)
      for (earlier, earlierOutput) in zip(targets, outputs) where earlier.isSameFile(as: target) {
        throw .usage("\(earlierOutput.option) and \(option) name the same file (\(path)); give two paths")
      }
      targets.append(target)
    }
    return targets
  }

  /// Writes the bytes to a temporary file beside the target's real file (for standard output or a stream,
  /// keeps them for `commit`). The target comes from `targets`, which has checked it.
  static func stage(_ bytes: [UInt8], to target: OutputTarget) throws(CLIError) -> OutputFile {
    let path = target.given
    switch target.kind {
    case .standardOutput: return OutputFile(path: path, bytes: bytes, destination: .standardOutput)
    case .stream: return OutputFile(path: path, bytes: bytes, destination: .stream(target.resolved))
    case .file: break
    }
    let pieces = try OutputPieces(target)
    try pieces.write(bytes)
    return try pieces.finish()
  }

  /// Renames the temporary file over the target, or writes the bytes to standard output or the stream.
  func commit() throws(CLIError) {
    switch destination {
    case .standardOutput:
      guard writeAll(bytes, to: STDOUT_FILENO) else {
        throw .failure("cannot write to standard output: \(OutputFile.systemError())")
      }
    case .stream(let resolved):
      let descriptor = open(resolved, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard descriptor >= 0 else { throw .failure("cannot write \(path): \(OutputFile.systemError())") }
      defer { close(descriptor) }
      guard writeAll(bytes, to: descriptor) else {
        throw .failure("cannot write \(path): \(OutputFile.systemError())")
      }
    case .staged(let temporary, let target):
      guard rename(temporary, target) == 0 else {
        let reason = OutputFile.systemError()
        unlink(temporary)
        throw .failure("cannot write \(path): \(reason)")
      }
    }
  }

  /// Removes the temporary file without touching the target.
  func discard() {
    if case .staged(let temporary, _) = destination { unlink(temporary) }
  }

  /// Checks, stages and commits in one step. `inputs` are files the command reads, which `path` must not be.
  static func write(
    _ bytes: [UInt8], to path: String, inputs: [ProtectedInput] = [], option: String = "--out"
  ) throws(CLIError) {
    try stage(bytes, to: targets([(path, option)], inputs: inputs)[0]).commit()
  }

  static func systemError() -> String {
    String(cString: strerror(errno))
  }
}

/// Creates a new file, readable and writable by this user alone, whose path is `prefix` and six characters
/// that make it unique (mkstemp(3)); nil with `errno` set when it cannot.
func makeTemporaryFile(startingWith prefix: String) -> (descriptor: Int32, path: String)? {
  var template = Array((prefix + "XXXXXX").utf8CString)
  let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  guard descriptor >= 0 else { return nil }
  return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// Writes every byte to a file descriptor, retrying after interruptions; false on an error (see `errno`).
/// FileHandle's writing traps on errors such as a full disk, which a user must see as one line instead.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
  bytes.withUnsafeBytes { buffer -> Bool in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
