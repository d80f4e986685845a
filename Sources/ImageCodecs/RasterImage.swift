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

extension String {
  /// The NUL-ended text a C codec wrote into `buffer` (empty when it wrote none).
  init(cMessage buffer: [CChar]) {
    self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
