import Foundation

/// Command output written so that a reader never sees half a file: the bytes go to a temporary file in the
/// same folder, flushed to disk, then renamed over the target. `-` means standard output.
///
/// Staging first and committing later lets a command that writes two files (a map and its layout) write
/// neither when one of them cannot be written.
struct OutputFile {
  let path: String
  private let bytes: [UInt8]
  /// The written temporary file; nil for standard output.
  private let temporary: String?

  /// Writes the bytes to a temporary file beside `path` (for `-`, keeps them for standard output).
  static func stage(_ bytes: [UInt8], to path: String) throws(CLIError) -> OutputFile {
    guard path != "-" else { return OutputFile(path: path, bytes: bytes, temporary: nil) }
    let target = URL(fileURLWithPath: path)
    let folder = target.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw .failure("cannot write \(path): the folder \(folder) does not exist")
    }
    var template = Array((folder + "/." + target.lastPathComponent + ".tmp-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw .failure("cannot write \(path): \(systemError())") }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var ok = writeAll(bytes, to: descriptor)
    let mask = umask(0)
    umask(mask)
    ok = ok && fchmod(descriptor, 0o666 & ~mask) == 0 && fsync(descriptor) == 0
    let reason = ok ? "" : systemError()
    close(descriptor)
    guard ok else {
      unlink(temporary)
      throw .failure("cannot write \(path): \(reason)")
    }
    return OutputFile(path: path, bytes: [], temporary: temporary)
  }

  /// Renames the temporary file over the target (or writes the bytes to standard output).
  func commit() throws(CLIError) {
    guard let temporary else {
      guard writeAll(bytes, to: STDOUT_FILENO) else {
        throw .failure("cannot write to standard output: \(OutputFile.systemError())")
      }
      return
    }
    guard rename(temporary, path) == 0 else {
      let reason = OutputFile.systemError()
      unlink(temporary)
      throw .failure("cannot write \(path): \(reason)")
    }
  }

  /// Removes the temporary file without touching the target.
  func discard() {
    if let temporary { unlink(temporary) }
  }

  /// Stages and commits in one step.
  static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
    try stage(bytes, to: path).commit()
  }

  static func systemError() -> String {
    String(cString: strerror(errno))
  }
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
