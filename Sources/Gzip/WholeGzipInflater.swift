import CDeflate

/// A gzip stream of one member inflated in one call by libdeflate, straight into an array of the size
/// its trailer states: about a third of zlib's time, and the bulk of reading a vector tile.
///
/// Only what it can finish is taken: a stream whose stated size passes the limit (or what deflate could
/// encode), several members, a trailer that does not hold, any damage gives nil, and `StreamInflater`
/// inflates it again with zlib, which stops at the limit and says what is wrong.
enum WholeGzipInflater {
  static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
    guard let base = input.baseAddress, let stated = StreamInflater.statedSize(of: input) else { return nil }
    let (ceiling, overflow) = input.count.multipliedReportingOverflow(by: StreamInflater.maximumRatio)
    guard stated <= limit, overflow || stated <= ceiling, let decompressor = libdeflate_alloc_decompressor()
    else { return nil }
    defer { libdeflate_free_decompressor(decompressor) }
    var finished = false
    let output = [UInt8](unsafeUninitializedCapacity: max(stated, 1)) { buffer, count in
      var (consumed, produced) = (0, 0)
      let result = libdeflate_gzip_decompress_ex(
        decompressor, base, input.count, buffer.baseAddress, stated, &consumed, &produced)
      finished = result == LIBDEFLATE_SUCCESS && consumed == input.count && produced == stated
      count = finished ? produced : 0
    }
    return finished ? output : nil
  }
}
