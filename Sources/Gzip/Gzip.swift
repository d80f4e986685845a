import CZlib

/// gzip and zlib streams through the system zlib, with the inflated size always capped by the caller.
///
/// Vector tiles in MBTiles are gzip-compressed by convention; PMTiles names its compression in the header.
/// An uncompressed Mapbox Vector Tile starts with byte 0x1A (layer field), which is neither a gzip magic
/// number nor a valid zlib header, so the two never get confused.
public enum Gzip {
  /// The two wrappers around a deflate stream that `inflate` accepts.
  public enum Wrapper: Sendable, Equatable {
    /// RFC 1952: magic `1F 8B`, a CRC-32 and the size in an 8-byte trailer.
    case gzip
    /// RFC 1950: a 2-byte header and an Adler-32 trailer.
    case zlib
  }

  /// Which wrapper the bytes start with, or nil if they start with neither.
  public static func wrapper(of bytes: some Collection<UInt8>) -> Wrapper? {
    var iterator = bytes.makeIterator()
    guard let first = iterator.next(), let second = iterator.next() else { return nil }
    if first == 0x1F && second == 0x8B { return .gzip }
    // zlib: method 8 (deflate), window ≤ 32 KB, and the 16-bit header a multiple of 31.
    let header = UInt16(first) << 8 | UInt16(second)
    if first & 0x0F == 8 && first >> 4 <= 7 && header % 31 == 0 { return .zlib }
    return nil
  }

  /// True when the bytes start with a gzip or zlib header.
  public static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
    wrapper(of: bytes) != nil
  }

  /// Inflates a gzip (one or more members) or zlib stream into at most `limit` bytes.
  ///
  /// Memory stays bounded by `limit` whatever the input claims: the output grows as zlib produces it
  /// and inflating stops with `.tooLarge` as soon as it would pass the limit.
  public static func inflate(_ bytes: some Collection<UInt8>, limit: Int) throws(GzipError) -> [UInt8] {
    try withContiguousBytes(bytes) { StreamInflater.inflate($0, limit: limit) }.get()
  }

  /// Inflates `bytes` if they start with a gzip or zlib header, or returns them as they are (still
  /// refusing more than `limit` bytes). For sources whose tiles are compressed only by convention.
  public static func inflateIfCompressed(_ bytes: some Collection<UInt8>, limit: Int) throws(GzipError)
    -> [UInt8]
  {
    if isCompressed(bytes) { return try inflate(bytes, limit: limit) }
    guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
    return Array(bytes)
  }

  /// Compresses bytes into a gzip (default) or zlib stream at zlib `level` 0–9 (clamped).
  public static func deflate(_ bytes: some Collection<UInt8>, level: Int = 6, wrapper: Wrapper = .gzip)
    throws(GzipError) -> [UInt8]
  {
    try withContiguousBytes(bytes) { StreamDeflater.deflate($0, level: level, wrapper: wrapper) }.get()
  }

  /// Runs `body` on the bytes' contiguous storage, copying them first only if they have none.
  private static func withContiguousBytes(
    _ bytes: some Collection<UInt8>,
    _ body: (UnsafeRawBufferPointer) -> Result<[UInt8], GzipError>
  ) -> Result<[UInt8], GzipError> {
    if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
      return result
    }
    return Array(bytes).withUnsafeBytes(body)
  }
}
