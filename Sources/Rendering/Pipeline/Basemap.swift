import CCairo
import MapMath
import Tiles

/// The basemap stage: what is drawn under the overlays, loaded for the final camera. Raster tiles or vector
/// tiles (drawn with the request's map style) when the request has a tile source, else the built-in vector
/// basemap; the labels of either vector basemap keep clear of the overlays' claims. Without any of these,
/// nothing but the style's background.
struct Basemap {
  var raster: BasemapLayer?
  var vector: VectorBasemapLayer?
  var vectorTiles: VectorMapLayer?
  /// Where a vector tile source's data ends (its declared bounds, in points); outside it the map shows
  /// the style's "no data" colour rather than an empty street map.
  var dataArea: PixelRect?
  var summary: MapLayout.TileSummary

  /// Loads the basemap; `overlayClaims` (points) are what its labels keep clear of. Tiles that cannot be
  /// drawn add warnings (or fail the render when the request requires every tile). Raster tiles that fall
  /// 1:1 on `canvas` (a PNG, its background painted) and are opaque go into it as they are decoded.
  static func load(
    for request: RenderRequest, camera: Camera, overlayClaims: [PixelRect], measuring: MeasuringContext,
    canvas: Canvas, warnings: inout [RenderWarning]
  ) throws(RenderError) -> Basemap {
    if let source = request.tiles {
      if source.content == .vector {
        return try loadVectorTiles(
          from: source, for: request, camera: camera, overlayClaims: overlayClaims, measuring: measuring,
          warnings: &warnings)
      }
      return try loadTiles(from: source, for: request, camera: camera, canvas: canvas, warnings: &warnings)
    }
    guard let builtin = request.basemap else {
      return Basemap(summary: .init(source: "none", zoom: nil, needed: 0, drawn: 0, missing: 0))
    }
    let vector: VectorBasemapLayer
    do {
      vector = try VectorBasemapLayer(
        source: builtin, camera: camera, style: request.style.basemap, fontFamily: request.style.fontFamily,
        obstacles: overlayClaims, measuring: measuring)
    } catch {
      throw RenderError.tileSource("cannot read the built-in basemap: \(error)")
    }
    return Basemap(
      vector: vector, summary: .init(source: "builtin", zoom: nil, needed: 0, drawn: 0, missing: 0))
  }

  /// Draws the basemap over the background.
  func draw(on canvas: Canvas, camera: Camera, style: BasemapStyle) {
    raster?.draw(on: canvas, camera: camera)
    vector?.draw(on: canvas)
    vectorTiles?.draw(on: canvas)
    if let dataArea { Self.drawOutside(dataArea, on: canvas, camera: camera, style: style) }
  }

  /// The basemap of an image as bands and a top (`BandedMapDrawing`), the shading outside the data on
  /// top; nil over raster tiles or when the map cannot be drawn in bands to its end.
  func bandedDrawing(on canvas: Canvas, camera: Camera, style: BasemapStyle) -> BandedMapDrawing? {
    guard canvas.format == .png, raster == nil, vector == nil || vectorTiles == nil else { return nil }
    let map: BandedMapDrawing
    if let vectorTiles {
      guard let banded = vectorTiles.bandedDrawing(on: canvas) else { return nil }
      map = banded
    } else if let vector {
      map = vector.bandedDrawing(on: canvas)
    } else {
      map = BandedMapDrawing(
        rows: BandedDrawing.bands(pixelHeight: canvas.pixelHeight), band: { _, _ in }, top: { _ in })
    }
    let dataArea = dataArea
    return BandedMapDrawing(
      rows: map.rows, band: map.band, prepare: map.prepare, late: map.late,
      top: { top in
        map.top(top)
        if let dataArea { Self.drawOutside(dataArea, on: top, camera: camera, style: style) }
      }, release: map.release)
  }

