import Foundation
import ImageCodecs
import Tiles

/// How different two images may be and still count as the same (ARCHITECTURE.md §7: golden images are compared as
/// decoded pixels with two tolerances, never as file bytes).
public struct ImageTolerance: Hashable, Sendable {
  /// The largest colour distance at which a pixel still counts as unchanged, 0…255.
  ///
  /// The distance of two pixels is the largest absolute difference over their four channels, the colour
  /// channels taken premultiplied by alpha: a pixel is as different as its most different channel (so a
  /// pure-red shift is not diluted by unchanged green and blue), and two fully transparent pixels are equal
  /// whatever colour they hide.
  public var maxChannelDifference: Double
  /// The fraction of all pixels (0…1) that may differ by more than `maxChannelDifference`.
  public var maxDifferingFraction: Double
  /// Differences counted per small block (nil: per image only). With it, a pixel differs only when no
  /// pixel near the same place in the other image matches it, for the fraction as for the blocks.
  public var local: LocalTolerance?

  /// A tolerance; without `local` only the fraction of differing pixels in the whole image counts.
  public init(maxChannelDifference: Double, maxDifferingFraction: Double, local: LocalTolerance? = nil) {
    self.maxChannelDifference = maxChannelDifference
    self.maxDifferingFraction = maxDifferingFraction
    self.local = local
  }

  /// The default for goldens: antialiased edges drift by a few levels between Cairo, pixman and FreeType
  /// versions, and text can move a glyph edge by a pixel; 24 levels on at most 0.2 % of the pixels absorbs
  /// that, while a moved pin (16 × 40 points, 0.13 % of an 800 × 600 map, changed by far more than 24) fails.
  /// Its blocks are those of an image at scale 1 (`standard(scale:)` for larger ones): a letter changed in a
  /// callout fails, noise from another rasterizer build passes (`LocalTolerance.scaled`).
  public static let standard = standard(scale: 1)
  /// `standard` for an image drawn at `scale` pixels per point.
  public static func standard(scale: Int) -> ImageTolerance {
    ImageTolerance(maxChannelDifference: 24, maxDifferingFraction: 0.002, local: .scaled(scale))
  }
  /// Every pixel must be identical.
  public static let exact = ImageTolerance(maxChannelDifference: 0, maxDifferingFraction: 0)
}

