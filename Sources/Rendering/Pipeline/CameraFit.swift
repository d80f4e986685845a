import MapMath

/// The fit stage: the camera for the request's region (its places and the user, or a given centre and
/// span) that keeps every overlay's extents in view, fitted again without the optional parts (callouts)
/// that could not be placed, so the map is not zoomed out for nothing, and with the room taken by those
/// that could be placed only inside the padding, so that every callout drawn keeps the padding.
enum CameraFit {
  /// How many times the fit drops what does not fit, makes room for what was placed inside the padding,
  /// and fits again, at most.
  static let refits = 3

  /// The deepest zoom a map is fitted at: vector basemaps (built-in or tiles) stay crisp at any zoom.
  static let maximumZoom = 22.0
  /// Without a tile source (the built-in basemap, or nothing), as before vector tiles.
  static let maximumBuiltinZoom = 19.0

  /// The camera, and a warning when raster tiles kept it from the zoom the places would fit at.
  /// `placesRegion` is the seed's region of the places and tracks (`PlacesGeometry`), computed once by the
  /// caller; `room` is kept free of the places at the image's edges (the plates' room).
  static func camera(
    for request: RenderRequest, placesRegion: Region?, overlays: [any MapOverlay], room: EdgeRoom = .none
  )
    throws(RenderError) -> (camera: Camera, warnings: [RenderWarning])
  {
    func camera(
      for request: RenderRequest, overlays: [any MapOverlay], limits: ClosedRange<Double>, room: EdgeRoom
    ) throws(RenderError) -> Camera {
      try CameraFit.camera(
        for: request, placesRegion: placesRegion, overlays: overlays, limits: limits, room: room)
    }
    guard let tiles = request.tiles else {
      return (try camera(for: request, overlays: overlays, limits: 0...maximumBuiltinZoom, room: room), [])
    }
    guard tiles.content == .raster else {
      return (try camera(for: request, overlays: overlays, limits: 0...maximumZoom, room: room), [])
    }
    let cap = min(maximumBuiltinZoom, Double(tiles.zoomRange.upperBound) + Snapshotter.maximumOverzoom)
    let capped = try camera(for: request, overlays: overlays, limits: 0...cap, room: room)
    guard request.zoom == nil, cap < maximumBuiltinZoom, capped.zoom >= cap - 1e-9 else {
      return (capped, [])
    }
    let wanted = try camera(
      for: request, overlays: overlays, limits: 0...maximumBuiltinZoom, room: room)
    guard wanted.zoom > capped.zoom + 1e-9 else { return (capped, []) }
    return (capped, [.zoomCapped(wanted: wanted.zoom, drawn: capped.zoom, source: "\(tiles)")])
  }

  /// The padding the fit keeps around what it shows, and the callouts from the image's edges: at most a
  /// quarter of the smaller side, so that a small image still has room for the map.
  static func padding(for request: RenderRequest) -> Double {
    min(request.padding, min(request.size.width, request.size.height) / 4)
  }

  /// Whole zooms for raster tiles (drawn 1:1, crisp), any zoom for vector basemaps, unless asked.
  static func snapping(for request: RenderRequest) -> ZoomSnapping {
    if let asked = request.zoomSnapping { return asked }
    guard let tiles = request.tiles else { return .fractional }
    return tiles.content == .raster ? .integer : .fractional
  }

  private static func camera(
    for request: RenderRequest, placesRegion: Region?, overlays: [any MapOverlay],
    limits: ClosedRange<Double>, room: EdgeRoom
  ) throws(RenderError) -> Camera {
    let snapping = snapping(for: request)
    var region = placesRegion
    if let spanMeters = request.spanMeters, let center = request.center ?? region?.center {
      region = Region.around(center, latitudinalMeters: spanMeters, longitudinalMeters: spanMeters)
    } else if region == nil, let center = request.center {
      region = Region.around(center)
    }
    guard let region else { throw RenderError.nothingToShow }
    // A given span is shown as it is, whatever is drawn around the places.
    let fitsOverlays = request.spanMeters == nil
    let padding = padding(for: request)
    // The plates' room moves and shrinks the fitted part of the image; a given centre or zoom stays as given.
    let extra =
      fitsOverlays && request.center == nil && request.zoom == nil ? room.beyond(padding: padding) : .none
    let fittedSize = PixelSize(
      width: max(request.size.width - extra.left - extra.right, 1),
      height: max(request.size.height - extra.top - extra.bottom, 1))
    // Per overlay: the optional parts left out, and the room kept for parts placed inside the padding.
    typealias Trials = (leftOut: [Set<Int>], room: [[Int: OverlayExtent]])
    func fit(_ trials: Trials, snapping: ZoomSnapping = snapping) -> Camera {
      var extents: [OverlayExtent] = []
      if fitsOverlays {
        for (index, overlay) in overlays.enumerated() {
          extents += overlay.fitExtents(leavingOut: trials.leftOut[index])
          extents += trials.room[index].keys.sorted().compactMap { trials.room[index][$0] }
        }
      }
      let fitted = Camera.fitting(
        region: region, size: fittedSize, scale: request.scale, overlays: extents, padding: padding,
        snapping: snapping, zoomLimits: limits, center: request.center, zoom: request.zoom)
      return extra == .none ? fitted : Camera.widened(fitted, to: request.size, extra: extra)
    }
    let untried: Trials = (
      [Set<Int>](repeating: [], count: overlays.count),
      [[Int: OverlayExtent]](repeating: [:], count: overlays.count)
    )
    let first = fit(untried)
    guard request.zoom == nil, fitsOverlays, overlays.contains(where: \.hasOptionalParts) else {
      return first
    }
    func refit(_ start: Camera, snapping: ZoomSnapping) -> (camera: Camera, trials: Trials) {
      var camera = start
      var trials = untried
      for _ in 0..<refits {
        var changed = false
        let reserved = OverlayPlacement.reservations(of: overlays, on: camera)
        for (index, overlay) in overlays.enumerated() where overlay.hasOptionalParts {
          let trial = overlay.fitTrial(on: camera, around: reserved.rects(except: index))
          let more = trials.leftOut[index].union(trial.dropped)
          if more != trials.leftOut[index] {
            trials.leftOut[index] = more
            changed = true
          }
          // The room only grows (what a part took at each zoom tried), so the rounds settle.
          var room = trials.room[index].filter { !more.contains($0.key) }
          for (part, extent) in trial.beyondPadding where !more.contains(part) {
            let kept = room[part].map {
              OverlayExtent(anchor: extent.anchor, rect: $0.rect.union(extent.rect))
            }
            room[part] = kept ?? extent
          }
          if room != trials.room[index] {
            trials.room[index] = room
            changed = true
          }
        }
        if !changed { break }
        camera = fit(trials, snapping: snapping)
      }
      return (camera, trials)
    }
    let refitted = refit(first, snapping: snapping)
    guard snapping == .fractional else { return refitted.camera }
    // What fits depends on the zoom: the fractional rounds can keep a wide callout that whole zooms drop, and
    // end farther out than whole zooms would. The tightest fit is never looser than that.
    let whole = refit(fit(untried, snapping: .integer), snapping: .integer)
    guard whole.camera.zoom > refitted.camera.zoom else { return refitted.camera }
    let tighter = fit(whole.trials)
    return tighter.zoom >= whole.camera.zoom ? tighter : whole.camera
  }
}
