import CCairo
import Dispatch
import Foundation
import ImageCodecs
import Locking
import MapMath

/// A PNG map drawn and encoded on every core at once, with no stage waiting for the one before it to end.
///
/// The map's bands (`BandedMapDrawing`) are drawn in parallel, while one thread (Pango's) prepares the
/// labels' outlines, then draws everything that goes over the bands (the labels' letters, then the
/// overlays) on a clear canvas of its own, the top. A band draws its labels once they are prepared. Once
/// a band is drawn and the top is done, the top's rows are laid over the band's (Cairo's
/// OVER), and each piece of the PNG (`PNGPieceEncoder`) is deflated as soon as the bands under its rows
/// are finished. Drawn that way, a pixel is the one drawing the top straight onto the map gives, except
/// where shapes of the top overlap with partial alpha: there it may differ by a level of rounding.
///
/// Which thread does what, and in which order, never changes a byte: the bands, the top, the pieces and
/// what each step draws depend on the image alone.
enum BandedPNGPipeline {
  /// Whether an image of `canvas`'s size is drawn this way: the PNG's filtered rows fit in the encoder's
  /// buffer (`PNGCodec.maximumBufferedBytes`), as `PNGPieceEncoder` requires.
  /// Subpixel glyphs (a test's stand-in rasterizer) keep a coverage per colour that a layer with one
  /// alpha cannot hold, so their top is drawn straight onto the map.
  static func suits(_ canvas: Canvas) -> Bool {
    canvas.format == .png && canvas.rows == 0..<canvas.pixelHeight
      && (canvas.pixelWidth * 4 + 1) * canvas.pixelHeight <= PNGCodec.maximumBufferedBytes
      && GlyphRaster.current.antialias != .subpixel
  }

  /// Draws `map` and then `top` over it on `canvas` (its background painted), and returns the PNG's bytes,
  /// deflated as `compression` says (its filter chosen, not sampled); nil when the image does not suit
  /// (`suits`) or its band canvases cannot be made, before anything is drawn (`map` is released either
  /// way). Once `cancellation` is cancelled no further piece is deflated, and the render throws
  /// `RenderError.cancelled` when the drawing is done. `workers` overrides the number of threads (one a
  /// core; tests).
  static func render(
    on canvas: Canvas, map: BandedMapDrawing, top: @escaping (Canvas) -> Void, compression: PNGCompression,
    cancellation: RenderCancellation? = nil, workers: Int? = nil
  ) throws(RenderError) -> [UInt8]? {
    guard suits(canvas), compression.filter != .sampled, !map.rows.isEmpty,
      let bands = try? map.rows.map({ try Canvas(band: $0, of: canvas) }),
      let encoder = try? PNGPieceEncoder(
        width: canvas.pixelWidth, height: canvas.pixelHeight, opaque: true, compression: compression),
      let pixels = cairo_image_surface_get_data(canvas.surface)
    else {
      map.release()
      return nil
    }
    cairo_surface_flush(canvas.surface)
    let board = PipelineBoard(
      bands: map.rows, pieces: encoder.pieces, readsRowAbove: compression.filter == .paeth)
    let work = PipelineWork(
      canvas: canvas, bands: bands, map: map, top: top, encoder: encoder,
      pixels: UnsafeRawPointer(pixels), stride: canvas.stride, cancellation: cancellation)
    let threads = workers ?? min(ProcessInfo.processInfo.activeProcessorCount, bands.count + 1)
    DispatchQueue.concurrentPerform(iterations: max(threads, 1)) { _ in
      while let task = board.next() {
        board.finished(task, succeeded: work.run(task))
      }
    }
    cairo_surface_mark_dirty(canvas.surface)
    if let failure = bands.lazy.compactMap(\.drawingFailure).first { canvas.failure = failure }
    let outcome = board.outcome
    if outcome == .topNotDrawn {
      // No top canvas could be made: the top goes straight onto the map, as when drawn whole.
      map.top(canvas)
      top(canvas)
    }
    map.release()
    try cancellation?.check()
    do {
      if let failure = work.topFailure ?? work.layFailure.withLock({ $0 }) {
        throw CanvasError.drawingFailed(failure)
      }
      // A band that is not opaque (a see-through style) or a piece not deflated: the image is encoded
      // whole, its alpha kept where it is needed (`finish` also reports a failed drawing).
      guard outcome == .encoded else { return [UInt8](try canvas.finish(compression: compression)) }
      if let failure = canvas.drawingFailure { throw CanvasError.drawingFailed(failure) }
      return try encoder.finishBytes()
    } catch {
      throw RenderError.drawing("\(error)")
    }
  }
}

