/// Why compressed bytes could not be inflated. Each `description` is one line for the user.
public enum GzipError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The bytes start with neither a gzip nor a zlib header.
  case notCompressed
  /// The input ends before the compressed stream does; `inflatedBytes` were produced up to there.
  case truncated(inflatedBytes: Int)
  /// The compressed stream is damaged at about input byte `offset`; `reason` is zlib's word for it.
  case corrupt(offset: Int, reason: String)
  /// The compressed stream ends at input byte `offset`, but more bytes follow that are not another gzip
  /// member.
  case trailingBytes(offset: Int)
  /// The inflated data would be larger than `limit` bytes (a damaged file or a decompression bomb).
  case tooLarge(limit: Int)
  /// zlib could not allocate its working memory.
  case outOfMemory

  public var description: String {
    switch self {
    case .notCompressed:
      return "the data is not gzip or zlib compressed"
    case .truncated(let inflatedBytes):
      return "the compressed data ends early (after \(inflatedBytes) inflated bytes)"
    case .corrupt(let offset, let reason):
      return "the compressed data is damaged at byte \(offset): \(reason)"
    case .trailingBytes(let offset):
      return "unexpected bytes after the end of the compressed data at byte \(offset)"
    case .tooLarge(let limit):
      return "the compressed data inflates to more than \(limit) bytes"
    case .outOfMemory:
      return "not enough memory to inflate the compressed data"
    }
  }
}
