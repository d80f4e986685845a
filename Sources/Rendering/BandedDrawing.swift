import CCairo
import Dispatch
import MapMath

/// Draws the same steps into horizontal bands of an image at once, each band on its own thread with its
/// own Cairo context over its rows of the one image (`Canvas(band:of:)`); the steps cull and cut their
/// geometry to the band they are given.
///
/// The bands depend on the image's height alone, never on the machine's cores, so an image is the same
/// bytes everywhere. Every band draws the very edges the whole image would (`TilePath` leaves out what
/// misses a band but cuts only at the image's margin), so bands meet without a seam; a pixel next to a
/// band's edge may differ from a single-context drawing by a level or two of antialiasing.
enum BandedDrawing {
  /// Bands are at least this many pixel rows tall (fewer bands, less geometry culled twice)…
  static let minimumBandRows = 200
  /// …and at most this many: two a core on two-core machines, so that uneven bands share out well. Each
  /// band draws the shapes that reach into it, so more bands cost more (8 bands: 6 % more instructions).
  static let maximumBands = 4

  /// The pixel rows of each band of an image `pixelHeight` rows tall, top to bottom, bands of at least
  /// `minimumRows`.
  static func bands(pixelHeight: Int, minimumRows: Int = minimumBandRows) -> [Range<Int>] {
    let count = min(max(pixelHeight / max(minimumRows, 1), 1), maximumBands)
    return (0..<count).map { index in
      (pixelHeight * index / count)..<(pixelHeight * (index + 1) / count)
    }
  }

  /// Runs `draw` once per band, bands in parallel, with the band's canvas and its rectangle in points.
  /// Only images are drawn in bands (SVG and PDF keep one context, one drawing), and only when every
  /// band's canvas can be made; a band whose drawing fails fails the canvas (`Canvas.finish` throws).
  /// `draw` runs on several threads at once: it may read, never change, what the bands share. `rows`
  /// overrides the bands (tests compare with one band).
  static func draw(
    on canvas: Canvas, rows: [Range<Int>]? = nil, _ draw: @escaping (Canvas, PixelRect) -> Void
  ) {
    let view = PixelRect(
      x: 0, y: 0, width: Double(canvas.pixelWidth) / canvas.scale,
      height: Double(canvas.pixelHeight) / canvas.scale)
    let rows = rows ?? bands(pixelHeight: canvas.pixelHeight)
    guard canvas.format == .png, rows.count > 1,
      let bands = try? rows.map({ try Canvas(band: $0, of: canvas) })
    else {
      draw(canvas, view)
      return
    }
    cairo_surface_flush(canvas.surface)
    let work = BandWork(bands: bands, draw: draw)
    let scale = canvas.scale
    DispatchQueue.concurrentPerform(iterations: bands.count) { index in
      let top = Double(rows[index].lowerBound) / scale
      let bottom = Double(rows[index].upperBound) / scale
      work.draw(work.bands[index], PixelRect(x: 0, y: top, width: view.width, height: bottom - top))
      cairo_surface_flush(work.bands[index].surface)
    }
    cairo_surface_mark_dirty(canvas.surface)
    if let failure = bands.lazy.compactMap(\.drawingFailure).first { canvas.failure = failure }
  }
}

/// The bands and the drawing handed to the threads. Unchecked: each band's canvas (Cairo context and
/// surface) is used by the one iteration that draws it, and `draw` only reads shared state.
private struct BandWork: @unchecked Sendable {
  let bands: [Canvas]
  let draw: (Canvas, PixelRect) -> Void
}

/// A map drawn in bands (`BandedDrawing`): what each band draws, on any thread, and what then goes over
/// the whole image on one thread (the labels' letters: Pango's). What needs Pango beforehand (the labels'
/// outlines) is made by `prepare` on that thread while the bands draw their first part; each band draws
/// its `late` part once it is made.
struct BandedMapDrawing {
  /// The image's pixel rows of each band.
  let rows: [Range<Int>]
  /// Draws a band's first part (its canvas, its rectangle in points); runs on several threads at once.
  let band: (Canvas, PixelRect) -> Void
  /// Makes what `late` and `top` draw from, on Pango's thread, while bands may be drawing `band`.
  let prepare: () -> Void
  /// Draws the rest of a band, over its first part, after `prepare`; several threads at once.
  let late: (Canvas, PixelRect) -> Void
  /// Draws over everything the bands drew, on a canvas of the whole image, after `prepare`; one thread.
  let top: (Canvas) -> Void
  /// Lets go of what they shared, once all have drawn.
  let release: () -> Void

  init(
    rows: [Range<Int>], band: @escaping (Canvas, PixelRect) -> Void, prepare: @escaping () -> Void = {},
    late: @escaping (Canvas, PixelRect) -> Void = { _, _ in }, top: @escaping (Canvas) -> Void,
    release: @escaping () -> Void = {}
  ) {
    (self.rows, self.band, self.prepare, self.late) = (rows, band, prepare, late)
    (self.top, self.release) = (top, release)
  }

  /// Everything on one canvas: `prepare`, the bands (both parts), then the top.
  func draw(on canvas: Canvas) {
    prepare()
    BandedDrawing.draw(on: canvas, rows: rows) { band, drawn in
      self.band(band, drawn)
      self.late(band, drawn)
    }
    top(canvas)
    release()
  }
}

/// What a map's `prepare` makes for its bands' `late` part and its top: set once, before either reads it
/// (the pipeline orders them). Unchecked for that reason.
final class PreparedForBands<Value>: @unchecked Sendable {
  var value: Value?
}
