import CCairo
import Dispatch
import Foundation
import MapMath
import Tiles

/// Draws the built-in basemap (`BasemapSource`) straight onto the canvas as vector paths, so SVG and PDF
/// stay vector: the sea, land (every piece in one path and one fill, so the edges where the data cut big
/// polygons into pieces never show), lakes, rivers, the coastline, state and country borders, and the names of
/// countries and cities (`BasemapLabels`), placed around the overlays.
///
/// Everything is computed when the layer is made (the data read, projected to points and clipped to the
/// view by `BasemapProjection`; the labels measured and placed); `draw` (VectorBasemapDrawing.swift) only
/// paints. Owns Pango layouts: one thread only.
final class VectorBasemapLayer {
  /// State borders help from about the size of a large country on screen.
  static let stateBorderMinimumZoom = 4.0
  /// Rivers from a country's size on screen (the data holds them from band 2, zoom 5, on) to a city's:
  /// at half an arc-minute, the source's lines stray a few kilometres (the Seine 3 km south of the Cité),
  /// tens of points past zoom 10, where a river drawn beside a pin would mislead more than none.
  static let riverZooms = 5.0..<10.0
  /// Points around the view that geometry is kept for, so that line ends and joins stay outside it.
  static let clipMargin = 8.0

  let style: BasemapStyle
  let size: PixelSize
  let zoom: Double
  private(set) var land: [[PixelPoint]] = []
  private(set) var lakes: [[PixelPoint]] = []
  private(set) var rivers: [[PixelPoint]] = []
  private(set) var coastlines: [[PixelPoint]] = []
  private(set) var stateBorders: [[PixelPoint]] = []
  private(set) var countryBorders: [[PixelPoint]] = []
  /// The names, as placed.
  private(set) var labels: BasemapLabels

  /// The band drawn for the camera, geometry and labels: it depends on the zoom, never on the scale, so a
  /// scale 2 map is the scale 1 map at twice the pixels (the bands differ in what they hold: a finer band
  /// has more state borders and islands). Each band's geometry is simplified finely enough for scale 2
  /// (`BasemapBand.detailZoom`).
  static func band(for camera: Camera) -> Int {
    BasemapBand.band(forZoom: camera.zoom)
  }

  /// One query window inside the world ([0, 1] in x) and the whole worlds to shift its results by.
  struct WorldWindow: Equatable {
    var copy: Int
    var minX: Double
    var maxX: Double
  }

  /// Splits `minX`…`maxX` (any real numbers) at the world's edges: each piece is queried in [0, 1] and its
  /// features drawn `copy` worlds to the right. A window wider than the world gives one piece per copy.
  static func windows(minX: Double, maxX: Double) -> [WorldWindow] {
    guard minX.isFinite, maxX.isFinite, minX < maxX else { return [] }
    // A view of more than a few hundred worlds is absurd; keep the copies nearest its middle.
    let middle = (minX + maxX) / 2
    let low = max(minX, middle - 128)
    let high = min(maxX, middle + 128)
    var result: [WorldWindow] = []
    for copy in Int(low.rounded(.down))...Int(high.rounded(.down)) {
      let from = max(low - Double(copy), 0)
      let to = min(high - Double(copy), 1)
      if from < to { result.append(WorldWindow(copy: copy, minX: from, maxX: to)) }
    }
    return result
  }

  /// Reads, projects and clips what the camera shows, and places the labels away from `obstacles` (points).
  init(
    source: any BasemapSource, camera: Camera, style: BasemapStyle, fontFamily: String,
    obstacles: [PixelRect], measuring: MeasuringContext
  ) throws {
    self.style = style
    size = camera.size
    zoom = camera.zoom
    labels = BasemapLabels(zoom: camera.zoom, size: camera.size, style: style)
    guard let view = BasemapView(camera: camera, source: source) else { return }
    let band = VectorBasemapLayer.band(for: camera)
    // The names are measured and placed (Pango) on a thread of their own while this one reads and projects
    // the geometry (no Pango, and the source's queries stay on this thread): the two share nothing.
    let placing = LabelPlacing(
      labels: labels, candidates: try BasemapLabels.candidates(in: view, band: band), fontFamily: fontFamily,
      obstacles: obstacles, measuring: measuring)
    let placed = SideThread { placing.run() }
    do {
      try readGeometry(view, band: band)
    } catch {
      placed.join()
      throw error
    }
    placed.join()
    labels = placing.labels
  }