/// The outcome of comparing an expected image with an actual one.
public struct ImageComparisonResult: Sendable {
  /// A rectangle of pixels, both ends included.
  public struct Bounds: Hashable, Sendable {
    public var minX: Int
    public var minY: Int
    public var maxX: Int
    public var maxY: Int

    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
      self.minX = minX
      self.minY = minY
      self.maxX = maxX
      self.maxY = maxY
    }
  }

  /// A square of pixels and how many differing pixels it holds.
  public struct Block: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var size: Int
    public var differingPixels: Int
  }

  public let expectedWidth: Int
  public let expectedHeight: Int
  public let actualWidth: Int
  public let actualHeight: Int
  public let tolerance: ImageTolerance
  /// Pixels whose distance is above `tolerance.maxChannelDifference` (0 when the sizes differ).
  public let differingPixelCount: Int
  /// The largest distance of any pixel, 0…255, whether or not it is within the tolerance.
  public let maximumDifference: Int
  /// The smallest rectangle holding every differing pixel; nil when none differs.
  public let differenceBounds: Bounds?
  /// Pixels above the channel tolerance before any near match is looked for (equal to
  /// `differingPixelCount` without a `LocalTolerance`).
  public let rawDifferingPixelCount: Int
  /// The block holding the most differing pixels (with a `LocalTolerance`); nil when none differs.
  public let worstBlock: Block?
  // Kept to draw the diff image on demand: the arrays are shared, not copied.
  private let expected: RasterImage
  private let actual: RasterImage

  fileprivate init(
    expected: RasterImage, actual: RasterImage, tolerance: ImageTolerance, differingPixelCount: Int,
    maximumDifference: Int, differenceBounds: Bounds?, rawDifferingPixelCount: Int, worstBlock: Block?
  ) {
    self.expected = expected
    self.actual = actual
    self.expectedWidth = expected.width
    self.expectedHeight = expected.height
    self.actualWidth = actual.width
    self.actualHeight = actual.height
    self.tolerance = tolerance
    self.differingPixelCount = differingPixelCount
    self.maximumDifference = maximumDifference
    self.differenceBounds = differenceBounds
    self.rawDifferingPixelCount = rawDifferingPixelCount
    self.worstBlock = worstBlock
  }

  public var sizesMatch: Bool { expectedWidth == actualWidth && expectedHeight == actualHeight }

  /// Pixels in the expected image.
  public var pixelCount: Int { expectedWidth * expectedHeight }

  /// `differingPixelCount / pixelCount` (0 for an empty image).
  public var differingFraction: Double {
    pixelCount == 0 ? 0 : Double(differingPixelCount) / Double(pixelCount)
  }

  /// True when the sizes match and no more than the tolerated fraction of pixels differs.
  public var passes: Bool {
    sizesMatch && Double(differingPixelCount) <= tolerance.maxDifferingFraction * Double(pixelCount)
      && blocksPass
  }

  /// True when no block holds more differing pixels than the `LocalTolerance` allows (or there is none).
  public var blocksPass: Bool {
    guard let local = tolerance.local else { return true }
    return (worstBlock?.differingPixels ?? 0) <= local.maxPixelsPerBlock
  }

  /// One line for a test failure or the `mymap diff` output, e.g.
  /// `1 234 of 480 000 pixels differ (0.26 %), max difference 87, in x 10…200, y 5…40`.
  public var summary: String {
    guard sizesMatch else {
      return
        "image sizes differ: expected \(expectedWidth)×\(expectedHeight), actual \(actualWidth)×\(actualHeight)"
    }
    var text =
      "\(grouped(differingPixelCount)) of \(grouped(pixelCount)) pixels differ (\(percent(differingFraction))), "
      + "max difference \(maximumDifference)"
    if let bounds = differenceBounds {
      text += ", in x \(bounds.minX)…\(bounds.maxX), y \(bounds.minY)…\(bounds.maxY)"
    }
    if let local = tolerance.local, let block = worstBlock {
      text +=
        "; most in one \(block.size)×\(block.size) block: \(block.differingPixels) at x \(block.x), y \(block.y)"
        + " (\(local.maxPixelsPerBlock) allowed)"
    }
    return text
  }

  /// The expected image faded to light grey, with every differing pixel in opaque magenta; nil when the sizes
  /// differ (there is no pixel-to-pixel correspondence to show).
  public func diffImage() -> RasterImage? {
    guard sizesMatch else { return nil }
    let threshold = ImageComparison.threshold(tolerance)
    var output = [UInt8](repeating: 255, count: expected.rgba.count)
    expected.rgba.withUnsafeBufferPointer { expectedBuffer in
      actual.rgba.withUnsafeBufferPointer { actualBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
          guard let e = expectedBuffer.baseAddress, let a = actualBuffer.baseAddress,
            let o = outputBuffer.baseAddress
          else { return }
          for offset in stride(from: 0, to: expectedBuffer.count, by: 4) {
            let pixel = offset / 4
            if ImageComparison.distance(e + offset, a + offset) > threshold
              && ImageComparison.counts(
                e, a, x: pixel % expectedWidth, y: pixel / expectedWidth, width: expectedWidth,
                height: expectedHeight, threshold: threshold, local: tolerance.local)
            {
              o[offset] = 255
              o[offset + 1] = 0
              o[offset + 2] = 255
            } else {
              // Rec. 709 luma in 1/256ths, over white, then squeezed into 128…255 so magenta stands out.
              let luma = (54 * Int(e[offset]) + 183 * Int(e[offset + 1]) + 19 * Int(e[offset + 2])) >> 8
              let alpha = Int(e[offset + 3])
              let overWhite = (luma * alpha + 255 * (255 - alpha) + 127) / 255
              let grey = UInt8(128 + overWhite / 2)
              o[offset] = grey
              o[offset + 1] = grey
              o[offset + 2] = grey
            }
            // Alpha stays 255 from the initial fill: the diff image is opaque.
          }
        }
      }
    }
    return RasterImage(width: expectedWidth, height: expectedHeight, rgba: output)
  }

  /// 480000 → "480 000": a space between thousands, as in the summary's examples.
  private func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(" ") }
      text.append(digit)
    }
    return text
  }

  /// Two decimals; a non-zero share too small for them shows as "< 0.01 %" rather than a misleading 0.00.
  private func percent(_ fraction: Double) -> String {
    let value = fraction * 100
    if value > 0 && value < 0.005 { return "< 0.01 %" }
    return String(format: "%.2f %%", value)
  }
}

