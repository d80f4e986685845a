import ImageCodecs

/// The part of a comparison that sees a letter (ARCHITECTURE.md §7): differences are counted per small
/// block, not per image, so one changed character fails however large the map, while rasterization noise
/// from another Cairo, pixman or FreeType build passes.
///
/// A pixel counts only when it differs by more than the channel tolerance from *every* pixel within
/// `shiftRadius` of the same place in the other image (both ways): an antialiased edge that moved by a
/// pixel or changed its grey levels finds its match nearby; a new stroke does not. The image fails when
/// any `blockSize` × `blockSize` square (on a grid of half blocks) holds more than `maxPixelsPerBlock`
/// counted pixels.
public struct LocalTolerance: Hashable, Sendable {
  /// A block's side in pixels.
  public var blockSize: Int
  /// Counted pixels a block may hold and still pass.
  public var maxPixelsPerBlock: Int
  /// How far (in pixels) a pixel's match may have moved.
  public var shiftRadius: Int

  /// A tolerance with these figures (each clamped to at least its smallest sensible value).
  public init(blockSize: Int, maxPixelsPerBlock: Int, shiftRadius: Int) {
    self.blockSize = max(2, blockSize)
    self.maxPixelsPerBlock = max(0, maxPixelsPerBlock)
    self.shiftRadius = max(0, shiftRadius)
  }

  /// For images drawn at `scale` pixels per point: blocks of 16 points, 2 × scale² pixels allowed in one;
  /// from scale 2 a pixel may find its match one pixel away, at scale 1 only in its own place (there one
  /// pixel is a third of a stem's height and more: "Bar" → "Ber" moves every changed pixel by at most
  /// one). Measured on the callouts of a 400 × 300 map (`LetterDiffTests`): one changed letter counts 9
  /// to 166 pixels in its block at scale 1, 11 to 543 at scale 2 and 46 to 1,302 at scale 3; the same map
  /// with the glyphs rasterized another way (antialiasing none or subpixel, slight hinting) counts at most
  /// 4 at scale 2 and 3 at scale 3, but 53 to 89 at scale 1, where such a difference is as large as a
  /// letter (see README). A machine's own font configuration does not change the glyphs (`GlyphRaster`).
  public static func scaled(_ scale: Int) -> LocalTolerance {
    let scale = min(max(scale, 1), 8)
    return LocalTolerance(
      blockSize: 16 * scale, maxPixelsPerBlock: 2 * scale * scale, shiftRadius: scale == 1 ? 0 : 1)
  }

  /// The smallest change this tolerance fails: that many counted pixels in one block.
  public var smallestDetectedChange: Int { maxPixelsPerBlock + 1 }
}

/// Counts per half-block cell while the comparison walks the rows, then finds the worst block.
struct BlockCounter {
  let cellSize: Int
  let columns: Int
  let rows: Int
  private(set) var cells: [Int]

  init(width: Int, height: Int, blockSize: Int) {
    cellSize = max(1, blockSize / 2)
    columns = (width + cellSize - 1) / cellSize
    rows = (height + cellSize - 1) / cellSize
    cells = [Int](repeating: 0, count: max(1, columns * rows))
  }

  mutating func add(x: Int, y: Int) {
    cells[(y / cellSize) * columns + x / cellSize] += 1
  }

  /// The block (2 × 2 cells) with the most counted pixels; nil when none counted.
  func worst() -> ImageComparisonResult.Block? {
    var best: ImageComparisonResult.Block?
    for row in 0..<rows {
      for column in 0..<columns {
        var count = 0
        for dy in 0...1 where row + dy < rows {
          for dx in 0...1 where column + dx < columns {
            count += cells[(row + dy) * columns + column + dx]
          }
        }
        if count > (best?.differingPixels ?? 0) {
          best = ImageComparisonResult.Block(
            x: column * cellSize, y: row * cellSize, size: 2 * cellSize, differingPixels: count)
        }
      }
    }
    return best
  }
}

extension ImageComparison {
  /// How far the pixel at (x, y) of `image` lies outside the per-channel range of `other`'s pixels within
  /// `radius` of (x, y): 0 when some mix of its neighbours' levels matches it. Channels premultiplied.
  static func distanceToNeighbourhood(
    _ image: UnsafePointer<UInt8>, _ other: UnsafePointer<UInt8>, x: Int, y: Int, width: Int, height: Int,
    radius: Int
  ) -> Int {
    let pixel = premultiplied(image + (y * width + x) * 4)
    var low = (255, 255, 255, 255)
    var high = (0, 0, 0, 0)
    for ny in max(0, y - radius)...min(height - 1, y + radius) {
      for nx in max(0, x - radius)...min(width - 1, x + radius) {
        let value = premultiplied(other + (ny * width + nx) * 4)
        low = (min(low.0, value.0), min(low.1, value.1), min(low.2, value.2), min(low.3, value.3))
        high = (max(high.0, value.0), max(high.1, value.1), max(high.2, value.2), max(high.3, value.3))
      }
    }
    func outside(_ value: Int, _ low: Int, _ high: Int) -> Int { max(0, low - value, value - high) }
    return max(
      outside(pixel.0, low.0, high.0), outside(pixel.1, low.1, high.1), outside(pixel.2, low.2, high.2),
      outside(pixel.3, low.3, high.3))
  }

  @inline(__always)
  private static func premultiplied(_ p: UnsafePointer<UInt8>) -> (Int, Int, Int, Int) {
    let alpha = Int(p[3])
    if alpha == 255 { return (Int(p[0]), Int(p[1]), Int(p[2]), 255) }
    return (
      (Int(p[0]) * alpha + 127) / 255, (Int(p[1]) * alpha + 127) / 255, (Int(p[2]) * alpha + 127) / 255, alpha
    )
  }
}
