import Foundation

/// Writes command output so that a reader never sees half a file: the bytes go to a temporary file in the
/// same folder, which is flushed to disk and then renamed over the target. `-` means standard output.
enum OutputFile {
  static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
    if path == "-" {
      FileHandle.standardOutput.write(Data(bytes))
      return
    }
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
    var ok = bytes.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
    let mask = umask(0)
    umask(mask)
    ok = ok && fchmod(descriptor, 0o666 & ~mask) == 0 && fsync(descriptor) == 0
    let reason = ok ? "" : systemError()
    close(descriptor)
    guard ok, rename(temporary, path) == 0 else {
      let failure = ok ? systemError() : reason
      unlink(temporary)
      throw .failure("cannot write \(path): \(failure)")
    }
  }

  private static func systemError() -> String {
    String(cString: strerror(errno))
  }
}
