import CCairo
import Foundation
import Locking

/// One pin drawn into pixels (premultiplied ARGB32) at one quarter-pixel offset of its tip. Immutable once
/// made: each render wraps the pixels in a Cairo surface of its own (`surface()`), because Cairo and
/// pixman do not count references to one surface safely across threads.
final class PinSpritePixels: @unchecked Sendable {
  let width: Int32
  let height: Int32
  let stride: Int32
  private let pixels: UnsafeMutableRawPointer

  /// Draws a sprite `width` × `height` pixels with `draw`; nil when it cannot be drawn.
  ///
  /// Drawn on a surface Cairo made and copied out: Cairo knows its own new surface is clear and lays the
  /// first shape on with SOURCE rather than OVER, which rounds a pixel or two of the shadow differently
  /// from drawing on zeroed memory of our own. The pins stay the pixels they always were.
  init?(width: Int32, height: Int32, draw: (OpaquePointer) -> Void) {
    let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width)
    guard width > 0, height > 0, stride > 0,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
    else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
      return nil
    }
    draw(cr)
    let drawn = cairo_status(cr) == CAIRO_STATUS_SUCCESS
    cairo_destroy(cr)
    cairo_surface_flush(surface)
    guard drawn, let data = cairo_image_surface_get_data(surface),
      cairo_image_surface_get_stride(surface) == stride
    else { return nil }
    let bytes = Int(stride) * Int(height)
    pixels = .allocate(byteCount: bytes, alignment: 16)
    pixels.copyMemory(from: data, byteCount: bytes)
    (self.width, self.height, self.stride) = (width, height, stride)
  }

  deinit { pixels.deallocate() }

  var byteCount: Int { Int(stride) * Int(height) }

  /// A new Cairo surface over the pixels, to paint from (never to draw on); the caller destroys it and
  /// keeps this object alive while the surface is used.
  func surface() -> OpaquePointer? {
    let surface = cairo_image_surface_create_for_data(
      pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, width, height, stride)
    guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      if let surface { cairo_surface_destroy(surface) }
      return nil
    }
    return surface
  }
}

/// Pin sprites kept between renders in one process (a batch, a watch, a library client draws the same
/// pins again): drawing a sprite costs some 14 antialiased fills, 0.2–0.3 ms, against a copy of a few
/// kilobytes. The same style, scale and offset always give the same pixels, so a kept sprite changes no
/// byte of a map. At most `keptBytes` are kept; the oldest go first.
enum PinSpriteCache {
  struct Key: Hashable {
    let style: PinStyle
    let scale: Double
    let quarterX: Int
    let quarterY: Int
  }

  static let keptBytes = 4 << 20

  private static let kept = Locked<(sprites: [Key: PinSpritePixels], order: [Key], bytes: Int)>(([:], [], 0))

  /// The sprite for `key`: kept, or made by `make` (outside the lock) and kept.
  static func sprite(for key: Key, make: () -> PinSpritePixels?) -> PinSpritePixels? {
    if let sprite = kept.withLock({ $0.sprites[key] }) { return sprite }
    guard let sprite = make() else { return nil }
    return kept.withLock { kept -> PinSpritePixels in
      // Another render may have made it meanwhile: the same pixels; keep the first.
      if let existing = kept.sprites[key] { return existing }
      guard sprite.byteCount <= keptBytes else { return sprite }
      while kept.bytes + sprite.byteCount > keptBytes, !kept.order.isEmpty {
        let oldest = kept.order.removeFirst()
        kept.bytes -= kept.sprites.removeValue(forKey: oldest)?.byteCount ?? 0
      }
      kept.sprites[key] = sprite
      kept.order.append(key)
      kept.bytes += sprite.byteCount
      return sprite
    }
  }

  /// The bytes kept now (tests).
  static var keptByteCount: Int { kept.withLock { $0.bytes } }

  /// Forgets every kept sprite (tests).
  static func removeAll() { kept.withLock { $0 = ([:], [], 0) } }
}
