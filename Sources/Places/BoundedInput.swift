import Foundation

/// Reads a whole input (a file, a FIFO, a device, standard input) but never more than a limit: a file
/// larger than the limit is refused before it is read, and a stream is refused as soon as it passes it, so
/// `/dev/zero` or an endless pipe cannot fill memory.
enum BoundedInput {
  enum Failure: Error, Equatable {
    case tooLarge(limit: Int)
    case system(reason: String)
  }

  /// The bytes at `path` (following links); a folder or a socket is `system` with a reason to show.
  static func read(path: String, limit: Int) throws(Failure) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(reason: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .system(reason: String(cString: strerror(errno))) }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: throw .system(reason: "it is a directory")
    case S_IFREG:
      guard Int(info.st_size) <= limit else { throw .tooLarge(limit: limit) }
      return try read(descriptor: descriptor, limit: limit, expected: Int(info.st_size))
    case S_IFIFO, S_IFCHR: return try read(descriptor: descriptor, limit: limit, expected: 0)
    default: throw .system(reason: "it is neither a file, a FIFO nor a device")
    }
  }

  /// Everything `descriptor` gives until its end, or `tooLarge` once more than `limit` bytes came.
  static func read(descriptor: Int32, limit: Int, expected: Int = 0) throws(Failure) -> Data {
    var data = Data(capacity: min(max(expected, 0), limit) + 1)
    let chunk = 1 << 16
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, chunk) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(reason: String(cString: strerror(errno)))
      }
      if count == 0 { return data }
      guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
      data.append(contentsOf: buffer[0..<count])
    }
  }
}
