import CZlib

/// One inflate run over contiguous input: zlib's stream state plus the output gathered so far.
enum StreamInflater {
  /// Output is produced through a fixed scratch chunk and appended, so the result never holds more
  /// than `limit` bytes even when the input claims more.
  static let chunkSize = 64 * 1024
  /// Deflate cannot expand data by more than about 1032:1, so no honest stream inflates to more than
  /// this many bytes per input byte; it bounds the first reservation whatever a gzip trailer claims.
  static let maximumRatio = 1040

  static func inflate(_ input: UnsafeRawBufferPointer, limit rawLimit: Int) -> Result<[UInt8], GzipError> {
    let limit = max(rawLimit, 0)
    guard let base = input.baseAddress, Gzip.wrapper(of: input) != nil else {
      return .failure(.notCompressed)
    }
    if let whole = WholeGzipInflater.inflate(input, limit: limit) { return .success(whole) }
    var stream = z_stream()
    // 15 + 32: a 32 KB window, and zlib detects the gzip or zlib wrapper by itself.
    guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      return .failure(.outOfMemory)
    }
    defer { inflateEnd(&stream) }

    var output: [UInt8] = []
    output.reserveCapacity(expectedSize(of: input, limit: limit))
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    var consumed = 0
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) { chunk in
      while true {
        let available = min(input.count - consumed, Int(UInt32.max))
        stream.next_in = UnsafeMutablePointer(mutating: bytes + consumed)
        stream.avail_in = UInt32(available)
        stream.next_out = chunk.baseAddress
        stream.avail_out = UInt32(chunk.count)
        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
        consumed += available - Int(stream.avail_in)
        let produced = chunk.count - Int(stream.avail_out)
        guard produced <= limit - output.count else { return .failure(.tooLarge(limit: limit)) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<produced]))

        switch status {
        case Z_OK:
          continue
        case Z_STREAM_END:
          if consumed == input.count { return .success(output) }
          // Concatenated gzip members form one file (RFC 1952 §2.2); anything else after the end is damage.
          let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
          guard Gzip.wrapper(of: rest) == .gzip, inflateReset(&stream) == Z_OK else {
            return .failure(.trailingBytes(offset: consumed))
          }
        case Z_BUF_ERROR:
          // No progress was possible: with room left in the output that means the input ran out.
          return .failure(.truncated(inflatedBytes: output.count))
        case Z_MEM_ERROR:
          return .failure(.outOfMemory)
        case Z_NEED_DICT:
          return .failure(.corrupt(offset: consumed, reason: "needs a preset dictionary"))
        default:
          let reason = stream.msg.map { String(cString: $0) } ?? "invalid data"
          return .failure(.corrupt(offset: consumed, reason: reason))
        }
      }
    }
  }

  /// A first reservation for the output: gzip's trailer states the size (modulo 4 GB) of its last
  /// member; zlib says nothing. Never trusted beyond `limit` or what deflate could encode.
  private static func expectedSize(of input: UnsafeRawBufferPointer, limit: Int) -> Int {
    let ceiling = min(limit, input.count.multipliedReportingOverflow(by: maximumRatio).partialValue)
    guard let stated = statedSize(of: input) else { return min(ceiling, 4 * input.count) }
    return min(stated, ceiling)
  }

  /// The size (modulo 4 GB) a gzip stream's trailer states for its last member; nil for a zlib stream or
  /// one too short for a gzip header and trailer.
  static func statedSize(of input: UnsafeRawBufferPointer) -> Int? {
    guard Gzip.wrapper(of: input) == .gzip, input.count >= 18 else { return nil }
    let end = input.count
    return Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1])
      << 24
  }
}
