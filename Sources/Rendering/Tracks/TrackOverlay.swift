import MapMath

extension DrawLevel {
  /// Tracks and routes: over the basemap, under every pin.
  static let tracks = DrawLevel(rank: 50)
}

/// The tracks and routes of a map (`RenderRequest.tracks`, and the route through the places): cased lines
/// under the pins, simplified for the final camera (`TrackGeometry`). They claim no room: callouts and
/// plates may cover a line, as they cover the basemap. The fit keeps each line's extremes in view (the
/// region holds them too: `CameraFit` adds `MapTrack.extremes` to the places).
struct TrackOverlay: MapOverlay {
  let tracks: [MapTrack]
  private let layer: TrackLineLayer
  /// Per track, its pieces on the final camera, in points.
  private var drawn: [[[PixelPoint]]] = []

  init(tracks: [MapTrack], style: TrackStyle) {
    self.tracks = tracks
    layer = TrackLineLayer(style: style)
  }

  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent] {
    let half = layer.halfWidth
    let rect = PixelRect(x: -half, y: -half, width: 2 * half, height: 2 * half)
    return tracks.flatMap { track in track.extremes.map { OverlayExtent(anchor: $0, rect: rect) } }
  }

  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    let margin = layer.halfWidth + 2
    drawn = tracks.map { TrackGeometry.pieces(of: $0.segments, on: camera, margin: margin) }
    return []
  }

  var drawLevels: [DrawLevel] { [.tracks] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    layer.draw(zip(drawn, tracks).map { ($0, $1.showsDirection) }, on: canvas)
  }

  /// Each line: its id and name, the points drawn, its length and the box of what was drawn (pixels).
  func report(to result: inout RenderResult) {
    let scale = result.layout.scale
    result.layout.tracks = zip(tracks, drawn).map { track, pieces in
      var box: PixelRect?
      for point in pieces.joined() {
        let dot = PixelRect(x: point.x, y: point.y, width: 0, height: 0)
        box = box?.union(dot) ?? dot
      }
      let half = layer.lineWidth(showsDirection: track.showsDirection) / 2 + layer.style.casingWidth
      return MapLayout.TrackLayout(
        id: track.id, name: track.name, pointsDrawn: pieces.reduce(0) { $0 + $1.count },
        lengthKilometers: track.lengthMeters / 1000,
        rect: box?.insetBy(dx: -half, dy: -half).scaled(by: scale))
    }
  }
}
