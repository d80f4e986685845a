import Foundation

/// The bytes of an input read front to back whatever its size: a regular file is mapped, not copied,
/// and the pages behind the reader can be handed back as it goes (`release(below:)`), so its resident
/// memory stays a few pages; a FIFO, a device or standard input, which can be read only once, is read
/// whole, up to a limit.
///
/// A mapped file that another program truncates while it is read ends the process with SIGBUS, as it
/// does for every program that maps its input (git, ripgrep, SQLite in mmap mode).
public final class MappedInput: @unchecked Sendable {
  /// How many bytes there are.
  public let count: Int
  private let mapping: UnsafeMutableRawPointer?
  private let copy: [UInt8]
  /// The pages before this offset were handed back.
  private var released = 0
  /// How many bytes of pages were handed back, over every pass.
  public private(set) var bytesHandedBack = 0

  /// The input at `path`: mapped when it is a regular file; read whole (at most `streamLimit` bytes)
  /// when it is a FIFO or a device.
  public init(path: String, streamLimit: Int) throws(InputFileError) {
    let (descriptor, size) = try InputFile.open(path: path, limit: Int.max)
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .system(String(cString: strerror(errno))) }
    // A FIFO, a device, or a file that says it is empty but may not be (/proc, /sys): read through.
    guard FileKind(mode: info.st_mode) == .regular, size > 0 else {
      copy = [UInt8](try InputFile.read(descriptor: descriptor, limit: streamLimit))
      count = copy.count
      mapping = nil
      return
    }
    copy = []
    count = size
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != MAP_FAILED else { throw .system(String(cString: strerror(errno))) }
    madvise(address, size, MADV_SEQUENTIAL)
    mapping = address
  }

  /// Whether the input is a mapped file (not a copy read whole).
  public var isMapped: Bool { mapping != nil }

  /// Bytes already read (standard input, say).
  public init(bytes: [UInt8]) {
    copy = bytes
    count = bytes.count
    mapping = nil
  }

  /// Runs `body` with the bytes. They stay valid while this object lives.
  public func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
    if let mapping {
      return try body(UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: count))
    }
    return try copy.withUnsafeBufferPointer { buffer throws(E) in try body(buffer) }
  }

  /// Hands back the whole pages before `offset`, a few mebibytes at a time: the reader is done with them
  /// (reading them again reads the file again). An offset before the last one starts a new pass through
  /// the file. Does nothing for an input read whole. One reader at a time.
  public func release(below offset: Int) {
    guard let mapping else { return }
    let end = min(offset, count) / Self.pageSize * Self.pageSize
    if end < released { released = 0 }
    guard end - released >= 4 << 20 else { return }
    madvise(mapping + released, end - released, MADV_DONTNEED)
    bytesHandedBack += end - released
    released = end
  }

  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  deinit {
    if let mapping { munmap(mapping, count) }
  }
}