/// Compares decoded images pixel by pixel with an `ImageTolerance` (golden tests and `mymap diff`).
public enum ImageComparison {
  /// Compares `actual` with `expected`. Images of different sizes never pass and are not compared further.
  public static func compare(
    _ expected: RasterImage, _ actual: RasterImage, tolerance: ImageTolerance = .standard
  ) -> ImageComparisonResult {
    guard expected.width == actual.width, expected.height == actual.height else {
      return ImageComparisonResult(
        expected: expected, actual: actual, tolerance: tolerance, differingPixelCount: 0,
        maximumDifference: 0, differenceBounds: nil, rawDifferingPixelCount: 0, worstBlock: nil)
    }
    let width = expected.width
    let threshold = threshold(tolerance)
    var count = 0
    var raw = 0
    var blocks = tolerance.local.map {
      BlockCounter(width: width, height: expected.height, blockSize: $0.blockSize)
    }
    var maximum = 0
    var minX = Int.max
    var minY = Int.max
    var maxX = -1
    var maxY = -1
    expected.rgba.withUnsafeBufferPointer { expectedBuffer in
      actual.rgba.withUnsafeBufferPointer { actualBuffer in
        guard let e = expectedBuffer.baseAddress, let a = actualBuffer.baseAddress else { return }
        let rowBytes = width * 4
        for y in 0..<expected.height {
          // Identical rows (most of a passing golden) are skipped with one memcmp: fast even in debug builds.
          if memcmp(e + y * rowBytes, a + y * rowBytes, rowBytes) == 0 { continue }
          // Per row, so the bounding box costs a few comparisons a row rather than four a pixel.
          var rowFirst = -1
          var rowLast = -1
          var offset = y * rowBytes
          for x in 0..<width {
            let difference = distance(e + offset, a + offset)
            if difference > maximum { maximum = difference }
            if difference > threshold {
              raw += 1
              guard
                counts(
                  e, a, x: x, y: y, width: width, height: expected.height, threshold: threshold,
                  local: tolerance.local)
              else {
                offset += 4
                continue
              }
              count += 1
              blocks?.add(x: x, y: y)
              if rowFirst < 0 { rowFirst = x }
              rowLast = x
            }
            offset += 4
          }
          if rowFirst >= 0 {
            minX = min(minX, rowFirst)
            maxX = max(maxX, rowLast)
            minY = min(minY, y)
            maxY = y
          }
        }
      }
    }
    let bounds =
      count > 0 ? ImageComparisonResult.Bounds(minX: minX, minY: minY, maxX: maxX, maxY: maxY) : nil
    return ImageComparisonResult(
      expected: expected, actual: actual, tolerance: tolerance, differingPixelCount: count,
      maximumDifference: maximum, differenceBounds: bounds, rawDifferingPixelCount: raw,
      worstBlock: blocks?.worst())
  }

  /// Whether a pixel over the channel tolerance counts: always without a `LocalTolerance`, else only when
  /// neither image has a match for it near the same place in the other.
  @inline(__always)
  static func counts(
    _ e: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>, x: Int, y: Int, width: Int, height: Int,
    threshold: Int, local: LocalTolerance?
  ) -> Bool {
    guard let local, local.shiftRadius > 0 else { return true }
    let radius = local.shiftRadius
    return distanceToNeighbourhood(e, a, x: x, y: y, width: width, height: height, radius: radius) > threshold
      || distanceToNeighbourhood(a, e, x: x, y: y, width: width, height: height, radius: radius) > threshold
  }

  /// The whole distance above which a pixel differs: distances are whole numbers, so `d > t` ⇔ `d > ⌊t⌋`.
  static func threshold(_ tolerance: ImageTolerance) -> Int {
    let value = tolerance.maxChannelDifference
    guard value.isFinite else { return value > 0 ? Int.max : -1 }
    return value < 0 ? -1 : Int(min(value, 255).rounded(.down))
  }

  /// The distance of the RGBA pixels at two addresses (see `ImageTolerance.maxChannelDifference`).
  @inline(__always)
  static func distance(_ e: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>) -> Int {
    let expectedAlpha = Int(e[3])
    let actualAlpha = Int(a[3])
    if expectedAlpha == 255 && actualAlpha == 255 {
      // Opaque, the common case for maps: premultiplying would change nothing.
      return max(abs(Int(e[0]) - Int(a[0])), abs(Int(e[1]) - Int(a[1])), abs(Int(e[2]) - Int(a[2])))
    }
    var result = abs(expectedAlpha - actualAlpha)
    for channel in 0..<3 {
      let expectedValue = (Int(e[channel]) * expectedAlpha + 127) / 255
      let actualValue = (Int(a[channel]) * actualAlpha + 127) / 255
      result = max(result, abs(expectedValue - actualValue))
    }
    return result
  }
}