  /// Shades what lies outside the data's bounds as missing tiles are shaded, with a hairline along the
  /// edge, so that a street map that ends reads as "no data here", not as empty land.
  private static func drawOutside(_ area: PixelRect, on canvas: Canvas, camera: Camera, style: BasemapStyle) {
    let view = PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height)
    guard area.intersects(view), !area.contains(view) else { return }
    let cr = canvas.context
    cairo_save(cr)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    cairo_rectangle(cr, view.x, view.y, view.width, view.height)
    cairo_rectangle(cr, area.x, area.y, area.width, area.height)
    canvas.drawing.setColor(style.placeholder)
    cairo_fill(cr)
    cairo_rectangle(cr, area.x, area.y, area.width, area.height)
    canvas.drawing.setColor(style.placeholderLines)
    cairo_set_line_width(cr, 1)
    cairo_stroke(cr)
    cairo_restore(cr)
  }

  /// The built-in basemap's labels as drawn, in image pixels.
  func labels(scale: Double) -> [BasemapLabel] {
    vector?.drawnLabels(scale: scale) ?? []
  }

  /// Every basemap label as drawn, for the layout JSON, in image pixels.
  func layoutLabels(scale: Double) -> [MapLayout.MapLabel] {
    let builtin = labels(scale: scale).map {
      MapLayout.MapLabel(text: $0.text, layer: $0.kind.rawValue, rect: $0.rect)
    }
    let fromTiles = (vectorTiles?.labels ?? []).map {
      MapLayout.MapLabel(text: $0.text, layer: $0.layer, rect: $0.rect)
    }
    return builtin + fromTiles
  }

  /// A geographic box as a rectangle in points on the camera's image.
  private static func points(of box: GeoBox, camera: Camera) -> PixelRect {
    // On Cairo's 1/256-pixel grid: the same bounds written as E7 integers (PMTiles) or as decimals
    // (MBTiles) differ in their last bits, which must not change an edge pixel's shade.
    func snapped(_ pixel: Double) -> Double { (pixel * 256).rounded() / 256 }
    let northWest = camera.pixel(for: Coordinate(latitude: box.north, longitude: box.west))
    let southEast = camera.pixel(for: Coordinate(latitude: box.south, longitude: box.east))
    let (left, top) = (snapped(northWest.x), snapped(northWest.y))
    let (right, bottom) = (snapped(southEast.x), snapped(southEast.y))
    return PixelRect(
      x: left / camera.scale, y: top / camera.scale, width: (right - left) / camera.scale,
      height: (bottom - top) / camera.scale)
  }

  /// Vector tiles drawn with the request's MapLibre style, their labels clear of `overlayClaims`.
  private static func loadVectorTiles(
    from source: any TileSource, for request: RenderRequest, camera: Camera, overlayClaims: [PixelRect],
    measuring: MeasuringContext, warnings: inout [RenderWarning]
  ) throws(RenderError) -> Basemap {
    guard let style = request.mapStyle else { throw RenderError.noMapStyle(source: "\(source)") }
    if let remote = source as? any PreparedTileSource {
      let tiling: VectorMapTiling
      do throws(VectorMapError) {
        tiling = try VectorMapTiling(camera: camera, zoomRange: source.zoomRange)
      } catch {
        throw RenderError.tileSource("\(error)")
      }
      var seen = Set<TileID>()
      let tiles = tiling.placements.map(\.tile).filter { seen.insert($0).inserted }
      try prepare(remote, tiles, warnings: &warnings)
    }
    let layer: VectorMapLayer
    do throws(VectorMapError) {
      layer = try VectorMapLayer(
        supply: TileSourceVectorTiles(source: source), style: style, camera: camera, obstacles: overlayClaims,
        measuring: measuring, tileCache: request.vectorTileCache)
    } catch {
      throw RenderError.tileSource("\(error)")
    }
    let failed = layer.tiles.filter { if case .failed = $0.content { return true } else { return false } }
    let missing = layer.tiles.filter { if case .missing = $0.content { return true } else { return false } }
    if request.requireAllTiles, !failed.isEmpty || !missing.isEmpty {
      throw RenderError.incompleteBasemap(
        missing: failed.count + missing.count, needed: layer.tiles.count, source: "\(source)")
    }
    warnings += layer.warnings
    return Basemap(
      vectorTiles: layer, dataArea: source.bounds.map { Self.points(of: $0, camera: camera) },
      summary: .init(
        source: "\(source)", zoom: layer.tiling.dataZoom, needed: layer.tiles.count,
        drawn: layer.tiles.count - failed.count - missing.count, missing: failed.count + missing.count))
  }

  /// What a raster source gives a camera: the tile zoom, the range of tiles in view, and those tiles.
  struct RasterPlan {
    let source: any TileSource
    let tileZoom: Int
    let range: TileRange
    /// The range's tiles, each once, sorted.
    let tiles: [TileID]
  }

  /// The raster tiles the camera needs, checked against the limits (none is fetched yet).
  static func planTiles(from source: any TileSource, camera: Camera) throws(RenderError) -> RasterPlan {
    let tileZoom = camera.tileZoom(tileSize: source.tileSize, available: source.zoomRange)
    let range = camera.tileRange(tileZoom: tileZoom)
    // Counted from the range before listing it: a source with only deep zooms could ask for millions.
    let placementCount = range.columns.count * range.rows.count
    guard placementCount <= Snapshotter.maximumTiles else {
      throw RenderError.tileSource(
        "this map would need \(placementCount) tiles at zoom \(tileZoom) from \(source) (its zooms are"
          + " \(source.zoomRange.lowerBound)–\(source.zoomRange.upperBound)); zoom in or use another tile source"
      )
    }
    // BasemapLayer lays the tiles on one Cairo image, and Cairo images are at most 32767 pixels a side (a PNG
    // canvas has the same limit; SVG and PDF canvases do not).
    let mosaicWidth = range.columns.count * source.tileSize
    let mosaicHeight = range.rows.count * source.tileSize
    guard mosaicWidth <= 32_767, mosaicHeight <= 32_767 else {
      throw RenderError.drawing(
        "the basemap would be \(mosaicWidth)×\(mosaicHeight) tile pixels at zoom \(tileZoom), over the limit of"
          + " 32767 a side; make the image smaller")
    }
    return RasterPlan(source: source, tileZoom: tileZoom, range: range, tiles: range.tiles.sorted())
  }

  /// Fetches what a remote source's cache lacks for the plan's tiles.
  static func prepare(_ plan: RasterPlan, warnings: inout [RenderWarning]) throws(RenderError) {
    if let remote = plan.source as? any PreparedTileSource {
      try prepare(remote, plan.tiles, warnings: &warnings)
    }
  }

  private static func loadTiles(
    from source: any TileSource, for request: RenderRequest, camera: Camera, canvas: Canvas,
    warnings: inout [RenderWarning]
  ) throws(RenderError) -> Basemap {
    let plan = try planTiles(from: source, camera: camera)
    try prepare(plan, warnings: &warnings)
    let loaded: LoadedTiles
    do {
      loaded = try loadDrawingDirectly(
        plan.tiles, range: plan.range, loader: TileLoader(source: source, cache: request.tileCache),
        canvas: canvas, camera: camera)
    } catch {
      throw RenderError.tileSource("\(error)")
    }
    var layer = BasemapLayer(
      range: plan.range, tileSize: source.tileSize, images: loaded.images, style: request.style.basemap)
    layer.drawnTiles = Set(loaded.handedOver)
    return try rasterBasemap(layer, plan: plan, loaded: loaded, request: request, warnings: &warnings)
  }

  /// The raster basemap of `layer` once `loaded` holds what became of each of the plan's tiles (their
  /// images let go where the layer holds none): fails where the request requires every tile, else warns
  /// of those missing or undrawable.
  static func rasterBasemap(
    _ layer: BasemapLayer, plan: RasterPlan, loaded: LoadedTiles, request: RenderRequest,
    warnings: inout [RenderWarning]
  ) throws(RenderError) -> Basemap {
    let (source, tiles) = (plan.source, plan.tiles)
    let missing = loaded.missing.count + loaded.failed.count
    if request.requireAllTiles, let first = loaded.failed.first {
      throw RenderError.unusableTiles(
        first: first, unusable: loaded.failed.count, missing: loaded.missing.count, needed: tiles.count,
        source: "\(source)")
    }
    if missing > 0 && request.requireAllTiles {
      throw RenderError.incompleteBasemap(missing: missing, needed: tiles.count, source: "\(source)")
    }
    // A prepared source's own warnings account for the tiles it could not get.
    if !loaded.missing.isEmpty && !(source is any PreparedTileSource) {
      warnings.append(.tilesMissing(count: loaded.missing.count, needed: tiles.count, source: "\(source)"))
    }
    let named = RenderWarning.undrawableTilesNamed
    for failure in loaded.failed.prefix(named) {
      warnings.append(.tileUndrawable(failure, source: "\(source)"))
    }
    if loaded.failed.count > named {
      warnings.append(.moreTilesUndrawable(count: loaded.failed.count - named))
    }
    return Basemap(
      raster: layer,
      summary: .init(
        source: "\(source)", zoom: plan.tileZoom, needed: tiles.count,
        drawn: tiles.count - loaded.missing.count - loaded.failed.count, missing: missing))
  }

  /// Loads the tiles; where they fall 1:1 on the PNG canvas, each opaque one is copied into it as soon as
  /// it is decoded and let go (at 4800 × 3200 the decoded tiles would be 73 MB beside the image).
  static func loadDrawingDirectly(
    _ tiles: [TileID], range: TileRange, loader: TileLoader, canvas: Canvas, camera: Camera
  ) throws -> LoadedTiles {
    guard
      let (target, places) = BasemapLayer.directTarget(
        canvas: canvas, camera: camera, range: range, tileSize: loader.source.tileSize)
    else { return try loader.load(tiles) }
    let tileSize = loader.source.tileSize
    cairo_surface_flush(canvas.surface)
    defer { cairo_surface_mark_dirty(canvas.surface) }
    return try loader.load(tiles) { tile, image in
      guard BasemapLayer.isOpaque(image), let corners = places[tile] else { return false }
      for corner in corners {
        BasemapLayer.copy(image, tileSize: tileSize, into: target, left: corner.x, top: corner.y)
      }
      return true
    }
  }

  /// Fetches what a remote source's cache lacks for `tiles`; its warnings account for what it could not get.
  private static func prepare(
    _ remote: any PreparedTileSource, _ tiles: [TileID], warnings: inout [RenderWarning]
  ) throws(RenderError) {
    do {
      warnings += try remote.prepare(tiles).map(RenderWarning.tilePreparation)
    } catch {
      throw RenderError.tileDownload(error)
    }
  }
}
