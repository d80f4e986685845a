import CZlib

/// One deflate run over contiguous input; small and simple, for writing fixtures and caches.
enum StreamDeflater {
  static func deflate(_ input: UnsafeRawBufferPointer, level: Int, wrapper: Gzip.Wrapper)
    -> Result<[UInt8], GzipError>
  {
    var stream = z_stream()
    // 15 + 16 asks zlib for a gzip wrapper; 15 alone gives zlib's.
    let windowBits: Int32 = wrapper == .gzip ? 15 + 16 : 15
    let clamped = Int32(min(max(level, 0), 9))
    let status = deflateInit2_(
      &stream, clamped, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { return .failure(.outOfMemory) }
    defer { deflateEnd(&stream) }

    var output: [UInt8] = []
    var consumed = 0
    let chunkSize = 64 * 1024
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) { chunk in
      while true {
        let available = min(input.count - consumed, Int(UInt32.max))
        let isLast = consumed + available == input.count
        stream.next_in = input.baseAddress.map {
          UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self) + consumed)
        }
        stream.avail_in = UInt32(available)
        stream.next_out = chunk.baseAddress
        stream.avail_out = UInt32(chunk.count)
        let result = CZlib.deflate(&stream, isLast ? Z_FINISH : Z_NO_FLUSH)
        consumed += available - Int(stream.avail_in)
        output.append(
          contentsOf: UnsafeBufferPointer(rebasing: chunk[..<(chunk.count - Int(stream.avail_out))]))
        if result == Z_STREAM_END { return .success(output) }
        guard result == Z_OK || result == Z_BUF_ERROR else { return .failure(.outOfMemory) }
      }
    }
  }
}
