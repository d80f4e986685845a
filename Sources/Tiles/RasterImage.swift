import CJPEG
import CPNG
import CWebP
import Foundation

/// Decoded pixels: straight (not premultiplied) 8-bit RGBA, row after row, `4 × width` bytes a row.
public struct RasterImage: Sendable, Equatable {
  public let width: Int
  public let height: Int
  public var rgba: [UInt8]

  public init(width: Int, height: Int, rgba: [UInt8]) {
    precondition(rgba.count == width * height * 4, "RGBA buffer does not match \(width)×\(height)")
    self.width = width
    self.height = height
    self.rgba = rgba
  }

  /// An image filled with one colour.
  public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.width = width
    self.height = height
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for index in stride(from: 0, to: pixels.count, by: 4) {
      pixels[index] = red
      pixels[index + 1] = green
      pixels[index + 2] = blue
      pixels[index + 3] = alpha
    }
    self.rgba = pixels
  }

  /// The pixel at (x, y) as (r, g, b, a).
  public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    let index = (y * width + x) * 4
    return (rgba[index], rgba[index + 1], rgba[index + 2], rgba[index + 3])
  }
}

/// Why an image could not be decoded or encoded.
public enum ImageCodecError: Error, Equatable, CustomStringConvertible {
  case notAnImage(String)
  case tooLarge(width: Int, height: Int, limit: Int)
  /// The header gives a width or a height of 0.
  case empty(width: Int, height: Int)
  case encodingFailed(String)

  public var description: String {
    switch self {
    case .notAnImage(let reason): return "not a readable image (\(reason))"
    case .empty(let width, let height): return "image of \(width)×\(height) pixels has no pixels"
    case .tooLarge(let width, let height, let limit):
      return "image of \(width)×\(height) pixels is larger than the limit of \(limit) pixels a side"
    case .encodingFailed(let reason): return "PNG encoding failed (\(reason))"
    }
  }
}

/// PNG decoding and encoding through libpng (the C target keeps libpng's longjmp away from Swift).
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

  /// Decodes a PNG into straight RGBA, refusing images with a side over `maximumSide`.
  public static func decode(_ data: Data, maximumSide: Int = defaultMaximumSide) throws -> RasterImage {
    if let size = size(of: data) {
      if size.width == 0 || size.height == 0 {
        throw ImageCodecError.empty(width: size.width, height: size.height)
      }
      if size.width > maximumSide || size.height > maximumSide {
        throw ImageCodecError.tooLarge(width: size.width, height: size.height, limit: maximumSide)
      }
    }
    let limit = UInt32(clamping: max(0, maximumSide))
    var pixels: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = data.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
      return cpng_decode_rgba(
        base, raw.count, limit, limit, &pixels, &width, &height, &message,
        message.count)
    }
    guard status == 0, let pixels else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ImageCodecError.notAnImage(reason.isEmpty ? "empty data" : reason)
    }
    defer { cpng_free(pixels) }
    let count = Int(width) * Int(height) * 4
    return RasterImage(
      width: Int(width), height: Int(height), rgba: Array(UnsafeBufferPointer(start: pixels, count: count)))
  }

  /// Encodes premultiplied native-endian ARGB32 rows (Cairo's image format) as PNG bytes. With `opaque` the
  /// alpha channel is left out. The same pixels always give the same bytes.
  public static func encodeARGB32(
    _ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, opaque: Bool,
    compressionLevel: Int = 3
  ) throws -> Data {
    var output: UnsafeMutablePointer<UInt8>?
    var outputSize = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = cpng_encode_argb32(
      pixels.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height), UInt32(stride),
      Int32(compressionLevel), opaque ? 1 : 0, &output, &outputSize, &message, message.count)
    guard status == 0, let output else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ImageCodecError.encodingFailed(reason)
    }
    defer { cpng_free(output) }
    return Data(bytes: output, count: outputSize)
  }

  /// Encodes straight RGBA pixels as PNG (for diff images and tests).
  public static func encode(_ image: RasterImage, compressionLevel: Int = 3) throws -> Data {
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

/// The raster formats mymap decodes, recognised from their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
  case png = "PNG"
  case jpeg = "JPEG"
  case webp = "WebP"

  /// The format the bytes start like, or nil when they look like none of them.
  public init?(sniffing data: Data) {
    if data.starts(with: [137, 80, 78, 71, 13, 10, 26, 10]) {
      self = .png
    } else if data.starts(with: [0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if data.count >= 12, data.starts(with: Array("RIFF".utf8)),
      data.dropFirst(8).starts(with: Array("WEBP".utf8))
    {
      self = .webp
    } else {
      return nil
    }
  }
}

/// Decodes PNG, JPEG or WebP, whichever the bytes are.
public enum ImageDecoder {
  /// Decodes into straight RGBA. Sizes are checked from the header before pixels are allocated: an image
  /// with a side over `maximumSide` throws `ImageCodecError.tooLarge`; bytes that are no PNG, JPEG or WebP,
  /// or are corrupt or truncated, throw `ImageCodecError.notAnImage`.
  public static func decode(_ data: Data, maximumSide: Int = PNGCodec.defaultMaximumSide) throws
    -> RasterImage
  {
    guard !data.isEmpty else { throw ImageCodecError.notAnImage("empty data") }
    switch ImageFormat(sniffing: data) {
    case .png: return try PNGCodec.decode(data, maximumSide: maximumSide)
    case .jpeg: return try JPEGCodec.decode(data, maximumSide: maximumSide)
    case .webp: return try WebPCodec.decode(data, maximumSide: maximumSide)
    case nil: throw ImageCodecError.notAnImage("not a PNG, JPEG or WebP image")
    }
  }
}

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
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ImageCodecError.notAnImage(reason.isEmpty ? "not a JPEG image" : reason)
    }
    defer { cjpeg_free(pixels) }
    let count = Int(width) * Int(height) * 4
    return RasterImage(
      width: Int(width), height: Int(height), rgba: Array(UnsafeBufferPointer(start: pixels, count: count)))
  }
}

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
