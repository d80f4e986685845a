import CCairo
import Foundation
import ImageCodecs
import MapMath
import Tiles

/// Draws raster tiles at the camera: all tiles are first laid edge to edge on one mosaic at their own
/// resolution, which is then painted once with the camera's transform, so fractional zooms and offsets
/// leave no seams between tiles. Missing tiles become a neutral placeholder.
struct BasemapLayer {
  let range: TileRange
  let tileSize: Int
  let images: [TileID: RasterImage]
  let style: BasemapStyle
  /// Tiles already copied into the image while they were loaded (`directTarget`): neither drawn again nor
  /// shown as missing.
  var drawnTiles: Set<TileID> = []
  /// False draws every image through the mosaic (tests compare the two ways).
  var copiesOpaqueTilesDirectly = true

  func draw(on canvas: Canvas, camera: Camera) {
    let placements = range.placements
    guard let first = placements.first else { return }
    let columns = range.columns.count
    let rows = range.rows.count
    // Where the mosaic's top-left corner lands, and how large a tile pixel is, in image pixels.
    let origin = camera.pixelRect(for: first)
    let factor = origin.width / Double(tileSize)
    let aligned = Self.isAligned(origin, factor: factor)
    let left = max(origin.x, 0)
    let top = max(origin.y, 0)
    let right = min(origin.x + Double(columns * tileSize) * factor, Double(canvas.pixelWidth))
    let bottom = min(origin.y + Double(rows * tileSize) * factor, Double(canvas.pixelHeight))
    guard right > left && bottom > top else { return }

    // Whether every tile pixel is opaque, looked at only where it matters: the direct copy below and the
    // image a vector output embeds (missing tiles' placeholders are opaque).
    let opaque =
      (canvas.format != .png || (copiesOpaqueTilesDirectly && aligned))
      && images.values.allSatisfy(Self.isOpaque)

    // Opaque tiles 1:1 at whole pixels on an image: painting the mosaic would copy its pixels exactly,
    // so the tiles go straight into the image instead (no mosaic: at 4800 × 3200 that is 73 MB less).
    if copiesOpaqueTilesDirectly, canvas.format == .png, aligned, opaque,
      let pixels = cairo_image_surface_get_data(canvas.surface)
    {
      cairo_surface_flush(canvas.surface)
      fill(
        Self.target(pixels, of: canvas, origin: origin), placements: placements, surface: canvas.surface,
        surfaceTop: canvas.rows.lowerBound)
      return
    }

    let mosaic = cairo_image_surface_create(
      CAIRO_FORMAT_ARGB32, Int32(columns * tileSize), Int32(rows * tileSize))!
    defer { cairo_surface_destroy(mosaic) }
    cairo_surface_flush(mosaic)
    fill(
      Target(
        pixels: cairo_image_surface_get_data(mosaic)!, stride: Int(cairo_image_surface_get_stride(mosaic)),
        width: columns * tileSize, height: rows * tileSize, origin: (0, 0)),
      placements: placements, surface: mosaic, surfaceTop: 0)

    // An SVG or PDF keeps every pixel of the image it is given: give it only the part in view (a tile
    // mosaic is up to a tile larger on every side), without alpha when the tiles have none.
    var source = mosaic
    var shift = (x: 0, y: 0)
    if canvas.format != .png,
      let crop = cropped(
        mosaic, to: visiblePixels(left, top, right, bottom, origin: origin, factor: factor, aligned: aligned),
        opaque: opaque)
    {
      source = crop.surface
      shift = crop.offset
    }
    defer { if source != mosaic { cairo_surface_destroy(source) } }
    if canvas.format == .svg { attachPNG(to: source, opaque: opaque) }

    let cr = canvas.context
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_set_source_surface(cr, source, 0, 0)
    let pattern = cairo_get_source(cr)
    // The transform goes into the pattern and only the visible part is filled: at a deep overzoom the
    // mosaic's own rectangle would be millions of pixels wide, past Cairo's fixed-point range.
    var matrix = cairo_matrix_t()
    cairo_matrix_init_scale(&matrix, 1 / factor, 1 / factor)
    cairo_matrix_translate(
      &matrix, -(origin.x + Double(shift.x) * factor), -(origin.y + Double(shift.y) * factor))
    cairo_pattern_set_matrix(pattern, &matrix)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    // 1:1 at whole pixels: copy pixels exactly (crisp); otherwise resample smoothly.
    cairo_pattern_set_filter(pattern, aligned ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
    cairo_rectangle(cr, left, top, right - left, bottom - top)
    cairo_fill(cr)
    cairo_restore(cr)
  }

  /// The mosaic pixels that the image rectangle from (`left`, `top`) to (`right`, `bottom`) shows, with
  /// two pixels more on each side where the mosaic is resampled (the filter reads its neighbours).
  private func visiblePixels(
    _ left: Double, _ top: Double, _ right: Double, _ bottom: Double, origin: PixelRect, factor: Double,
    aligned: Bool
  ) -> (x: Range<Int>, y: Range<Int>) {
    let margin = aligned ? 0.0 : 2
    func span(_ low: Double, _ high: Double, _ start: Double, _ count: Int) -> Range<Int> {
      let from = Int(max(0, ((low - start) / factor - margin).rounded(.down)))
      let to = Int(min(Double(count), ((high - start) / factor + margin).rounded(.up)))
      return from..<max(from, to)
    }
    return (
      span(left, right, origin.x, range.columns.count * tileSize),
      span(top, bottom, origin.y, range.rows.count * tileSize)
    )
  }

  /// A copy of `pixels` of the mosaic (RGB24 when `opaque`), and where it starts in the mosaic; nil when
  /// it would be the whole mosaic anyway or cannot be made.
  private func cropped(_ mosaic: OpaquePointer, to pixels: (x: Range<Int>, y: Range<Int>), opaque: Bool)
    -> (surface: OpaquePointer, offset: (x: Int, y: Int))?
  {
    let width = Int(cairo_image_surface_get_width(mosaic))
    let height = Int(cairo_image_surface_get_height(mosaic))
    guard !pixels.x.isEmpty, !pixels.y.isEmpty,
      opaque || pixels.x.count < width || pixels.y.count < height,
      let crop = cairo_image_surface_create(
        opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(pixels.x.count), Int32(pixels.y.count)),
      cairo_surface_status(crop) == CAIRO_STATUS_SUCCESS
    else { return nil }
    cairo_surface_flush(crop)
    let from = cairo_image_surface_get_data(mosaic)!
    let to = cairo_image_surface_get_data(crop)!
    let fromStride = Int(cairo_image_surface_get_stride(mosaic))
    let toStride = Int(cairo_image_surface_get_stride(crop))
    for (row, y) in pixels.y.enumerated() {
      memcpy(to + row * toStride, from + y * fromStride + pixels.x.lowerBound * 4, pixels.x.count * 4)
    }
    cairo_surface_mark_dirty(crop)
    return (crop, (pixels.x.lowerBound, pixels.y.lowerBound))
  }

  /// Hands Cairo's SVG writer the mosaic already encoded by libpng: its own PNG writer is several times
  /// slower. Without it (e.g. out of memory) Cairo simply encodes the pixels itself. At level 6, not the
  /// PNG output's 2: an SVG is kept and sent as text, and the image is most of it (city scene: 616 KB at
  /// level 2, 606 KB at 6, 602 KB at 9 for twice the time).
  private func attachPNG(to mosaic: OpaquePointer, opaque: Bool) {
    cairo_surface_flush(mosaic)
    guard let pixels = cairo_image_surface_get_data(mosaic),
      let png = try? PNGCodec.encodeARGB32(
        UnsafeRawPointer(pixels), width: Int(cairo_image_surface_get_width(mosaic)),
        height: Int(cairo_image_surface_get_height(mosaic)),
        stride: Int(cairo_image_surface_get_stride(mosaic)),
        opaque: opaque, compressionLevel: 6),
      let copy = malloc(png.count)
    else { return }
    png.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: png.count)
    let status = cairo_surface_set_mime_data(
      mosaic, CAIRO_MIME_TYPE_PNG, copy.assumingMemoryBound(to: UInt8.self), UInt(png.count), free, copy)
    if status != CAIRO_STATUS_SUCCESS { free(copy) }
  }

