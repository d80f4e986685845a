import Foundation

/// What is at a path, as stat(2) sees it (links followed).
///
/// Tile sources are read only from regular files: reading a named pipe waits for a writer that may never
/// come, and a device such as `/dev/zero` never ends.
enum FileKind: Equatable, CustomStringConvertible {
  case regular
  case folder
  case namedPipe
  case characterDevice
  case blockDevice
  case socket
  case other

  /// The kind of what is at `path`; nil when nothing is there (or it cannot be looked at).
  init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(mode: status.st_mode)
  }

  init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .folder
    case S_IFIFO: self = .namedPipe
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFSOCK: self = .socket
    default: self = .other
    }
  }

  /// `a named pipe (FIFO)`, `a folder`, … : what the path is, for an error message.
  var description: String {
    switch self {
    case .regular: "a file"
    case .folder: "a folder"
    case .namedPipe: "a named pipe (FIFO)"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .socket: "a socket"
    case .other: "not a regular file"
    }
  }
}

/// Why `RegularFile.read` could not read a file.
enum RegularFileError: Error, Equatable {
  /// The path is not a regular file: it is this.
  case notRegular(FileKind)
  /// The file has `bytes` bytes, more than the `limit` asked for.
  case tooLarge(bytes: Int, limit: Int)
  /// open(2) or read(2) failed; the text says why.
  case unreadable(String)

  /// Why, in words: `it is a named pipe (FIFO)`, `it has 5000000 bytes, over the limit of 4 MiB`.
  var reason: String {
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
enum RegularFile {
  /// The whole file at `path`, which must be a regular file of at most `limit` bytes; nil when nothing is
  /// there.
  static func read(_ path: String, limit: Int) throws(RegularFileError) -> Data? {
    try withOpenFile(path) { descriptor, size throws(RegularFileError) in
      guard size <= limit else { throw .tooLarge(bytes: size, limit: limit) }
      // One byte more than the limit: a file that grows while it is read is still caught.
      return try readUpTo(descriptor, count: min(size, limit) + 1, limit: limit)
    }
  }

  /// Up to `count` bytes from the start of the regular file at `path`; nil when it is missing, not a
  /// regular file, or unreadable.
  static func prefix(_ path: String, count: Int) -> Data? {
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

/// Byte counts in words: `812 bytes`, `4 KiB`, `1.5 MiB`, `600 MiB` (whole numbers exactly, others to
/// one decimal).
enum ByteCount {
  static func text(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size {
      if bytes % size == 0 { return "\(bytes / size) \(unit)" }
      let tenths = (Double(bytes) / Double(size) * 10).rounded() / 10
      return "\(tenths) \(unit)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}
