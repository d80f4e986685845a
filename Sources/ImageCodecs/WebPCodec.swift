import CWebP
import Foundation

/// WebP decoding (lossy or lossless, with or without alpha) through libwebp, which reports errors through
/// return values, so no C wrapper is needed.
public enum WebPCodec {
  /// Decodes a still WebP into straight RGBA (libwebp's `MODE_RGBA` is not premultiplied).
  public static func decode(_ data: Data, maximumSide: Int = PNGCodec.defaultMaximumSide) throws
    -> RasterImage
  {
    try data.withUnsafeBytes { raw -> RasterImage in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
        throw ImageCodecError.notAnImage("empty data")
      }
      var features = WebPBitstreamFeatures()
      guard WebPGetFeatures(base, raw.count, &features) == VP8_STATUS_OK else {
        throw ImageCodecError.notAnImage("not a WebP image, or its header is corrupt or truncated")
      }
      let width = Int(features.width)
      let height = Int(features.height)
      guard width > 0, height > 0 else { throw ImageCodecError.empty(width: width, height: height) }
      if width > maximumSide || height > maximumSide {
        throw ImageCodecError.tooLarge(width: width, height: height, limit: maximumSide)
      }
      guard features.has_animation == 0 else {
        throw ImageCodecError.notAnImage("animated WebP images are not supported")
      }
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      let decoded = pixels.withUnsafeMutableBufferPointer { output -> Bool in
        WebPDecodeRGBAInto(base, raw.count, output.baseAddress, output.count, Int32(width * 4)) != nil
      }
      guard decoded else { throw ImageCodecError.notAnImage("WebP data is corrupt or truncated") }
      return RasterImage(width: width, height: height, rgba: pixels)
    }
  }
}
