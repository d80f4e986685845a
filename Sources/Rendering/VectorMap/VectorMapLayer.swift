import CCairo
import Dispatch
import Foundation
import MapMath
import MapStyle
import VectorTiles

/// A label of a vector map as drawn, for the layout JSON.
public struct DrawnMapLabel: Hashable, Sendable {
  /// The text as drawn: trimmed, `text-transform` applied (a point label may wrap it onto lines).
  public var text: String
  /// The style layer that drew it.
  public var layer: String
  /// The label's bounding box, in image pixels.
  public var rect: PixelRect
  /// The boxes it keeps free of other labels, in image pixels: one for a point label, one per letter
  /// for a label that follows a line (whose bounding box may overlap another label's).
  public var boxes: [PixelRect]
}

/// A street map from vector tiles and a MapLibre style, drawn as vectors under the overlays.
///
/// Everything is worked out when the layer is made — tiles read and decoded (in parallel), every
/// feature styled and grouped by paint, labels measured and placed around the obstacles — so that
/// `draw(on:)` only paints. Style layers are drawn one at a time across all tiles, so roads and their
/// casings join across tile edges. Zooms follow `VectorMapTiling`. Owns Pango layouts: one thread only.
final class VectorMapLayer {
  /// The label families tried after the style's own fonts.
  static let defaultFontFallback = "Noto Sans, DejaVu Sans"

  private enum Step {
    case background(Color)
    case placeholders
    case geometry(GeometryLayerPlan)
    case labels(Int)

    var isLabels: Bool { if case .labels = self { true } else { false } }
  }

  let camera: Camera
  let tiling: VectorMapTiling
  let tiles: [MapTile]
  /// What the map could not draw as asked (tiles that failed, layers of other sources).
  private(set) var warnings: [RenderWarning] = []
  private var steps: [Step] = []
  private let labelLayers: [PlacedLabelLayer]
  /// How long reading and decoding the tiles, styling the features and placing the labels took.
  private(set) var loadTimes: [RenderPhaseTime] = []

  /// The labels as placed, in points, with their layers' ids, in drawing order.
  var placedLabels: [(layer: String, label: PlacedMapLabel)] {
    labelLayers.flatMap { layer in layer.labels.map { (layer.id, $0) } }
  }

  /// The labels as drawn, in image pixels, in drawing order.
  var labels: [DrawnMapLabel] {
    labelLayers.flatMap { layer in layer.labels.map { $0.drawn(scale: camera.scale, layer: layer.id) } }
  }

