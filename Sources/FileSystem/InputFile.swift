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
    let (descriptor, size) = try open(path: path, limit: limit)
    defer { close(descriptor) }
    return try read(descriptor: descriptor, limit: limit, expected: size)
  }

  /// Opens `path` for reading after checking what it is: a regular file (no larger than `limit`; its size
  /// is returned), a FIFO or a device (size 0). The caller closes the descriptor.
  static func open(path: String, limit: Int) throws(InputFileError) -> (descriptor: Int32, size: Int) {
    let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(String(cString: strerror(errno))) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let why = String(cString: strerror(errno))
      close(descriptor)
      throw .system(why)
    }
    let kind = FileKind(mode: info.st_mode)
    switch kind {
    case .regular where Int(info.st_size) <= limit: return (descriptor, Int(info.st_size))
    case .regular:
      close(descriptor)
      throw .tooLarge(limit: limit)
    case .namedPipe, .characterDevice: return (descriptor, 0)
    default:
      close(descriptor)
      throw .notReadable(kind)
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

/// An input read a piece at a time, so that a reader that streams (a CSV import) holds one piece, not the
/// whole file: the same inputs and the same limit as `InputFile.read`.
public final class InputPieces {
  private let descriptor: Int32
  private let closesDescriptor: Bool
  private let limit: Int
  private var total = 0
  private var ended = false

  /// Opens `path` (a regular file no larger than `limit`, a FIFO or a device).
  public init(path: String, limit: Int) throws(InputFileError) {
    descriptor = try InputFile.open(path: path, limit: limit).descriptor
    closesDescriptor = true
    self.limit = limit
  }

  /// Reads from an open descriptor (standard input), which stays open.
  public init(descriptor: Int32, limit: Int) {
    self.descriptor = descriptor
    closesDescriptor = false
    self.limit = limit
  }

  deinit {
    if closesDescriptor { close(descriptor) }
  }

  /// The next bytes, at most `maximum` of them, or nil at the end; `tooLarge` once more than the limit came.
  public func next(maximum: Int) throws(InputFileError) -> [UInt8]? {
    guard !ended, maximum > 0 else { return nil }
    var piece = [UInt8](repeating: 0, count: maximum)
    var filled = 0
    // Fill the piece (a pipe gives a few kilobytes a read), so pieces stay few and large.
    while filled < maximum {
      let count = piece.withUnsafeMutableBytes {
        Foundation.read(descriptor, $0.baseAddress! + filled, maximum - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(String(cString: strerror(errno)))
      }
      if count == 0 {
        ended = true
        break
      }
      filled += count
      total += count
      guard total <= limit else { throw .tooLarge(limit: limit) }
    }
    if filled == 0 { return nil }
    piece.removeLast(maximum - filled)
    return piece
  }
}
