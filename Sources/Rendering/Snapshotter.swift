import Foundation
import MapMath
import Tiles

/// The rendering facade: a request in, a finished image and its layout out (DESIGN.md §2).
public enum Snapshotter {
  /// The largest image, in pixels, that mymap draws.
  public static let maximumPixels = 100_000_000
  /// How far past a tile source's top zoom the fitted camera may go (tiles drawn at most 4× enlarged).
  public static let maximumOverzoom = 2.0
  /// The most tiles one map may draw; beyond it the tile source's zoom range does not suit the camera.
  public static let maximumTiles = 4096

  public static func render(_ request: RenderRequest) throws(RenderError) -> RenderResult {
    try validate(request)
    var warnings: [RenderWarning] = []
    let measuring = MeasuringContext()
    let overlays = OverlayLayout(
      annotations: request.annotations, style: request.style, showCallouts: request.showCallouts,
      measuring: measuring)
    let userLayer = UserDotLayer(style: request.style.userDot)
    let camera = try fitCamera(request, overlays: overlays, userLayer: userLayer)

    let sourceAttribution = request.tiles.map { $0.attribution } ?? request.basemap?.attribution
    let attributionText = request.style.basemap.attribution ?? sourceAttribution
    var attribution = attributionText.flatMap { text -> AttributionLayer? in
      text.isEmpty
        ? nil
        : AttributionLayer(
          text: text, style: request.style.attribution, fontFamily: request.style.fontFamily,
          size: camera.size,
          measuring: measuring)
    }
    var obstacles = attribution.map { [$0.plate] } ?? []
    let userPoint = request.user.map { points(camera.pixel(for: $0.coordinate), camera) }
    if let userPoint { obstacles.append(userLayer.extent.offsetBy(dx: userPoint.x, dy: userPoint.y)) }
    let (placed, dropped) = overlays.place(on: camera, obstacles: obstacles)
    // Callouts avoid the plate, but a pin is where its place is: when one stands under the plate, the plate
    // moves to the first corner where it covers nothing drawn.
    if let current = attribution {
      let drawn =
        placed.map { overlays.pin.extent.offsetBy(dx: $0.point.x, dy: $0.point.y) }
        + placed.compactMap { $0.callout?.extent } + Array(obstacles.dropFirst())
      if drawn.contains(where: { $0.intersects(current.plate) }),
        let free = AttributionLayer.Corner.allCases.dropFirst().lazy.map({
          current.moved(to: $0, size: camera.size)
        })
        .first(where: { candidate in !drawn.contains { $0.intersects(candidate.plate) } })
      {
        attribution = free
        obstacles[0] = free.plate
      }
    }
    if !dropped.isEmpty {
      warnings.append(
        .calloutsLeftOut(count: dropped.count, total: overlays.callouts.compactMap { $0 }.count))
    }
    if overlays.unknownGlyphs > 0 {
      warnings.append(.glyphsMissing(count: overlays.unknownGlyphs))
    }

    // The basemap's labels avoid everything drawn over the map, which is placed first and knows nothing of
    // them.
    var overlayRects = obstacles
    for item in placed {
      overlayRects.append(overlays.pin.extent.offsetBy(dx: item.point.x, dy: item.point.y))
      if let callout = item.callout { overlayRects.append(callout.extent) }
    }
    let basemap = try loadBasemap(
      request, camera: camera, overlayRects: overlayRects, measuring: measuring, warnings: &warnings)

    let canvas: Canvas
    do {
      canvas = try Canvas(
        format: request.format, pixelWidth: Int(camera.pixelSize.width),
        pixelHeight: Int(camera.pixelSize.height),
        scale: request.scale)
    } catch {
      throw RenderError.drawing("\(error)")
    }
    canvas.drawing.fillRect(
      PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height),
      color: request.style.basemap.background)
    basemap.layer?.draw(on: canvas, camera: camera)
    basemap.vector?.draw(on: canvas)

