import Foundation

/// Why `InputFile.read` could not read an input.
public enum InputFileError: Error, Equatable, Sendable {
  /// More than the limit: a regular file by its size, before it is read; a stream as soon as it passes it.
  case tooLarge(limit: Int)
  /// A folder, a socket: nothing a command reads whole.
  case notReadable(FileKind)
  /// open(2) or read(2) failed; the text says why.
  case system(String)

  /// Why, in words, after "cannot read the file: ".
  public var reason: String {
    switch self {
    case .tooLarge(let limit): "it is larger than \(ByteCount.text(limit))"
    case .notReadable(let kind): "it is \(kind)"
    case .system(let why): why
    }
  }
}

/// Reads a whole input that a user names — a file, a FIFO, a device, standard input — but never more than a
/// limit, so that `/dev/zero` or an endless pipe cannot fill memory. Unlike `RegularFile`, a FIFO is read
/// (it is how `--locations <(command)` arrives), waiting for its writer as any Unix tool does.
public enum InputFile {
  /// The bytes at `path` (links followed).
  public static func read(path: String, limit: Int) throws(InputFileError) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .system(String(cString: strerror(errno))) }
    let kind = FileKind(mode: info.st_mode)
    switch kind {
    case .regular:
      guard Int(info.st_size) <= limit else { throw .tooLarge(limit: limit) }
      return try read(descriptor: descriptor, limit: limit, expected: Int(info.st_size))
    case .namedPipe, .characterDevice: return try read(descriptor: descriptor, limit: limit)
    default: throw .notReadable(kind)
    }
  }

  /// Everything `descriptor` gives until its end, or `tooLarge` once more than `limit` bytes came.
  /// `expected` sizes the first allocation.
  public static func read(descriptor: Int32, limit: Int, expected: Int = 0) throws(InputFileError) -> Data {
    var data = Data(capacity: min(max(expected, 0), limit) + 1)
    let chunk = 1 << 16
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, chunk) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(String(cString: strerror(errno)))
      }
      if count == 0 { return data }
      guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
      data.append(contentsOf: buffer[0..<count])
    }
  }
}
