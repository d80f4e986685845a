import CCairo
import Foundation
import ImageCodecs
import MapMath
import Tiles

/// A large PNG over raster tiles, drawn and encoded a band of rows at a time, so that the image is never
/// whole in memory: each band gets a canvas of its own (its background, the tiles of its tile rows copied
/// in as they are decoded, then every overlay, Cairo clipping each to the band) and goes to the row-by-row
/// PNG writer (`PNGRowWriter`) before the next is drawn. The bands start and end on tile edges, so every
/// tile is decoded once. The pixels are those of the image drawn whole, and the file the same bytes: an
/// image this large is written by the row-by-row writer either way.
struct BandedImage {
  /// A band is this many tile rows tall (512 pixel rows with 256-pixel tiles: 9.8 MB at 4800 wide).
  static let tileRowsPerBand = 2

  let plan: Basemap.RasterPlan
  /// Where the range's top-left tile corner lands in the image, in whole pixels.
  let origin: (x: Int, y: Int)

  /// The banded way for this render, or nil when the image is drawn whole: a PNG whose filtered rows would
  /// take more than `minimumBytes`, over raster tiles that fall 1:1 on its pixels, with an opaque
  /// background (so the PNG's alpha channel can be left out before the last band is drawn), and a request
  /// that does not require every tile (which fails on the count of all the tiles missing).
  static func make(for request: RenderRequest, camera: Camera, minimumBytes: Int) throws(RenderError)
    -> BandedImage?
  {
    let (width, height) = (Int(camera.pixelSize.width), Int(camera.pixelSize.height))
    guard request.format == .png, let source = request.tiles, source.content != .vector,
      !request.requireAllTiles, request.style.basemap.background.alpha >= 1,
      (width * 3 + 1) * height > minimumBytes
    else { return nil }
    let plan = try Basemap.planTiles(from: source, camera: camera)
    guard let first = plan.range.placements.first else { return nil }
    let corner = camera.pixelRect(for: first)
    guard BasemapLayer.isAligned(corner, factor: corner.width / Double(source.tileSize)) else { return nil }
    return BandedImage(plan: plan, origin: (Int(corner.x.rounded()), Int(corner.y.rounded())))
  }

  /// The image's pixel rows of each band, top to bottom: cut on the tile edges every `tileRowsPerBand`
  /// tile rows (above and below the world too).
  func bands(pixelHeight: Int) -> [Range<Int>] {
    let step = plan.source.tileSize * Self.tileRowsPerBand
    var cuts = [0]
    // The first cut below the top, on the grid of cuts through the origin.
    var cut = origin.y - Int((Double(origin.y) / Double(step)).rounded(.down)) * step
    if cut == 0 { cut += step }
    while cut < pixelHeight {
      cuts.append(cut)
      cut += step
    }
    cuts.append(pixelHeight)
    return zip(cuts, cuts.dropFirst()).map { $0..<$1 }
  }

  /// Draws and encodes the image band by band; nil when a band turns out not to be opaque (then it is
  /// drawn whole). `draw` draws the overlays on a band's canvas.
  func render(
    _ request: RenderRequest, camera: Camera, warnings: inout [RenderWarning], clock: inout PhaseClock,
    cancellation: RenderCancellation?, overlays draw: (Canvas) -> Void
  ) throws(RenderError) -> (data: [UInt8], basemap: Basemap)? {
    let (width, height) = (Int(camera.pixelSize.width), Int(camera.pixelSize.height))
    var times = PhaseClock()
    try Basemap.prepare(plan, warnings: &warnings)
    times.lap("basemap")
    let writer: PNGRowWriter
    do {
      writer = try PNGRowWriter(width: width, height: height, opaque: true)
    } catch {
      throw RenderError.drawing("\(error)")
    }
    let loader = TileLoader(source: plan.source, cache: request.tileCache)
    let view = PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height)
    var outcome = LoadedTiles(images: [:], missing: [], failed: [])
    let bands = bands(pixelHeight: height)
    for (index, band) in bands.enumerated() {
      try cancellation?.check()
      let canvas: Canvas
      do {
        canvas = try Canvas(rows: band, ofImageWidth: width, height: height, scale: camera.scale)
      } catch CanvasError.cannotCreateSurface(_, _, let status) {
        // Named as the image the user asked for, as when it is drawn whole.
        throw RenderError.drawing(
          "\(CanvasError.cannotCreateSurface(width: width, height: height, status: status))")
      } catch {
        throw RenderError.drawing("\(error)")
      }
      canvas.drawing.fillRect(view, color: request.style.basemap.background)
      if let range = tileRange(for: band, first: index == 0, last: index == bands.count - 1) {
        let tiles = plan.tiles.filter { range.rows.contains($0.y) }
        let loaded: LoadedTiles
        do {
          loaded = try Basemap.loadDrawingDirectly(
            tiles, range: range, loader: loader, canvas: canvas, camera: camera)
        } catch {
          throw RenderError.tileSource("\(error)")
        }
        times.lap("tiles")
        var layer = BasemapLayer(
          range: range, tileSize: plan.source.tileSize, images: loaded.images, style: request.style.basemap)
        layer.drawnTiles = Set(loaded.handedOver)
        layer.draw(on: canvas, camera: camera)
        outcome.missing += loaded.missing
        outcome.failed += loaded.failed
        times.lap("draw map")
      }
      draw(canvas)
      times.lap("draw overlays")
      cairo_surface_flush(canvas.surface)
      if let failure = canvas.drawingFailure {
        throw RenderError.drawing("\(CanvasError.drawingFailed(failure))")
      }
      guard canvas.isOpaque, let pixels = cairo_image_surface_get_data(canvas.surface) else { return nil }
      do {
        try writer.write(UnsafeRawPointer(pixels), rows: band.count, stride: canvas.stride)
      } catch {
        throw RenderError.drawing("\(error)")
      }
      times.lap("encode")
    }
    let data: Data
    do {
      data = try writer.finish()
    } catch {
      throw RenderError.drawing("\(error)")
    }
    times.lap("encode")
    clock.lap("basemap", splitInto: times.phaseTotals)
    // In the order the tiles are listed, as a render drawn whole reports them.
    outcome.missing.sort()
    outcome.failed.sort { $0.tile < $1.tile }
    let basemap = try Basemap.rasterBasemap(
      BasemapLayer(
        range: plan.range, tileSize: plan.source.tileSize, images: [:], style: request.style.basemap),
      plan: plan, loaded: outcome, request: request, warnings: &warnings)
    return ([UInt8](data), basemap)
  }

  /// The plan's tile rows that reach into `band` (inside the image, bands are cut on tile edges: each
  /// tile row reaches into one band), the `first` band also any above the image and the `last` any below
  /// it, so that every tile of the plan is loaded, and counted, once whatever the range holds; nil when
  /// none.
  private func tileRange(for band: Range<Int>, first: Bool, last: Bool) -> TileRange? {
    let size = plan.source.tileSize
    let rows = plan.range.rows.filter {
      let top = origin.y + ($0 - plan.range.rows.lowerBound) * size
      return (top < band.upperBound || last) && (top + size > band.lowerBound || first)
    }
    guard let first = rows.first, let last = rows.last else { return nil }
    return TileRange(zoom: plan.range.zoom, columns: plan.range.columns, rows: first...last)
  }
}
