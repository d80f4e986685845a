import Foundation
import ImageCodecs
import MapMath
import Tiles

/// The rendering facade: a request in, a finished image and its layout out (ARCHITECTURE.md §2).
///
/// A render is a short pipeline of stages over the map's overlays (`MapOverlay`): measure (the overlays
/// are made and their text measured) → fit (`CameraFit`) → place (`OverlayPlacement`, then the basemap
/// around what the overlays claimed: `Basemap`) → draw (background, basemap, overlays by `DrawLevel`) →
/// encode (the canvas's bytes, and the layout each overlay reports into).
public enum Snapshotter {
  /// The largest image, in pixels, that mymap draws.
  public static let maximumPixels = 100_000_000
  /// How far past a tile source's top zoom the fitted camera may go (tiles drawn at most 4× enlarged).
  public static let maximumOverzoom = 2.0
  /// The most tiles one map may draw; beyond it the tile source's zoom range does not suit the camera.
  public static let maximumTiles = 4096

  /// Draws the map the request describes; once `cancellation` is cancelled, the next stage throws
  /// `RenderError.cancelled` (`MapSnapshotter` cancels it with its task).
  public static func render(_ request: RenderRequest, cancellation: RenderCancellation? = nil)
    throws(RenderError) -> RenderResult
  {
    try render(request, adding: [], cancellation: cancellation)
  }

  /// Draws the map with `extra` overlays after the standard ones (tests plug overlays in here); a PNG
  /// over raster tiles whose filtered rows take more than `bandedAbove` bytes is drawn and encoded a band
  /// at a time (`BandedImage`; tests lower it to compare the two ways). A PNG drawn from vectors is drawn
  /// and encoded at once (`BandedPNGPipeline`) unless `pipelined` is false (tests compare the two ways).
  static func render(
    _ request: RenderRequest, adding extra: [any MapOverlay], cancellation: RenderCancellation? = nil,
    bandedAbove: Int = PNGCodec.maximumBufferedBytes, pipelined: Bool = true
  ) throws(RenderError) -> RenderResult {
    var clock = PhaseClock()
    try validate(request)
    try cancellation?.check()
    let measuring = MeasuringContext()
    let numbering = PlaceNumbering(namedInLegend: request.showsLegend)
    let others = otherOverlays(request, numbering: numbering, measuring: measuring) + extra
    let fitted = try PlacesFit.fit(request, others: others) {
      PlacesOverlay(
        annotations: $0, style: request.style, showCallouts: request.showCallouts, labels: request.labels,
        numbering: numbering, padding: CameraFit.padding(for: request), measuring: measuring)
    }
    var overlays = fitted.overlays
    let placed = try PlateRoomFit.fitAndPlace(&overlays, for: request, numbering: numbering, fitted: fitted)
    let (camera, fitWarnings, claims) = (placed.camera, placed.warnings, placed.claims)
    var warnings = overlays.flatMap(\.warnings) + fitWarnings
    clock.lap("prepare")
    try cancellation?.check()
    let (data, basemap): ([UInt8], Basemap)
    var bandedWarnings = warnings
    if let banded = try BandedImage.make(for: request, camera: camera, minimumBytes: bandedAbove),
      let drawn = try banded.render(
        request, camera: camera, warnings: &bandedWarnings, clock: &clock, cancellation: cancellation,
        overlays: { drawOverlays(overlays, on: $0) })
    {
      (data, basemap, warnings) = (drawn.data, drawn.basemap, bandedWarnings)
    } else {
      (data, basemap) = try renderWhole(
        request, camera: camera, overlays: overlays, claims: claims, measuring: measuring,
        warnings: &warnings, clock: &clock, cancellation: cancellation, pipelined: pipelined)
    }
    var result = RenderResult(
      data: data,
      layout: MapLayout(
        width: Int(camera.pixelSize.width), height: Int(camera.pixelSize.height), scale: camera.scale,
        format: request.format, camera: camera, bounds: camera.bounds, tiles: basemap.summary,
        annotations: [], user: nil, droppedCallouts: [], labels: basemap.layoutLabels(scale: camera.scale)),
      warnings: warnings, labels: basemap.labels(scale: camera.scale), phaseTimes: clock.phases)
    for overlay in overlays { overlay.report(to: &result) }
    return result
  }

