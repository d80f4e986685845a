import Foundation

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
