import MapMath

/// The fit and place stages together, for plates that find no free corner: the overlays are fitted with
/// the room they keep from the start (the title's band) and placed; when a plate could not show all of
/// itself (a legend cut short, a plate left over a pin), the render is fitted again with each way of
/// making room for it (a band, a column) and placed again. A way is kept only when everything then shows
/// and the map loses at most one zoom level, the one with the deepest zoom; otherwise the first layout
/// stays (a legend cut short says so; a much smaller map would not).
enum PlateRoomFit {
  /// The camera the overlays were placed on, the fit's warnings, and everything they claim.
  struct Outcome {
    var camera: Camera
    var warnings: [RenderWarning]
    var claims: [PixelRect]
  }

  /// The most zoom a way of making room may cost: one level (the map half as large) at most, or the
  /// plate is better cut short than the map made small.
  static let largestZoomLoss = 1.0

  /// Past this many places, no room is tried: each way costs a fit and a placement of them all, and a
  /// carpet of pins leaves no corner free at any zoom that loses at most one level.
  static let maximumPlacesForRoom = 20_000

  /// Places `overlays` on the camera `fitted` found (`PlacesFit`, which kept the plates' room), making
  /// room for plates as above; `numbering` is left as the kept layout numbered the places. Cluster markers
  /// are made for the fitted camera alone, so a clustered map is placed as fitted.
  static func fitAndPlace(
    _ overlays: inout [any MapOverlay], for request: RenderRequest, numbering: PlaceNumbering,
    fitted: PlacesFit.Fitted
  ) throws(RenderError) -> Outcome {
    let room = overlays.reduce(EdgeRoom.none) { $0.union($1.fitRoom) }
    var best = Outcome(
      camera: fitted.camera, warnings: fitted.warnings,
      claims: OverlayPlacement.place(&overlays, on: fitted.camera))
    let shortfall = overlays.reduce(0) { $0 + $1.shortfall }
    let options = overlays.map(\.missingRoom)
    guard shortfall > 0, options.contains(where: { !$0.isEmpty }), !fitted.clustered,
      (request.places?.coordinates.count ?? request.annotations.count) <= maximumPlacesForRoom
    else { return best }
    var bestOverlays = overlays
    var bestNumbers = numbering.indices
    var improved = false
    // The k-th way for every plate that asks (its last way when it has fewer), each plate's strip held
    // for it so that callouts keep out of it.
    for choice in 0..<(options.map(\.count).max() ?? 0) {
      func ways(_ options: [[EdgeRoom]]) -> [EdgeRoom?] {
        options.map { $0.isEmpty ? nil : $0[min(choice, $0.count - 1)] }
      }
      var chosen = ways(options)
      var trial = overlays
      var refitted: (camera: Camera, warnings: [RenderWarning])
      var claims: [PixelRect]
      // On the new camera a plate may grow (a legend names more places): once more with its new size.
      var attempt = 0
      repeat {
        let wanted = chosen.reduce(room) { $0.union($1 ?? .none) }
        trial = overlays
        refitted = try CameraFit.camera(
          for: request, placesRegion: fitted.region, overlays: trial, room: wanted)
        let held = chosen.enumerated().flatMap { owner, way in
          (way?.strips(in: request.size) ?? []).map { (owner: owner, rect: $0) }
        }
        claims = OverlayPlacement.place(&trial, on: refitted.camera, holding: held)
        attempt += 1
        let grown = ways(trial.map(\.missingRoom))
        chosen = zip(chosen, grown).map { old, new in
          guard let new else { return old }
          return (old ?? .none).union(new)
        }
      } while attempt < 2 && trial.contains(where: { $0.shortfall > 0 })
      guard trial.allSatisfy({ $0.shortfall == 0 }),
        refitted.camera.zoom >= fitted.camera.zoom - largestZoomLoss,
        !improved || refitted.camera.zoom > best.camera.zoom
      else { continue }
      best = Outcome(camera: refitted.camera, warnings: refitted.warnings, claims: claims)
      bestOverlays = trial
      bestNumbers = numbering.indices
      improved = true
    }
    overlays = bestOverlays
    // The trials numbered the places on their own cameras: the kept layout's numbers again.
    numbering.assign(bestNumbers)
    return best
  }
}
