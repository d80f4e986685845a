import CPNG
import Foundation

/// A PNG written a band of rows at a time, top to bottom, so that a large image never has to be whole in
/// memory: about 10 MiB beside the file's bytes, whatever its height (rows of up to a mebibyte). The rows are deflated by libdeflate in
/// pieces of a mebibyte on all cores; the bytes depend on the pixels alone, not on how they are handed in,
/// and are the bytes `PNGCodec.encodeARGB32` writes for an image above its buffered size.
///
/// Not `Sendable`: one thread writes a PNG.
public final class PNGRowWriter {
  public let width: Int
  public let height: Int
  /// Rows written so far.
  public private(set) var rowsWritten = 0
  private var stream: OpaquePointer?

  /// The libdeflate level large images are written at: a piece of a mebibyte starts with an empty window,
  /// and at level 7 a map still comes out smaller than zlib's level 6 (a 4800×3200 city: 2258 KiB against
  /// libpng's 2263), in less CPU time than zlib's level 5.
  public static let defaultCompressionLevel = 7

  /// Begins a `width` × `height` PNG of premultiplied native-endian ARGB32 rows (Cairo's image format);
  /// with `opaque` every pixel must be fully opaque, and the alpha channel is left out.
  public init(
    width: Int, height: Int, opaque: Bool, compressionLevel: Int = PNGRowWriter.defaultCompressionLevel
  ) throws {
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
      throw ImageCodecError.encodingFailed("cannot encode a \(width)×\(height) image")
    }
    self.width = width
    self.height = height
    var message = [CChar](repeating: 0, count: 256)
    stream = cpng_stream_begin(
      UInt32(width), UInt32(height), Int32(clamping: compressionLevel), opaque ? 1 : 0, &message,
      message.count)
    if stream == nil { throw Self.failure(message) }
  }

  deinit { cpng_stream_discard(stream) }

  /// Adds the next `rows` rows, `stride` bytes apart.
  public func write(_ pixels: UnsafeRawPointer, rows: Int, stride: Int) throws {
    guard let stream, rows >= 0, rows <= height - rowsWritten, stride >= width * 4, stride <= Int(UInt32.max)
    else {
      throw ImageCodecError.encodingFailed(
        "cannot add \(rows) rows to a \(width)×\(height) PNG with \(rowsWritten) rows written")
    }
    var message = [CChar](repeating: 0, count: 256)
    guard
      cpng_stream_write(
        stream, pixels.assumingMemoryBound(to: UInt8.self), UInt32(rows), UInt32(stride), &message,
        message.count) == 0
    else { throw Self.failure(message) }
    rowsWritten += rows
  }

  /// After the last row: the PNG's bytes. The writer is spent whatever happens.
  public func finish() throws -> Data {
    guard let stream else { throw ImageCodecError.encodingFailed("the PNG is already finished") }
    self.stream = nil
    var output: UnsafeMutablePointer<UInt8>?
    var outputSize = 0
    var message = [CChar](repeating: 0, count: 256)
    guard cpng_stream_finish(stream, &output, &outputSize, &message, message.count) == 0, let output else {
      throw Self.failure(message)
    }
    defer { cpng_free(output) }
    return Data(bytes: output, count: outputSize)
  }

  private static func failure(_ message: [CChar]) -> ImageCodecError {
    let reason = String(cMessage: message)
    return .encodingFailed(reason.isEmpty ? "PNG compression failed" : reason)
  }
}
