import CPNG
import Foundation

/// PNG decoding (libdeflate for plain PNGs, libpng for the rest) and encoding (libdeflate, or zlib in
/// bands); the C target keeps libpng's longjmp away from Swift.
public enum PNGCodec {
  /// Largest side accepted when decoding: a hostile file cannot make mymap allocate gigabytes.
  public static let defaultMaximumSide = 16_384

  /// The width and height written in a PNG's header, or nil when the bytes are not a PNG.
  public static func size(of data: Data) -> (width: Int, height: Int)? {
    var width: UInt32 = 0
    var height: UInt32 = 0
    let status = data.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
      return cpng_read_size(base, raw.count, &width, &height)
    }
    return status == 0 ? (Int(width), Int(height)) : nil
  }

  /// The C decoders: libdeflate for plain PNGs (8 bits, not interlaced, no gamma: nearly every tile) and
  /// libpng for the rest, or libpng alone, the reference the first is held to.
  enum Decoder {
    case automatic
    case libpng
  }

  /// Decodes a PNG into straight RGBA, refusing images with a side over `maximumSide`.
  public static func decode(_ data: Data, maximumSide: Int = defaultMaximumSide) throws -> RasterImage {
    try decode(data, maximumSide: maximumSide, decoder: .automatic)
  }

  static func decode(_ data: Data, maximumSide: Int, decoder: Decoder) throws -> RasterImage {
    guard !data.isEmpty else { throw ImageCodecError.notAnImage("empty data") }
    guard let size = size(of: data) else { throw ImageCodecError.notAnImage("not a PNG image") }
    if size.width == 0 || size.height == 0 {
      throw ImageCodecError.empty(width: size.width, height: size.height)
    }
    if size.width > maximumSide || size.height > maximumSide {
      throw ImageCodecError.tooLarge(width: size.width, height: size.height, limit: maximumSide)
    }
    // Decoded where the image keeps them: no second buffer and copy per tile.
    let count = size.width * size.height * 4
    var message = [CChar](repeating: 0, count: 256)
    var status: Int32 = -1
    let rgba = [UInt8](unsafeUninitializedCapacity: count) { pixels, initialized in
      status = data.withUnsafeBytes { raw -> Int32 in
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress, let target = pixels.baseAddress else {
          return -1
        }
        switch decoder {
        case .automatic: return cpng_decode_rgba(base, raw.count, target, &message, message.count)
        case .libpng: return cpng_decode_rgba_libpng(base, raw.count, target, &message, message.count)
        }
      }
      initialized = status == 0 ? count : 0
    }
    guard status == 0 else {
      let reason = String(cMessage: message)
      throw ImageCodecError.notAnImage(reason.isEmpty ? "not a PNG image" : reason)
    }
    return RasterImage(width: size.width, height: size.height, rgba: rgba)
  }

  /// The libdeflate level images are written at unless told otherwise (maps drawn from vectors alone are
  /// written as `PNGCompression.vectorDrawing` says): on the benchmark maps over raster tiles its files are
  /// 0.5–4.5 % smaller than libpng's (adaptive filters, zlib level 6) in a fifth of the time or less;
  /// level 2 was 1–3 % larger, for 1–2 ms less on a 1200×800 map.
  public static let defaultCompressionLevel = 5
  /// Images whose filtered rows take more bytes go through `PNGRowWriter` (all cores), so that a huge
  /// image does not need a second copy of its pixels in memory (1200×800 at scale 3 still fits).
  public static let maximumBufferedBytes = 32 << 20
  /// Buffered images are deflated in pieces of about this many bytes of filtered rows, on all cores at
  /// once (an opaque 1200×800 map in 10 pieces): small enough that two or four cores get even shares, large enough
  /// that a piece's fresh window costs well under 1 % of the file.
  public static let defaultPieceBytes = 256 << 10
  /// The bytes the encoder keeps between encodes for the next one (filtered rows, pieces, streams), at
  /// most 48 MiB whatever was encoded.
  static var keptScratchBytes: Int { cpng_kept_scratch_bytes() }

  /// Encodes premultiplied native-endian ARGB32 rows (Cairo's image format) as PNG bytes. With `opaque`
  /// (every pixel must be fully opaque) the alpha channel is left out. The same pixels always give the same
  /// bytes.
  ///
  /// Each image gets one filter for all its rows: `filter`, or when it is `.sampled` none or paeth,
  /// whichever deflates a sample of its rows smaller. Up to `bufferedBytes` of filtered rows the image is
  /// deflated by libdeflate at `compressionLevel` (1–12), in pieces of about `pieceBytes` of filtered rows
  /// on all cores at once, laid end to end as one stream; above, it goes through `PNGRowWriter` (pieces of a mebibyte on all cores,
  /// at level 7 or more; a `.sampled` filter chosen on its first rows), the same bytes on any machine.
  public static func encodeARGB32(
    _ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, opaque: Bool,
    compressionLevel: Int = defaultCompressionLevel, filter: PNGRowFilter = .sampled,
    bufferedBytes: Int = maximumBufferedBytes, pieceBytes: Int = defaultPieceBytes
  ) throws -> Data {
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max), stride >= width * 4,
      stride <= Int(UInt32.max)
    else {
      throw ImageCodecError.encodingFailed("cannot encode a \(width)×\(height) image")
    }
    var output: UnsafeMutablePointer<UInt8>?
    var outputSize = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = cpng_encode_argb32(
      pixels.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height), UInt32(stride),
      Int32(clamping: compressionLevel), filter.cValue, opaque ? 1 : 0, max(bufferedBytes, 0),
      max(pieceBytes, 0), &output,
      &outputSize,
      &message, message.count)
    guard status == 0, let output else {
      let reason = String(cMessage: message)
      throw ImageCodecError.encodingFailed(reason)
    }
    defer { cpng_free(output) }
    return Data(bytes: output, count: outputSize)
  }

  /// Encodes straight RGBA pixels as PNG (for diff images and tests).
  public static func encode(_ image: RasterImage, compressionLevel: Int = defaultCompressionLevel) throws
    -> Data
  {
    // Convert to premultiplied ARGB32 so one encoder serves both paths.
    var argb = [UInt32](repeating: 0, count: image.width * image.height)
    for index in 0..<argb.count {
      let r = UInt32(image.rgba[index * 4])
      let g = UInt32(image.rgba[index * 4 + 1])
      let b = UInt32(image.rgba[index * 4 + 2])
      let a = UInt32(image.rgba[index * 4 + 3])
      argb[index] =
        (a << 24) | ((r * a + 127) / 255) << 16 | ((g * a + 127) / 255) << 8 | ((b * a + 127) / 255)
    }
    let opaque = stride(from: 3, to: image.rgba.count, by: 4).allSatisfy { image.rgba[$0] == 255 }
    return try argb.withUnsafeBytes {
      try encodeARGB32(
        $0.baseAddress!, width: image.width, height: image.height, stride: image.width * 4, opaque: opaque,
        compressionLevel: compressionLevel)
    }
  }
}