/// One step of the pipeline.
private enum PipelineTask {
  /// Make what the bands' late part and the top draw from.
  case prepare
  /// Draw the top on its own canvas.
  case top
  /// Draw the first part of band `index` of the map.
  case band(Int)
  /// Draw the late part of band `index`.
  case late(Int)
  /// Lay the top over band `index`.
  case lay(Int)
  /// Deflate piece `index` of the PNG.
  case piece(Int)
}

/// What the pipeline's threads draw on and with. Unchecked: each band's canvas is drawn by the one task
/// that draws it and later the one that lays the top over it; the top canvas is written by its task alone
/// and read only after it (`PipelineBoard` orders them under its lock); the encoder takes each piece once.
private final class PipelineWork: @unchecked Sendable {
  let canvas: Canvas
  let bands: [Canvas]
  let map: BandedMapDrawing
  let top: (Canvas) -> Void
  let encoder: PNGPieceEncoder
  let pixels: UnsafeRawPointer
  let stride: Int
  let cancellation: RenderCancellation?
  private var topCanvas: Canvas?
  /// Why drawing the top failed, if it did.
  private(set) var topFailure: String?
  /// Why laying the top over a band failed, if it did (any thread may set it).
  let layFailure = Locked<String?>(nil)

  init(
    canvas: Canvas, bands: [Canvas], map: BandedMapDrawing, top: @escaping (Canvas) -> Void,
    encoder: PNGPieceEncoder, pixels: UnsafeRawPointer, stride: Int, cancellation: RenderCancellation?
  ) {
    (self.canvas, self.bands, self.map, self.top) = (canvas, bands, map, top)
    (self.encoder, self.pixels, self.stride, self.cancellation) = (encoder, pixels, stride, cancellation)
  }

  /// Runs `task`; false when it could not be done (the board then stops what depends on it).
  func run(_ task: PipelineTask) -> Bool {
    switch task {
    case .prepare:
      map.prepare()
      return true
    case .top:
      guard
        let layer = try? Canvas(
          format: .png, pixelWidth: canvas.pixelWidth, pixelHeight: canvas.pixelHeight, scale: canvas.scale)
      else { return false }
      guard cairo_image_surface_get_data(layer.surface) != nil else { return false }
      map.top(layer)
      top(layer)
      cairo_surface_flush(layer.surface)
      topFailure = layer.drawingFailure
      topCanvas = layer
      return true
    case .band(let index):
      map.band(bands[index], drawn(by: bands[index]))
      return true
    case .late(let index):
      map.late(bands[index], drawn(by: bands[index]))
      cairo_surface_flush(bands[index].surface)
      return true
    case .lay(let index):
      guard let topCanvas else { return false }
      return lay(topCanvas, over: bands[index])
    case .piece(let index):
      if cancellation?.isCancelled == true { return false }
      return (try? encoder.deflate(piece: index, of: pixels, stride: stride)) != nil
    }
  }

  /// The rectangle `band` draws, in points.
  private func drawn(by band: Canvas) -> PixelRect {
    let scale = canvas.scale
    return PixelRect(
      x: 0, y: Double(band.rows.lowerBound) / scale, width: Double(canvas.pixelWidth) / scale,
      height: Double(band.rows.count) / scale)
  }

  /// Lays the top's rows of `band` over it; false when the band's pixels are not all opaque afterwards
  /// (the PNG then needs its alpha channel).
  private func lay(_ layer: Canvas, over band: Canvas) -> Bool {
    let layerPixels = cairo_image_surface_get_data(layer.surface)!
    let rows = band.rows
    let slice = cairo_image_surface_create_for_data(
      layerPixels + rows.lowerBound * layer.stride, CAIRO_FORMAT_ARGB32, Int32(layer.pixelWidth),
      Int32(rows.count), Int32(layer.stride))
    // A context of its own over the band's surface: device pixels, nothing left from the band's drawing.
    let cr = cairo_create(band.surface)
    cairo_set_source_surface(cr, slice, 0, Double(rows.lowerBound))
    cairo_paint(cr)
    let status = cairo_status(cr)
    cairo_destroy(cr)
    cairo_surface_destroy(slice)
    cairo_surface_flush(band.surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      // The band lacks its top: the render fails rather than write the map without it.
      layFailure.withLock { $0 = $0 ?? String(cString: cairo_status_to_string(status)) }
      return false
    }
    return band.isOpaque
  }
}