  /// Reads, projects and clips the geometry in view.
  private func readGeometry(_ view: BasemapView, band: Int) throws {
    for window in view.windows {
      let projection = view.projection(for: window)
      for kind in [BasemapKind.land, .lake, .river, .coastline, .stateBorder, .countryBorder] {
        if kind == .stateBorder && zoom < VectorBasemapLayer.stateBorderMinimumZoom { continue }
        if kind == .river && !VectorBasemapLayer.riverZooms.contains(zoom) { continue }
        for feature in try view.features(kind, band: band, window) {
          switch kind {
          case .land: projection.addPolygon(feature.parts, clip: view.clip, to: &land)
          case .lake: projection.addPolygon(feature.parts, clip: view.clip, to: &lakes)
          case .river: projection.addLine(feature.parts, clip: view.clip, to: &rivers)
          case .coastline: projection.addLine(feature.parts, clip: view.clip, to: &coastlines)
          case .stateBorder:
            projection.addLine(feature.parts, clip: view.clip, coarse: true, to: &stateBorders)
          case .countryBorder: projection.addLine(feature.parts, clip: view.clip, to: &countryBorders)
          case .countryLabel, .cityLabel: break
          }
        }
      }
    }
  }

  /// The labels as drawn, in image pixels.
  func drawnLabels(scale: Double) -> [BasemapLabel] {
    labels.drawn(scale: scale)
  }
}

/// What one camera shows of a basemap source: the world windows in view (one per world copy), the
/// projection to points for each, the clip rectangle, and the source's features there, each query made
/// once.
final class BasemapView {
  let source: any BasemapSource
  let size: PixelSize
  let zoom: Double
  /// The view and `VectorBasemapLayer.clipMargin` around it, in points.
  let clip: PixelRect
  let windows: [VectorBasemapLayer.WorldWindow]
  private let factor: Double
  private let originX: Double
  private let originY: Double
  private let step: Double
  private let minY: Double
  private let maxY: Double
  private var cache: [String: [BasemapFeature]] = [:]

  /// Nil when no part of the world is in view.
  init?(camera: Camera, source: any BasemapSource) {
    self.source = source
    size = camera.size
    zoom = camera.zoom
    // Points per world unit, and where the world copy 0's origin lands, in points.
    factor = 256 * pow(2, camera.zoom)
    let center = camera.centerWorld
    originX = size.width / 2 - center.x * factor
    originY = size.height / 2 - center.y * factor
    let margin = VectorBasemapLayer.clipMargin
    clip = PixelRect(x: 0, y: 0, width: size.width, height: size.height).insetBy(dx: -margin, dy: -margin)
    minY = max(center.y + (clip.minY - size.height / 2) / factor, 0)
    maxY = min(center.y + (clip.maxY - size.height / 2) / factor, 1)
    guard minY < maxY else { return nil }
    windows = VectorBasemapLayer.windows(
      minX: center.x + (clip.minX - size.width / 2) / factor,
      maxX: center.x + (clip.maxX - size.width / 2) / factor)
    // A quarter of an image pixel.
    step = 0.25 / camera.scale
  }

  /// World space to points for the world copy of `window`.
  func projection(for window: VectorBasemapLayer.WorldWindow) -> BasemapProjection {
    BasemapProjection(
      factor: factor, originX: originX + Double(window.copy) * factor, originY: originY, step: step)
  }

  /// The source's features of one kind in `window`.
  func features(_ kind: BasemapKind, band: Int, _ window: VectorBasemapLayer.WorldWindow) throws
    -> [BasemapFeature]
  {
    // A view wider than the world asks for the same whole world once per copy.
    let key = "\(kind.rawValue) \(band) \(window.minX) \(window.maxX)"
    if let cached = cache[key] { return cached }
    let found = try source.features(
      kind, band: band, from: WorldPoint(x: window.minX, y: minY), to: WorldPoint(x: window.maxX, y: maxY))
    cache[key] = found
    return found
  }
}

/// The names' placement handed to another thread, which alone touches them (and Pango) until it is done.
private final class LabelPlacing: @unchecked Sendable {
  var labels: BasemapLabels
  let candidates: [LabelCandidate]
  let fontFamily: String
  let obstacles: [PixelRect]
  let measuring: MeasuringContext
  /// The calling thread's Pango font map: Pango keeps one per thread, and a fresh one would match every
  /// font again; the placing thread (new, and gone after) borrows this one while the caller leaves Pango
  /// alone.
  let fontMap: UnsafeMutablePointer<PangoFontMap>?

  init(
    labels: BasemapLabels, candidates: [LabelCandidate], fontFamily: String, obstacles: [PixelRect],
    measuring: MeasuringContext
  ) {
    self.labels = labels
    self.candidates = candidates
    self.fontFamily = fontFamily
    self.obstacles = obstacles
    self.measuring = measuring
    fontMap = pango_cairo_font_map_get_default()
  }

  func run() {
    pango_cairo_font_map_set_default(fontMap.map(OpaquePointer.init))
    defer { pango_cairo_font_map_set_default(nil) }
    labels.place(candidates, fontFamily: fontFamily, obstacles: obstacles, measuring: measuring)
  }
}
