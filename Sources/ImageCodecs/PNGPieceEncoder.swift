import CPNG
import Foundation

/// A PNG deflated a piece of rows at a time, by whichever threads have a piece's rows ready: a map drawn in
/// bands starts encoding its top rows while its lower bands are still being drawn. The file is the bytes
/// `PNGCodec.encodeARGB32` writes for the same pixels, filter, level and piece size (an image within its
/// buffered size), whatever the order or the threads the pieces are deflated on.
///
/// Unchecked `Sendable`: threads deflate different pieces at once (the C encoder keeps each piece apart);
/// `finish` runs once all have returned.
public final class PNGPieceEncoder: @unchecked Sendable {
  public let width: Int
  public let height: Int
  /// The image rows of each piece, top to bottom: they depend on the image's size alone.
  public let pieces: [Range<Int>]
  private var encoder: OpaquePointer?

  /// Begins a `width` × `height` PNG of premultiplied native-endian ARGB32 rows (Cairo's image format);
  /// with `opaque` every pixel must be fully opaque, and the alpha channel is left out. `compression`'s
  /// filter must be chosen (none or paeth), not `.sampled`.
  public init(
    width: Int, height: Int, opaque: Bool, compression: PNGCompression,
    pieceBytes: Int = PNGCodec.defaultPieceBytes
  ) throws {
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
      compression.filter != .sampled,
      let encoder = cpng_pieces_begin(
        UInt32(width), UInt32(height), Int32(clamping: compression.level), compression.filter.cValue,
        opaque ? 1 : 0, max(pieceBytes, 0))
    else {
      throw ImageCodecError.encodingFailed("cannot encode a \(width)×\(height) image in pieces")
    }
    (self.width, self.height, self.encoder) = (width, height, encoder)
    pieces = (0..<cpng_pieces_count(encoder)).map { piece in
      var (first, last) = (UInt32(0), UInt32(0))
      cpng_pieces_rows(encoder, piece, &first, &last)
      return Int(first)..<Int(last)
    }
  }

  deinit { cpng_pieces_discard(encoder) }

  /// Filters and deflates piece `piece` of the image whose first row is at `pixels`, rows `stride` bytes
  /// apart: its rows (and, with the paeth filter, the row above them) must be drawn.
  public func deflate(piece: Int, of pixels: UnsafeRawPointer, stride: Int) throws {
    guard let encoder, pieces.indices.contains(piece), stride >= width * 4, stride <= Int(UInt32.max),
      cpng_pieces_deflate(encoder, UInt32(piece), pixels.assumingMemoryBound(to: UInt8.self), UInt32(stride))
        == 0
    else {
      throw ImageCodecError.encodingFailed("PNG compression failed (piece \(piece), out of memory?)")
    }
  }

  /// After every piece: the PNG's bytes. The encoder is spent whatever happens.
  public func finish() throws -> Data {
    Data(try finishBytes())
  }

  /// `finish` as an array, written by the encoder straight into the array's storage: a map's PNG is
  /// gathered once from its deflated pieces, not joined, wrapped and copied again.
  public func finishBytes() throws -> [UInt8] {
    guard let encoder else { throw ImageCodecError.encodingFailed("the PNG is already finished") }
    self.encoder = nil
    var message = [CChar](repeating: 0, count: 256)
    let size = cpng_pieces_size(encoder)
    var written = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      written = size > 0 && cpng_pieces_write(encoder, buffer.baseAddress, size, &message, message.count) == 0
      count = written ? size : 0
    }
    guard written else {
      if size == 0 { cpng_pieces_discard(encoder) }
      let reason = String(cMessage: message)
      throw ImageCodecError.encodingFailed(
        reason.isEmpty ? "PNG compression failed (a piece is missing)" : reason)
    }
    return bytes
  }
}
