#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Random access to an archive's bytes: a local file here; an HTTP range reader could be another.
public protocol PMTilesByteSource: Sendable {
  /// The archive's size in bytes.
  var size: UInt64 { get }
  /// Exactly `length` bytes at `offset`; the reader only asks for ranges inside `size`.
  func read(offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8]
}

/// A local archive read with `pread`, so only the bytes asked for are ever in memory and several threads
/// can read at once.
public final class PMTilesFile: PMTilesByteSource {
  public let path: String
  public let size: UInt64
  private let descriptor: Int32

  /// Opens the file read-only. Anything but a regular file is refused (`O_NONBLOCK`: opening a named pipe
  /// would otherwise wait for a writer forever, before the check).
  public init(path: String) throws(PMTilesError) {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw Self.failure(path) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let error = Self.failure(path)
      close(descriptor)
      throw error
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw .unreadable(path: path, reason: "not a regular file")
    }
    self.path = path
    self.descriptor = descriptor
    self.size = UInt64(max(status.st_size, 0))
  }

  deinit { close(descriptor) }

  public func read(offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
    guard length > 0 else { return [] }
    guard offset <= UInt64(Int64.max) else {
      throw .unreadable(path: path, reason: "offset \(offset) too large")
    }
    var failure: PMTilesError?
    let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
      guard let base = buffer.baseAddress else { return }
      while count < length {
        let got = pread(descriptor, base + count, length - count, off_t(offset) + off_t(count))
        if got > 0 {
          count += got
        } else if got < 0 && errno == EINTR {
          continue
        } else {
          failure = got == 0 ? .unreadable(path: path, reason: "file ends early") : Self.failure(path)
          return
        }
      }
    }
    if let failure { throw failure }
    return bytes
  }

  private static func failure(_ path: String) -> PMTilesError {
    .unreadable(path: path, reason: String(cString: strerror(errno)))
  }
}