  /// Pixels the tiles are copied into: the mosaic, or the image itself, with the place of the range's
  /// top-left tile corner in them. Tiles cover apart pixels, so several threads may copy tiles into one
  /// target at once.
  struct Target: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<UInt8>
    let stride: Int
    let width: Int
    let height: Int
    let origin: (x: Int, y: Int)

    /// Where a placement's top-left corner lands in these pixels.
    func corner(of placement: TileRange.Placement, in range: TileRange, tileSize: Int) -> (x: Int, y: Int) {
      (
        origin.x + (placement.column - range.columns.lowerBound) * tileSize,
        origin.y + (placement.tile.y - range.rows.lowerBound) * tileSize
      )
    }
  }

  /// Whether the tiles fall 1:1 on whole pixels (from the top-left placement's place and the pixels per
  /// tile pixel).
  static func isAligned(_ origin: PixelRect, factor: Double) -> Bool {
    abs(factor - 1) < 1e-9 && abs(origin.x - origin.x.rounded()) < 1e-6
      && abs(origin.y - origin.y.rounded()) < 1e-6
  }

  private static func target(_ pixels: UnsafeMutablePointer<UInt8>, of canvas: Canvas, origin: PixelRect)
    -> Target
  {
    Target(
      pixels: pixels, stride: canvas.stride, width: canvas.pixelWidth, height: canvas.rows.count,
      origin: (Int(origin.x.rounded()), Int(origin.y.rounded()) - canvas.rows.lowerBound))
  }

  /// The image's pixels when the range's tiles fall on it 1:1 at whole pixels (a PNG canvas), so an opaque
  /// tile can be copied into it as soon as it is decoded (`copy`), with where each tile goes; nil
  /// otherwise. The caller flushes the surface before and marks it dirty after.
  static func directTarget(canvas: Canvas, camera: Camera, range: TileRange, tileSize: Int)
    -> (target: Target, places: [TileID: [(x: Int, y: Int)]])?
  {
    guard canvas.format == .png, let first = range.placements.first,
      let pixels = cairo_image_surface_get_data(canvas.surface)
    else { return nil }
    let origin = camera.pixelRect(for: first)
    guard isAligned(origin, factor: origin.width / Double(tileSize)) else { return nil }
    let target = target(pixels, of: canvas, origin: origin)
    var places: [TileID: [(x: Int, y: Int)]] = [:]
    for placement in range.placements {
      places[placement.tile, default: []].append(target.corner(of: placement, in: range, tileSize: tileSize))
    }
    return (target, places)
  }

  /// Copies a tile's pixels into `target` with its top-left corner at (`left`, `top`), premultiplying
  /// them; whatever of the tile lies outside the target is left out.
  static func copy(_ image: RasterImage, tileSize: Int, into target: Target, left: Int, top: Int) {
    let columns = max(0, -left)..<min(tileSize, target.width - left)
    guard !columns.isEmpty else { return }
    image.rgba.withUnsafeBufferPointer { source in
      for row in max(0, -top)..<min(tileSize, target.height - top) {
        let line = UnsafeMutableRawPointer(target.pixels + (top + row) * target.stride + left * 4)
          .assumingMemoryBound(to: UInt32.self)
        var index = (row * tileSize + columns.lowerBound) * 4
        for column in columns {
          let a = UInt32(source[index + 3])
          let r = UInt32(source[index])
          let g = UInt32(source[index + 1])
          let b = UInt32(source[index + 2])
          line[column] =
            a == 255
            ? 0xFF00_0000 | r << 16 | g << 8 | b
            : a << 24 | ((r * a + 127) / 255) << 16 | ((g * a + 127) / 255) << 8 | ((b * a + 127) / 255)
          index += 4
        }
      }
    }
  }

  static func isOpaque(_ image: RasterImage) -> Bool {
    image.rgba.withUnsafeBufferPointer { bytes in
      var index = 3
      while index < bytes.count {
        if bytes[index] != 255 { return false }
        index += 4
      }
      return true
    }
  }

  /// Copies each tile's pixels into place (premultiplying them; whatever of a tile lies outside the
  /// target is left out) and draws placeholders for missing ones.
  /// `surface` is the Cairo surface over the target's pixels, its first row the image's row `surfaceTop`
  /// (its device offset moves what is drawn on it up by as much).
  private func fill(
    _ target: Target, placements: [TileRange.Placement], surface: OpaquePointer, surfaceTop: Int
  ) {
    var missing: [(Int, Int)] = []
    for placement in placements {
      let (left, top) = target.corner(of: placement, in: range, tileSize: tileSize)
      guard let image = images[placement.tile] else {
        if !drawnTiles.contains(placement.tile) { missing.append((left, top)) }
        continue
      }
      Self.copy(image, tileSize: tileSize, into: target, left: left, top: top)
    }
    cairo_surface_mark_dirty(surface)
    guard !missing.isEmpty else { return }
    let cr = cairo_create(surface)!
    defer { cairo_destroy(cr) }
    let side = Double(tileSize)
    for (left, top) in missing.map({ (Double($0.0), Double($0.1 + surfaceTop)) }) {
      cairo_rectangle(cr, left, top, side, side)
      cairo_set_source_rgba(cr, style.placeholder.red, style.placeholder.green, style.placeholder.blue, 1)
      cairo_fill(cr)
      // A faint grid: reads as "no data here", not as sea or land.
      let lines = style.placeholderLines
      cairo_set_source_rgba(cr, lines.red, lines.green, lines.blue, 1)
      cairo_set_line_width(cr, 1)
      for step in 0..<4 {
        let offset = Double(step) * side / 4 + 0.5
        cairo_move_to(cr, left + offset, top)
        cairo_line_to(cr, left + offset, top + side)
        cairo_move_to(cr, left, top + offset)
        cairo_line_to(cr, left + side, top + offset)
      }
      cairo_stroke(cr)
    }
  }
}
