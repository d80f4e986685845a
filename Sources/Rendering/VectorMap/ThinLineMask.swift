import CCairo
import Foundation
import MapMath

/// Solid lines under two pixels wide (footpaths, tram tracks, boundaries, the outline of every building),
/// drawn into an image as a coverage mask and laid on it in one Cairo mask operation.
///
/// Cairo strokes a line by turning it into a polygon and scan-converting that: for hairlines this cost
/// many times the pixels they touch (footpaths and building outlines were a third of a street map's
/// drawing). Here each pixel near a segment gets the share of it that a band of the line's width across
/// the pixel's centre covers (a box filter across the line, as MapLibre shades a line's edge), a line
/// being the union of its segments' capsules (round joins and caps, under a pixel at these widths): a
/// pixel takes the largest coverage any segment of the group gives it, so joints and crossings are not
/// painted twice.
///
/// One mask serves a band canvas for all its layers: it is cleared where it was drawn after each use.
final class ThinLineMask {
  /// Lines at least this many pixels wide are stroked by Cairo.
  static let maximumWidth = 2.0

  let pixelWidth: Int
  let pixelHeight: Int
  /// The image row the mask's first row lies on.
  let top: Int
  private let stride: Int
  private let coverage: UnsafeMutablePointer<UInt8>
  /// The rows and columns drawn since the last clear (empty when minY > maxY).
  private var minX = Int.max
  private var maxX = Int.min
  private var minY = Int.max
  private var maxY = Int.min

  /// A clear mask over `canvas`'s pixel rows.
  init(over canvas: Canvas) {
    pixelWidth = canvas.pixelWidth
    pixelHeight = canvas.rows.count
    top = canvas.rows.lowerBound
    stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(canvas.pixelWidth)))
    coverage = .allocate(capacity: max(stride * pixelHeight, 1))
    coverage.initialize(repeating: 0, count: max(stride * pixelHeight, 1))
  }

  deinit {
    coverage.deallocate()
  }

  /// The coverage of pixel (`x`, `y`) of the mask, 0…255 (tests).
  func value(x: Int, y: Int) -> UInt8 { coverage[y * stride + x] }

  /// Adds a line through `points` (image pixels), `width` pixels wide.
  func addLine(_ points: [PixelPoint], width: Double) {
    guard var last = points.first else { return }
    if points.count == 1 { return addSegment(last, last, width: width) }
    // Vertices closer than half a pixel to the last one kept bend a hairline by less than it shows,
    // and each segment costs its capsule's pixels.
    let end = points.count - 1
    for index in 1...end {
      let point = points[index]
      if index != end, abs(point.x - last.x) < 0.5, abs(point.y - last.y) < 0.5 { continue }
      addSegment(last, point, width: width)
      last = point
    }
  }

  /// Adds the capsule around `a`–`b` (image pixels) of `width` pixels.
  func addSegment(_ a: PixelPoint, _ b: PixelPoint, width: Double) {
    guard width > 0, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
    let half = width / 2
    // Beyond this distance from the segment a pixel's centre gets nothing.
    let reach = half + 0.5
    let localAY = a.y - Double(top)
    let localBY = b.y - Double(top)
    let firstRow = max(Int((min(localAY, localBY) - reach).rounded(.down)), 0)
    let lastRow = min(Int((max(localAY, localBY) + reach).rounded(.up)), pixelHeight - 1)
    guard firstRow <= lastRow else { return }
    let dx = b.x - a.x
    let dy = localBY - localAY
    let lengthSquared = dx * dx + dy * dy
    let inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
    let reachSquared = reach * reach
    for row in firstRow...lastRow {
      let centerY = Double(row) + 0.5
      // The stretch of the segment within `reach` of this row's centre line, widened by `reach`.
      var low = 0.0
      var high = 1.0
      if dy != 0 {
        let t1 = (centerY - reach - localAY) / dy
        let t2 = (centerY + reach - localAY) / dy
        low = max(min(t1, t2), 0)
        high = min(max(t1, t2), 1)
        if low > high { continue }
      } else if abs(localAY - centerY) > reach {
        continue
      }
      let x1 = a.x + dx * low
      let x2 = a.x + dx * high
      let firstColumn = max(Int((min(x1, x2) - reach).rounded(.down)), 0)
      let lastColumn = min(Int((max(x1, x2) + reach).rounded(.up)), pixelWidth - 1)
      guard firstColumn <= lastColumn else { continue }
      let line = coverage + row * stride
      var touched = false
      let py = centerY - localAY
      for column in firstColumn...lastColumn {
        let px = Double(column) + 0.5 - a.x
        let t = min(max((px * dx + py * dy) * inverseLengthSquared, 0), 1)
        let ex = px - dx * t
        let ey = py - dy * t
        let distanceSquared = ex * ex + ey * ey
        guard distanceSquared < reachSquared else { continue }
        // The part of the pixel's width across the line that the line covers.
        let distance = distanceSquared.squareRoot()
        let covered = min(half - distance, 0.5) - max(-half - distance, -0.5)
        guard covered > 0 else { continue }
        let value = UInt8(min(covered, 1) * 255 + 0.5)
        if value > line[column] {
          line[column] = value
          touched = true
        }
      }
      if touched {
        minX = min(minX, firstColumn)
        maxX = max(maxX, lastColumn)
        minY = min(minY, row)
        maxY = max(maxY, row)
      }
    }
  }

  /// Paints `color` through the mask onto `canvas` (the canvas the mask was made over) and clears it.
  func paint(_ color: Color, on canvas: Canvas) {
    guard minY <= maxY, minX <= maxX else { return }
    let cr = canvas.context
    if let surface = cairo_image_surface_create_for_data(
      coverage, CAIRO_FORMAT_A8, Int32(pixelWidth), Int32(pixelHeight), Int32(stride))
    {
      cairo_save(cr)
      // Device pixels: the band's offset puts the mask's rows on the band's.
      cairo_identity_matrix(cr)
      cairo_rectangle(
        cr, Double(minX), Double(top + minY), Double(maxX - minX + 1), Double(maxY - minY + 1))
      cairo_clip(cr)
      canvas.drawing.setColor(color)
      cairo_mask_surface(cr, surface, 0, Double(top))
      cairo_restore(cr)
      cairo_surface_finish(surface)
      cairo_surface_destroy(surface)
    }
    for row in minY...maxY {
      (coverage + row * stride + minX).update(repeating: 0, count: maxX - minX + 1)
    }
    (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
  }
}