/// Which steps may start, and the order they are handed out in: the preparing first, then the top (the
/// longest step on one thread) once it is done, the bands' first parts top to bottom, each band's late
/// part once the preparing is done, its laying once that and the top are done, then each piece as soon
/// as the bands under its rows are laid. Threads with nothing to start wait for a step to finish.
private final class PipelineBoard: @unchecked Sendable {
  /// How the pipeline ended.
  enum Outcome: Equatable {
    /// Every piece deflated.
    case encoded
    /// No top canvas could be made: nothing was laid, no piece deflated.
    case topNotDrawn
    /// A band was not opaque after laying, or a piece failed: the image is drawn, not encoded.
    case notEncoded
  }

  private let condition = NSCondition()
  private let pieceBands: [[Int]]
  private var prepareStarted = false
  private var prepared = false
  private var topStarted = false
  private var topDone = false
  private var bandsStarted = 0
  private var bandsDrawn: [Bool]
  private var lateStarted: [Bool]
  private var lateDrawn: [Bool]
  private var layStarted: [Bool]
  private var laid: [Bool]
  private var piecesStarted: [Bool]
  /// Steps handed out or still to hand out that have not finished.
  private var unfinished: Int
  private var state = Outcome.encoded

  /// With `readsRowAbove` (the paeth filter) a piece also waits for the band of the row above it.
  init(bands: [Range<Int>], pieces: [Range<Int>], readsRowAbove: Bool) {
    pieceBands = pieces.map { piece in
      let rows = (readsRowAbove ? max(piece.lowerBound - 1, 0) : piece.lowerBound)..<piece.upperBound
      return bands.indices.filter { bands[$0].overlaps(rows) }
    }
    bandsDrawn = Array(repeating: false, count: bands.count)
    (lateStarted, lateDrawn, layStarted, laid) = (bandsDrawn, bandsDrawn, bandsDrawn, bandsDrawn)
    piecesStarted = Array(repeating: false, count: pieces.count)
    unfinished = 2 + 3 * bands.count + pieces.count
  }

  /// How it ended (once every thread has).
  var outcome: Outcome {
    condition.lock()
    defer { condition.unlock() }
    return state
  }

  /// The next step to run, waiting while none can start; nil when none is left.
  func next() -> PipelineTask? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if !prepareStarted {
        prepareStarted = true
        return .prepare
      }
      if prepared, !topStarted {
        topStarted = true
        return .top
      }
      if bandsStarted < bandsDrawn.count {
        bandsStarted += 1
        return .band(bandsStarted - 1)
      }
      if prepared, let index = bandsDrawn.indices.first(where: { bandsDrawn[$0] && !lateStarted[$0] }) {
        lateStarted[index] = true
        return .late(index)
      }
      if topDone, let index = lateDrawn.indices.first(where: { lateDrawn[$0] && !layStarted[$0] }) {
        layStarted[index] = true
        return .lay(index)
      }
      if let index = piecesStarted.indices.first(where: { index in
        !piecesStarted[index] && pieceBands[index].allSatisfy { laid[$0] }
      }) {
        piecesStarted[index] = true
        return .piece(index)
      }
      if unfinished == 0 { return nil }
      condition.wait()
    }
  }

  /// Marks `task` finished; when it failed, the steps that depend on it are called off.
  func finished(_ task: PipelineTask, succeeded: Bool) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    unfinished -= 1
    switch task {
    case .prepare:
      prepared = true
    case .top:
      topDone = true
      if !succeeded {
        state = .topNotDrawn
        callOff(lays: true)
      }
    case .band(let index):
      bandsDrawn[index] = true
    case .late(let index):
      lateDrawn[index] = true
    case .lay(let index):
      laid[index] = true
      if !succeeded, state == .encoded {
        state = .notEncoded
        callOff(lays: false)
      }
    case .piece:
      if !succeeded, state == .encoded {
        state = .notEncoded
        callOff(lays: false)
      }
    }
  }

  /// Stops handing out the pieces (and, with `lays`, the layings) not yet started.
  private func callOff(lays: Bool) {
    for index in piecesStarted.indices where !piecesStarted[index] {
      piecesStarted[index] = true
      unfinished -= 1
    }
    guard lays else { return }
    for index in layStarted.indices where !layStarted[index] {
      layStarted[index] = true
      unfinished -= 1
    }
  }
}