  /// The basemap, draw and encode stages on one canvas holding the whole image.
  private static func renderWhole(
    _ request: RenderRequest, camera: Camera, overlays: [any MapOverlay], claims: [PixelRect],
    measuring: MeasuringContext, warnings: inout [RenderWarning], clock: inout PhaseClock,
    cancellation: RenderCancellation?, pipelined: Bool
  ) throws(RenderError) -> ([UInt8], Basemap) {
    // Made before the basemap loads: raster tiles that fall 1:1 on it go in as they are decoded.
    let canvas = try makeCanvas(request, camera: camera)
    var basemap = try Basemap.load(
      for: request, camera: camera, overlayClaims: claims, measuring: measuring, canvas: canvas,
      warnings: &warnings)
    clock.lap("basemap", splitInto: basemap.vectorTiles?.loadTimes)
    try cancellation?.check()
    // A map drawn from vectors alone: flat colours, deflated fast and unfiltered (`PNGCompression`).
    let compression: PNGCompression = basemap.raster == nil ? .vectorDrawing : .standard
    if pipelined, BandedPNGPipeline.suits(canvas),
      let banded = basemap.bandedDrawing(on: canvas, camera: camera, style: request.style.basemap),
      let data = try BandedPNGPipeline.render(
        on: canvas, map: banded, top: { drawOverlays(overlays, on: $0) }, compression: compression,
        cancellation: cancellation)
    {
      clock.lap("draw and encode")
      return (data, basemap)
    }
    basemap.draw(on: canvas, camera: camera, style: request.style.basemap)
    clock.lap("draw map")
    drawOverlays(overlays, on: canvas)
    clock.lap("draw overlays")
    // The decoded tiles are drawn: let them go before encoding needs its buffers.
    basemap.raster = nil
    try cancellation?.check()
    let data = try encode(canvas, compression: compression)
    clock.lap("encode")
    return (data, basemap)
  }

  /// The measure stage for everything but the places (`PlacesFit` measures those): the overlays in the
  /// order they are placed and, within a level, drawn.
  private static func otherOverlays(
    _ request: RenderRequest, numbering: PlaceNumbering, measuring: MeasuringContext
  ) -> [any MapOverlay] {
    var overlays: [any MapOverlay] = []
    if let user = request.user {
      overlays.append(UserPositionOverlay(user: user, style: request.style.userDot))
    }
    if let attribution = AttributionPlate.overlay(for: request, measuring: measuring) {
      overlays.append(attribution)
    }
    if !request.tracks.isEmpty {
      overlays.append(TrackOverlay(tracks: request.tracks, style: request.style.track))
    }
    overlays += decorations(request, numbering: numbering, measuring: measuring)
    return overlays
  }

  /// The canvas, its background painted.
  private static func makeCanvas(_ request: RenderRequest, camera: Camera) throws(RenderError) -> Canvas {
    let canvas: Canvas
    do {
      canvas = try Canvas(
        format: request.format, pixelWidth: Int(camera.pixelSize.width),
        pixelHeight: Int(camera.pixelSize.height), scale: request.scale)
    } catch {
      throw RenderError.drawing("\(error)")
    }
    canvas.drawing.fillRect(
      PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height),
      color: request.style.basemap.background)
    return canvas
  }

  /// The overlays level by level (in a level, in their order).
  private static func drawOverlays(_ overlays: [any MapOverlay], on canvas: Canvas) {
    let steps = overlays.indices.flatMap { index in
      overlays[index].drawLevels.map { (level: $0, index: index) }
    }
    for step in steps.sorted(by: { ($0.level.rank, $0.index) < ($1.level.rank, $1.index) }) {
      overlays[step.index].draw(step.level, on: canvas)
    }
  }

  /// The encode stage: the file's bytes.
  private static func encode(_ canvas: Canvas, compression: PNGCompression) throws(RenderError) -> [UInt8] {
    do {
      return [UInt8](try canvas.finish(compression: compression))
    } catch {
      throw RenderError.drawing("\(error)")
    }
  }
}