  /// - Parameters:
  ///   - obstacles: rectangles in points that labels keep clear of (pins, callouts, the user's dot,
  ///     the attribution).
  ///   - fontFallback: families (comma-separated) tried after a label's own fonts.
  ///   - drawsLabels: false leaves out every symbol layer.
  ///   - tileCache: decoded tiles kept between renders (`VectorTileCache`).
  init(
    supply: any VectorTileSupply, style: MapStyle, camera: Camera, obstacles: [PixelRect],
    measuring: MeasuringContext, fontFallback: String = VectorMapLayer.defaultFontFallback,
    drawsLabels: Bool = true, tileCache: VectorTileCache? = nil
  ) throws(VectorMapError) {
    var clock = PhaseClock()
    self.camera = camera
    let tiling = try VectorMapTiling(camera: camera, zoomRange: supply.zoomRange)
    self.tiling = tiling
    let zoom = tiling.styleZoom
    let sourceID = style.sources.first { $0.type == "vector" }?.id
    var otherSources: [String] = []
    let drawn = style.layers.filter { layer in
      guard layer.isShown(atZoom: zoom) else { return false }
      switch layer.kind {
      case .background: return true
      case .fill, .line: break
      case .symbol: guard drawsLabels else { return false }
      case .unsupported: return false
      }
      guard layer.sourceLayer != nil else { return false }
      if let sourceID, let source = layer.source, source != sourceID {
        if !otherSources.contains(source) { otherSources.append(source) }
        return false
      }
      return true
    }
    for source in otherSources {
      warnings.append(.styleSourceNotDrawn(source))
    }
    let tiles = MapTile.load(
      tiling.placements, from: supply, layers: Set(drawn.compactMap(\.sourceLayer)), cache: tileCache)
    self.tiles = tiles
    var failed = 0
    for tile in tiles {
      guard case .failed(let reason) = tile.content else { continue }
      failed += 1
      if failed <= 3 { warnings.append(.vectorTileUndrawable(tile.tile, reason: reason)) }
    }
    if failed > 3 { warnings.append(.moreVectorTilesUndrawable(count: failed - 3)) }
    clock.lap("tiles")

    // The fill and line layers are styled on another thread while the labels are placed on this one
    // (Pango's), that thread first helping to collect the label candidates (`LabelCandidateQueue`): each
    // side reads the tiles through its own `FeatureLayer`s, whose cached kinds are not shared between
    // threads.
    var symbolLayers: [(StyleLayer, SymbolStyle)] = []
    var geometryLayers: [(slot: Int, layer: StyleLayer, source: String)] = []
    // The steps in order; nil where a fill or line layer's plan goes (left out when it draws nothing).
    var pending: [Step?] = []
    var placedPlaceholders = false
    for layer in drawn {
      if !placedPlaceholders, layer.sourceLayer != nil {
        pending.append(.placeholders)
        placedPlaceholders = true
      }
      switch layer.kind {
      case .background(let background):
        let color = Color(
          background.color.value(atZoom: zoom), opacity: background.opacity.value(atZoom: zoom))
        if color.alpha > 0 { pending.append(.background(color)) }
      case .fill, .line:
        guard let name = layer.sourceLayer else { continue }
        geometryLayers.append((pending.count, layer, name))
        pending.append(nil)
      case .symbol(let symbol):
        pending.append(.labels(symbolLayers.count))
        symbolLayers.append((layer, symbol))
      case .unsupported:
        continue
      }
    }
    if !placedPlaceholders { pending.append(.placeholders) }
    let view = PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height)
    let candidates = LabelCandidateQueue(
      symbolLayers, tiles: tiles, view: view, zoom: zoom, fontFallback: fontFallback)
    let styling = GeometryStyling(
      layers: geometryLayers.map { ($0.layer, $0.source) }, tiles: tiles, zoom: zoom, labels: candidates)
    styling.start()
    let labelSources = FeatureLayerSources(tiles: tiles)
    labelLayers = LabelPlacement.place(
      symbolLayers.map(\.0.id), candidates: { candidates.candidates($0, sources: labelSources.layers) },
      camera: camera, obstacles: obstacles, measuring: measuring)
    let plans = styling.wait()
    for ((slot, _, _), plan) in zip(geometryLayers, plans) {
      pending[slot] = plan.map { .geometry($0) }
    }
    steps = pending.compactMap { $0 }
    clock.lap("style + labels")
    loadTimes = clock.phases
  }

  /// The style's (last opaque) background colour: what most lines are drawn over.
  private var ground: Color? {
    steps.compactMap { if case .background(let color) = $0, color.alpha >= 1 { color } else { nil } }.last
  }

  /// The image, in points.
  private var view: PixelRect { PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height) }

  /// Paints the map: the style's layers in order, placeholders where tiles failed, the labels. Layers
  /// are drawn in bands on every core (`BandedDrawing`; `bands` overrides its rows) up to the first
  /// label layer, and in images to the end when only label layers follow it (`bandedDrawing`).
  /// Otherwise the labels and whatever comes after them are drawn on the whole canvas.
  func draw(on canvas: Canvas, bands: [Range<Int>]? = nil) {
    if let banded = bandedDrawing(on: canvas, bands: bands) { return banded.draw(on: canvas) }
    let firstLabels = steps.firstIndex { $0.isLabels } ?? steps.count
    let bandedSteps = steps[..<firstLabels]
    BandedDrawing.draw(on: canvas, rows: bands) { band, bandView in
      self.draw(bandedSteps, on: band, drawn: bandView, placeholdersDrawn: false)
    }
    let placeholdersDrawn = bandedSteps.contains { if case .placeholders = $0 { true } else { false } }
    draw(steps[firstLabels...], on: canvas, drawn: view, placeholdersDrawn: placeholdersDrawn)
  }

  /// The whole map as bands and a top, when it is an image and only label layers follow the first label
  /// layer (else nil): the fill and line layers in the bands, then the labels' halos and street names
  /// from outlines `prepare` reads (`PlacedLabelLayer.prepareForBands`); the point labels' letters
  /// (Pango, one thread) on top.
  func bandedDrawing(on canvas: Canvas, bands: [Range<Int>]? = nil) -> BandedMapDrawing? {
    let firstLabels = steps.firstIndex { $0.isLabels } ?? steps.count
    guard canvas.format == .png, steps[firstLabels...].allSatisfy(\.isLabels) else { return nil }
    let outlines = PreparedForBands<[[[PathElement]?]]>()
    let (geometry, labels) = (steps[..<firstLabels], steps[firstLabels...])
    return BandedMapDrawing(
      rows: bands ?? BandedDrawing.bands(pixelHeight: canvas.pixelHeight),
      band: { band, bandView in
        self.draw(geometry, on: band, drawn: bandView, placeholdersDrawn: false)
      },
      prepare: { outlines.value = self.labelLayers.map { $0.prepareForBands(on: canvas) } },
      late: { band, bandView in
        guard let made = outlines.value, !labels.isEmpty else { return }
        self.draw(labels, on: band, drawn: bandView, placeholdersDrawn: true, labelOutlines: made)
      },
      top: { canvas in
        for case .labels(let index) in labels { self.labelLayers[index].drawPointTexts(on: canvas) }
      })
  }

  /// Paints some of the steps; `drawn` (points) is the part of the image drawn.
  /// With `labelOutlines` (each label layer's, `PlacedLabelLayer.prepareForBands`) the label layers draw
  /// their part in a band.
  private func draw(
    _ steps: ArraySlice<Step>, on canvas: Canvas, drawn: PixelRect, placeholdersDrawn: Bool,
    labelOutlines: [[[PathElement]?]] = []
  ) {
    let cr = canvas.context
    let needsDataClip = tiles.contains { !$0.hasData }
    var clipped = false
    var placeholdersDrawn = placeholdersDrawn
    func clip(_ wanted: Bool) {
      guard wanted != clipped else { return }
      if wanted {
        cairo_save(cr)
        clipToData(canvas)
      } else {
        cairo_restore(cr)
      }
      clipped = wanted
      canvas.isClipped = wanted
    }
    for step in steps {
      switch step {
      case .background(let color):
        clip(false)
        canvas.drawing.fillRect(drawn, color: color)
      case .placeholders:
        drawPlaceholders(canvas)
        placeholdersDrawn = true
      case .geometry(let plan):
        clip(needsDataClip && placeholdersDrawn)
        plan.draw(on: canvas, tiles: tiles, view: view, drawn: drawn, ground: ground)
      case .labels(let index):
        // Labels may cross the edge of the data; they were placed inside the image.
        clip(false)
        if labelOutlines.isEmpty {
          labelLayers[index].draw(on: canvas)
        } else {
          labelLayers[index].drawInBand(on: canvas, drawn: drawn, outlines: labelOutlines[index])
        }
      }
    }
    clip(false)
  }

  /// Grey squares where tiles could not be read.
  private func drawPlaceholders(_ canvas: Canvas) {
    let placeholder = Color(red: 0.86, green: 0.86, blue: 0.85)
    for tile in tiles {
      if case .failed = tile.content { canvas.drawing.fillRect(tile.rect, color: placeholder) }
    }
  }

  /// Clips drawing to the tiles that have data (when some do not): a line that reaches the edge of the
  /// data stops square at the tile's edge, as in MapLibre, instead of ending in a round cap.
  private func clipToData(_ canvas: Canvas) {
    let cr = canvas.context
    cairo_new_path(cr)
    for tile in tiles where tile.hasData {
      cairo_rectangle(cr, tile.rect.minX, tile.rect.minY, tile.rect.width, tile.rect.height)
    }
    // Pixel-aligned in images (like MapLibre's stencil), so that neighbouring tiles leave no seam.
    let antialias = cairo_get_antialias(cr)
    if canvas.format == .png { cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE) }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    cairo_clip(cr)
    cairo_set_antialias(cr, antialias)
  }
}

