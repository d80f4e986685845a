import CCairo
import Foundation
import Locking

/// Pixel memory for image canvases, given back when a canvas's surface is destroyed and lent to the next
/// canvas of the same size.
///
/// Fresh memory reaches a process as zeroed pages, one kernel fault each: the 3.7 MiB of a 1200×800 map
/// cost more than a millisecond of every render before a single shape was drawn. Renders after the first
/// in one process (a batch, a watch, a library client) reuse the memory instead, cleared in one `memset`.
/// A few blocks are kept, never more than `keptBytes` in all, so memory stays bounded.
enum SurfaceMemory {
  /// At most this many bytes are kept between canvases…
  static let keptBytes = 64 << 20
  /// …in at most this many blocks (a map drawn from vectors holds its canvas, its overlays' canvas and a
  /// coverage mask a band; renders that run side by side each hold their own).
  static let keptBlocks = 8

  /// Where a block's size is written, in front of its pixels (which stay 64-byte aligned).
  private static let headerBytes = 64

  private static let kept = Locked<[(block: UnsafeMutableRawPointer, bytes: Int)]>([])

  /// An ARGB32 image surface of `width` × `height` pixels over zeroed memory, kept or new: like
  /// `cairo_image_surface_create`, whose failures it reports the same way (an error surface, or nil
  /// when even that cannot be made).
  static func imageSurface(width: Int, height: Int) -> OpaquePointer? {
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: width)))
    guard width > 0, height > 0, stride > 0, height <= Int(Int32.max),
      case (let bytes, false) = stride.multipliedReportingOverflow(by: height)
    else {
      // Sizes Cairo refuses: let it make the error surface it reports.
      return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(clamping: width), Int32(clamping: height))
    }
    guard let block = take(bytes: bytes) else {
      return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    }
    let surface = cairo_image_surface_create_for_data(
      (block + headerBytes).assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
      Int32(height), Int32(stride))
    guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      cairo_surface_set_user_data(surface, &blockKey, block, giveBack) == CAIRO_STATUS_SUCCESS
    else {
      if let surface { cairo_surface_destroy(surface) }
      free(block)
      return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    }
    return surface
  }

  /// `bytes` zeroed bytes, 64-byte aligned, kept or new (nil when out of memory), for what a canvas
  /// draws through besides its pixels (`LineCoverageMask`); give them back with `takeBack(_:)`.
  static func zeroedBytes(_ bytes: Int) -> UnsafeMutableRawPointer? {
    take(bytes: bytes).map { $0 + headerBytes }
  }

  /// Takes back what `zeroedBytes` lent, to lend again (or free).
  static func takeBack(_ bytes: UnsafeMutableRawPointer) {
    keep(bytes - headerBytes)
  }

  /// The blocks kept now and their bytes (tests).
  static var keptSizes: [Int] { kept.withLock { $0.map(\.bytes) } }

  /// A block of `bytes` pixel bytes behind its header, zeroed: a kept one of that size, else a new one.
  private static func take(bytes: Int) -> UnsafeMutableRawPointer? {
    if let block = kept.withLock({ blocks -> UnsafeMutableRawPointer? in
      guard let index = blocks.firstIndex(where: { $0.bytes == bytes }) else { return nil }
      return blocks.remove(at: index).block
    }) {
      memset(block + headerBytes, 0, bytes)
      return block
    }
    // calloc hands large blocks over as untouched zero pages: nothing to clear.
    guard let block = calloc(1, headerBytes + bytes) else { return nil }
    block.storeBytes(of: bytes, as: Int.self)
    return block
  }

  /// Keeps a block whose surface was destroyed, or frees it when keeping it would pass the limits (the
  /// oldest kept block makes room for a newer one).
  fileprivate static func keep(_ block: UnsafeMutableRawPointer) {
    let bytes = block.load(as: Int.self)
    var freed: [UnsafeMutableRawPointer] = []
    kept.withLock { blocks in
      guard bytes <= keptBytes else {
        freed.append(block)
        return
      }
      blocks.append((block, bytes))
      while blocks.count > keptBlocks || blocks.reduce(0, { $0 + $1.bytes }) > keptBytes {
        freed.append(blocks.removeFirst().block)
      }
    }
    for block in freed { free(block) }
  }
}

/// The key under which a surface carries its block (only its address matters).
nonisolated(unsafe) private var blockKey = cairo_user_data_key_t()

/// Cairo calls this when the surface is destroyed, on whichever thread destroys it.
private func giveBack(_ block: UnsafeMutableRawPointer?) {
  if let block { SurfaceMemory.keep(block) }
}
