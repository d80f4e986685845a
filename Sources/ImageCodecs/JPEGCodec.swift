import CJPEG
import Foundation

/// JPEG decoding through libjpeg-turbo (the C target keeps libjpeg's longjmp away from Swift).
public enum JPEGCodec {
  /// Decodes a baseline or progressive, grayscale or colour JPEG into RGBA (alpha 255). CMYK JPEGs are
  /// refused, and libjpeg's warnings about corrupt or truncated data count as errors.
  public static func decode(_ data: Data, maximumSide: Int = PNGCodec.defaultMaximumSide) throws
    -> RasterImage
  {
    var pixels: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    var message = [CChar](repeating: 0, count: 256)
    let limit = UInt32(clamping: max(0, maximumSide))
    let status = data.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
        return Int32(CJPEG_NOT_AN_IMAGE)
      }
      return cjpeg_decode_rgba(
        base, raw.count, limit, limit, &pixels, &width, &height, &message, message.count)
    }
    if status == Int32(CJPEG_TOO_LARGE) {
      throw ImageCodecError.tooLarge(width: Int(width), height: Int(height), limit: maximumSide)
    }
    guard status == Int32(CJPEG_OK), let pixels else {
      let reason = String(cMessage: message)
      throw ImageCodecError.notAnImage(reason.isEmpty ? "not a JPEG image" : reason)
    }
    defer { cjpeg_free(pixels) }
    let count = Int(width) * Int(height) * 4
    return RasterImage(
      width: Int(width), height: Int(height), rgba: Array(UnsafeBufferPointer(start: pixels, count: count)))
  }
}