    // North first, so that southern pins overlap northern ones.
    let drawOrder = placed.sorted { a, b in
      let first = request.annotations[a.index].coordinate
      let second = request.annotations[b.index].coordinate
      if first.latitude != second.latitude { return first.latitude > second.latitude }
      if first.longitude != second.longitude { return first.longitude < second.longitude }
      return a.index < b.index
    }
    PinLayer(style: request.style.pin).draw(at: drawOrder.map(\.point), on: canvas)
    let calloutLayer = CalloutLayer(style: request.style.callout)
    for item in placed {
      if let placement = item.callout, let content = overlays.callouts[item.index] {
        calloutLayer.draw(content, at: placement, on: canvas)
      }
    }
    if let user = request.user, let userPoint {
      let accuracyRadius = user.accuracy.map {
        $0 / WebMercator.metersPerPixel(latitude: user.coordinate.latitude, zoom: camera.zoom)
      }
      userLayer.draw(at: userPoint, accuracyRadius: accuracyRadius, on: canvas)
    }
    attribution?.draw(on: canvas)

    let data: Data
    do {
      data = try canvas.finish()
    } catch {
      throw RenderError.drawing("\(error)")
    }
    let layout = makeLayout(
      request, camera: camera, overlays: overlays, placed: placed, dropped: dropped, tiles: basemap.summary)
    return RenderResult(
      data: [UInt8](data), layout: layout, warnings: warnings,
      labels: basemap.vector?.drawnLabels(scale: camera.scale) ?? [],
      attribution: attribution?.plate.scaled(by: camera.scale))
  }

  private static func validate(_ request: RenderRequest) throws(RenderError) {
    let size = request.size
    guard size.width >= 1, size.height >= 1, size.width.isFinite, size.height.isFinite,
      size.width == size.width.rounded(), size.height == size.height.rounded()
    else {
      throw RenderError.invalidSize(
        "image size must be whole numbers of at least 1×1 (got \(size.width)×\(size.height))")
    }
    guard request.scale >= 0.5, request.scale <= 4 else {
      throw RenderError.invalidSize("scale must be between 0.5 and 4 (got \(request.scale))")
    }
    let pixelWidth = (size.width * request.scale).rounded()
    let pixelHeight = (size.height * request.scale).rounded()
    guard pixelWidth * pixelHeight <= Double(maximumPixels) else {
      throw RenderError.invalidSize(
        // %.0f, not Int(_:), which traps on sizes past Int.max.
        "a \(String(format: "%.0f", pixelWidth))×\(String(format: "%.0f", pixelHeight)) image is over the limit"
          + " of 100 megapixels")
    }
    // Cairo's image surfaces (and so PNG output) end at 32767 pixels a side; SVG and PDF do not.
    if request.format == .png && max(pixelWidth, pixelHeight) > 32_767 {
      throw RenderError.invalidSize(
        "a PNG can be at most 32767 pixels a side (this one would be \(String(format: "%.0f", pixelWidth))×"
          + "\(String(format: "%.0f", pixelHeight))); make it smaller or write SVG or PDF")
    }
    guard request.padding.isFinite, request.padding >= 0 else {
      throw RenderError.invalidSize("the padding must be a number of points ≥ 0 (got \(request.padding))")
    }
    try validateValues(request)
    if let tiles = request.tiles {
      // A source is anyone's type: its numbers go into the camera's and the mosaic's integer arithmetic.
      guard TileLimits.isUsableTileSize(tiles.tileSize) else {
        throw RenderError.tileSource(
          TileSourceError.badTileSize(
            "\(tiles)", declaredIn: "its tile size", value: String(tiles.tileSize)
          ).description)
      }
      guard tiles.zoomRange.lowerBound >= 0, tiles.zoomRange.upperBound <= 30 else {
        throw RenderError.tileSource(
          "tile source \(tiles) has zooms \(tiles.zoomRange.lowerBound)–\(tiles.zoomRange.upperBound);"
            + " zooms go from 0 to 30")
      }
    }
  }

  /// The request's coordinates and numbers: all finite and in range, so that the camera's pixels are too.
  private static func validateValues(_ request: RenderRequest) throws(RenderError) {
    func check(_ coordinate: Coordinate, _ what: @autoclosure () -> String) throws(RenderError) {
      guard abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180 else {
        throw RenderError.invalidValue(
          "\(what()) is not a coordinate (latitude \(coordinate.latitude), longitude \(coordinate.longitude))"
        )
      }
    }
    for annotation in request.annotations {
      try check(annotation.coordinate, "the place \(annotation.identifier.prefix(80))")
    }
    if let user = request.user {
      try check(user.coordinate, "the user's position")
      if let accuracy = user.accuracy, !(accuracy.isFinite && accuracy >= 0) {
        throw RenderError.invalidValue("the user's accuracy must be a number of metres ≥ 0 (got \(accuracy))")
      }
    }
    if let center = request.center { try check(center, "the centre") }
    if let zoom = request.zoom, !(0...30).contains(zoom) {
      throw RenderError.invalidValue("the zoom must be between 0 and 30 (got \(zoom))")
    }
    if let span = request.spanMeters, !(span.isFinite && span > 0) {
      throw RenderError.invalidValue("the span must be a number of metres above 0 (got \(span))")
    }
  }

  /// The camera: the seed's region for the places (and the user), fitted with every drawn overlay; refitted
  /// without the callouts that could not be placed, so the map is not zoomed out for nothing.
  private static func fitCamera(
    _ request: RenderRequest, overlays: OverlayLayout, userLayer: UserDotLayer
  ) throws(RenderError) -> Camera {
    let coordinates = request.annotations.map(\.coordinate)
    var region = Region.forAnnotations(coordinates, user: request.user?.coordinate)
    if let spanMeters = request.spanMeters, let center = request.center ?? region?.center {
      region = Region.around(center, latitudinalMeters: spanMeters, longitudinalMeters: spanMeters)
    } else if region == nil, let center = request.center {
      region = Region.around(center)
    }
    guard let region else { throw RenderError.nothingToShow }
    var limits = 0.0...19.0
    if let tiles = request.tiles {
      limits = 0...min(19, Double(tiles.zoomRange.upperBound) + maximumOverzoom)
    }
    let userExtent = request.user.map { [OverlayExtent(anchor: $0.coordinate, rect: userLayer.extent)] } ?? []
    let overlayCount = request.spanMeters == nil ? overlays.annotations.count : 0
    // At most a quarter of the smaller side, so that a small image still has room for the map.
    let padding = min(request.padding, min(request.size.width, request.size.height) / 4)
    func fit(withCallouts: Set<Int>?, snapping: ZoomSnapping = request.zoomSnapping) -> Camera {
      Camera.fitting(
        region: region, size: request.size, scale: request.scale,
        overlays: request.spanMeters == nil ? overlays.extents(withCallouts: withCallouts) + userExtent : [],
        padding: padding, snapping: snapping, zoomLimits: limits, center: request.center,
        zoom: request.zoom)
    }
    let first = fit(withCallouts: nil)
    guard request.zoom == nil, overlayCount > 0 else { return first }
    func refit(_ start: Camera, snapping: ZoomSnapping) -> (camera: Camera, kept: Set<Int>) {
      var camera = start
      var kept = Set(0..<overlayCount)
      for _ in 0..<3 {
        let (_, dropped) = overlays.place(on: camera, obstacles: [])
        let stillKept = kept.subtracting(dropped)
        if stillKept == kept { break }
        kept = stillKept
        camera = fit(withCallouts: kept, snapping: snapping)
      }
      return (camera, kept)
    }
    let refitted = refit(first, snapping: request.zoomSnapping)
    guard request.zoomSnapping == .fractional else { return refitted.camera }
    // Which callouts fit depends on the zoom: the fractional rounds can keep a wide callout that whole zooms
    // drop, and end farther out than whole zooms would. The tightest fit is never looser than that.
    let whole = refit(fit(withCallouts: nil, snapping: .integer), snapping: .integer)
    guard whole.camera.zoom > refitted.camera.zoom else { return refitted.camera }
    let tighter = fit(withCallouts: whole.kept)
    return tighter.zoom >= whole.camera.zoom ? tighter : whole.camera
  }

  private struct Basemap {
    var layer: BasemapLayer?
    var vector: VectorBasemapLayer?
    var summary: MapLayout.TileSummary
  }

  /// The raster tiles, else the built-in vector basemap (its labels avoiding `overlayRects`), else nothing.
  private static func loadBasemap(
    _ request: RenderRequest, camera: Camera, overlayRects: [PixelRect], measuring: MeasuringContext,
    warnings: inout [RenderWarning]
  ) throws(RenderError) -> Basemap {
    guard let source = request.tiles else {
      guard let builtin = request.basemap else {
        return Basemap(
          layer: nil, summary: .init(source: "none", zoom: nil, needed: 0, drawn: 0, missing: 0))
      }
      let vector: VectorBasemapLayer
      do {
        vector = try VectorBasemapLayer(
          source: builtin, camera: camera, style: request.style.basemap, fontFamily: request.style.fontFamily,
          obstacles: overlayRects, measuring: measuring)
      } catch {
        throw RenderError.tileSource("cannot read the built-in basemap: \(error)")
      }
      return Basemap(
        layer: nil, vector: vector,
        summary: .init(source: "builtin", zoom: nil, needed: 0, drawn: 0, missing: 0))
    }
    let tileZoom = camera.tileZoom(tileSize: source.tileSize, available: source.zoomRange)
    let range = camera.tileRange(tileZoom: tileZoom)
    // Counted from the range before listing it: a source with only deep zooms could ask for millions.
    let placementCount = range.columns.count * range.rows.count
    guard placementCount <= maximumTiles else {
      throw RenderError.tileSource(
        "this map would need \(placementCount) tiles at zoom \(tileZoom) from \(source) (its zooms are"
          + " \(source.zoomRange.lowerBound)–\(source.zoomRange.upperBound)); zoom in or use another tile source"
      )
    }
    let tiles = range.tiles.sorted()
    // BasemapLayer lays the tiles on one Cairo image, and Cairo images are at most 32767 pixels a side (a PNG
    // canvas has the same limit; SVG and PDF canvases do not).
    let mosaicWidth = range.columns.count * source.tileSize
    let mosaicHeight = range.rows.count * source.tileSize
    guard mosaicWidth <= 32_767, mosaicHeight <= 32_767 else {
      throw RenderError.drawing(
        "the basemap would be \(mosaicWidth)×\(mosaicHeight) tile pixels at zoom \(tileZoom), over the limit of"
          + " 32767 a side; make the image smaller")
    }
    let prepared = source as? any PreparedTileSource
    if let remote = prepared {
      do {
        warnings += try remote.prepare(tiles).map(RenderWarning.tilePreparation)
      } catch {
        throw RenderError.tileDownload(error)
      }
    }
    let loaded: LoadedTiles
    do {
      loaded = try TileLoader(source: source, cache: request.tileCache).load(tiles)
    } catch {
      throw RenderError.tileSource("\(error)")
    }
    let missing = loaded.missing.count + loaded.failed.count
    if request.requireAllTiles, let first = loaded.failed.first {
      throw RenderError.unusableTiles(
        first: first, unusable: loaded.failed.count, missing: loaded.missing.count, needed: tiles.count,
        source: "\(source)")
    }
    if missing > 0 && request.requireAllTiles {
      throw RenderError.incompleteBasemap(missing: missing, needed: tiles.count, source: "\(source)")
    }
    if !loaded.missing.isEmpty && prepared == nil {
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
      layer: BasemapLayer(
        range: range, tileSize: source.tileSize, images: loaded.images, style: request.style.basemap),
      summary: .init(
        source: "\(source)", zoom: tileZoom, needed: tiles.count, drawn: loaded.images.count, missing: missing
      ))
  }

  private static func points(_ pixel: PixelPoint, _ camera: Camera) -> PixelPoint {
    PixelPoint(x: pixel.x / camera.scale, y: pixel.y / camera.scale)
  }

  private static func makeLayout(
    _ request: RenderRequest, camera: Camera, overlays: OverlayLayout, placed: [OverlayLayout.Placed],
    dropped: [Int], tiles: MapLayout.TileSummary
  ) -> MapLayout {
    let scale = camera.scale
    let annotations = placed.map { item -> MapLayout.AnnotationLayout in
      let annotation = request.annotations[item.index]
      return MapLayout.AnnotationLayout(
        id: annotation.identifier, title: annotation.title, subtitle: annotation.subtitle,
        coordinate: annotation.coordinate,
        point: PixelPoint(x: item.point.x * scale, y: item.point.y * scale),
        pin: overlays.pin.extent.offsetBy(dx: item.point.x, dy: item.point.y).scaled(by: scale),
        callout: item.callout?.extent.scaled(by: scale))
    }
    let user = request.user.map { user in
      MapLayout.UserLayout(coordinate: user.coordinate, point: camera.pixel(for: user.coordinate))
    }
    return MapLayout(
      width: Int(camera.pixelSize.width), height: Int(camera.pixelSize.height), scale: scale,
      format: request.format, camera: camera, bounds: camera.bounds, tiles: tiles, annotations: annotations,
      user: user, droppedCallouts: dropped.map { request.annotations[$0].identifier })
  }
}