/// A tile layer's features as the style reads them, one `FeatureLayer` per tile and layer name, made on
/// first use. One thread only.
private final class FeatureLayerSources {
  private let tiles: [MapTile]
  private var byName: [String: [FeatureLayer?]] = [:]

  init(tiles: [MapTile]) { self.tiles = tiles }

  func layers(_ name: String) -> [FeatureLayer?] {
    if let found = byName[name] { return found }
    let made = tiles.enumerated().map { index, tile in
      tile.layer(name).map { FeatureLayer(layer: $0, tileIndex: index) }
    }
    byName[name] = made
    return made
  }
}

/// The fill and line layers' plans, worked out on a thread of their own (`start`, then `wait`; a
/// `SideThread`), which first helps collect label candidates. Unchecked: the thread alone touches its
/// `FeatureLayerSources` and writes `plans`, which `wait` reads only after the thread is done; the tiles
/// and the style are read, never changed.
private final class GeometryStyling: @unchecked Sendable {
  private let layers: [(StyleLayer, String)]
  private let sources: FeatureLayerSources
  private let zoom: Double
  private let labels: LabelCandidateQueue
  private var thread: SideThread?
  private var plans: [GeometryLayerPlan?] = []

  init(layers: [(StyleLayer, String)], tiles: [MapTile], zoom: Double, labels: LabelCandidateQueue) {
    self.layers = layers
    sources = FeatureLayerSources(tiles: tiles)
    self.zoom = zoom
    self.labels = labels
  }

  /// Starts the thread (none for a style without fill or line layers). It first helps collect the label
  /// candidates, which the label thread needs as it goes, then styles, which is needed only once the
  /// labels are placed.
  func start() {
    guard !layers.isEmpty else { return }
    thread = SideThread {
      self.labels.help(sources: self.sources.layers)
      self.plans = self.layers.map { layer, name in
        GeometryLayerPlan(layer: layer, sources: self.sources.layers(name), zoom: self.zoom)
      }
    }
  }

  /// Each layer's plan, in order; nil for a layer that draws nothing.
  func wait() -> [GeometryLayerPlan?] {
    thread?.join()
    thread = nil
    return plans
  }
}
