import Foundation

/// Why `RegularFile.read` could not read a file.
public enum RegularFileError: Error, Equatable, Sendable {
  /// The path is not a regular file: it is this.
  case notRegular(FileKind)
  /// The file has `bytes` bytes, more than the `limit` asked for.
  case tooLarge(bytes: Int, limit: Int)
  /// open(2) or read(2) failed; the text says why.
  case unreadable(String)

  /// Why, in words: `it is a named pipe (FIFO)`, `it has 5000000 bytes, over the limit of 4 MiB`.
  public var reason: String {
    switch self {
    case .notRegular(let kind): "it is \(kind), not a file"
    case .tooLarge(let bytes, let limit):
      "it has \(bytes) bytes, more than the limit of \(ByteCount.text(limit))"
    case .unreadable(let why): why
    }
  }
}

/// Reads files that an input names without ever blocking or reading without end: the file is opened with
/// `O_NONBLOCK` (so opening a named pipe returns at once) and checked with fstat(2) on the open descriptor
/// (so a path swapped for a pipe after a check cannot block), and no more than a given number of bytes is
/// read.
public enum RegularFile {
  /// The whole file at `path`, which must be a regular file of at most `limit` bytes; nil when nothing is
  /// there.
  public static func read(_ path: String, limit: Int) throws(RegularFileError) -> Data? {
    try withOpenFile(path) { descriptor, size throws(RegularFileError) in
      guard size <= limit else { throw .tooLarge(bytes: size, limit: limit) }
      // One byte more than the limit: a file that grows while it is read is still caught.
      return try readUpTo(descriptor, count: min(size, limit) + 1, limit: limit)
    }
  }

  /// Up to `count` bytes from the start of the regular file at `path`; nil when it is missing, not a
  /// regular file, or unreadable.
  public static func prefix(_ path: String, count: Int) -> Data? {
    try? withOpenFile(path) { descriptor, _ throws(RegularFileError) in
      try readUpTo(descriptor, count: count, limit: count)
    }
  }

  private static func withOpenFile(
    _ path: String, _ body: (Int32, Int) throws(RegularFileError) -> Data
  ) throws(RegularFileError) -> Data? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw .unreadable(String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
    let kind = FileKind(mode: status.st_mode)
    guard kind == .regular else { throw .notRegular(kind) }
    return try body(descriptor, Int(status.st_size))
  }

  /// Reads until `count` bytes or the end of the file; throws `tooLarge` when more than `limit` arrive.
  private static func readUpTo(_ descriptor: Int32, count: Int, limit: Int) throws(RegularFileError) -> Data {
    var data = Data(count: max(0, count))
    var filled = 0
    var failure: Int32 = 0
    data.withUnsafeMutableBytes { buffer in
      while filled < buffer.count {
        let got = Foundation.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        if got < 0 && errno == EINTR { continue }
        if got < 0 {
          failure = errno
          return
        }
        if got == 0 { return }
        filled += got
      }
    }
    if failure != 0 { throw .unreadable(String(cString: strerror(failure))) }
    guard filled <= limit else { throw .tooLarge(bytes: filled, limit: limit) }
    data.count = filled
    return data
  }
}
