import MapMath

/// The cluster markers: fixed at their places on the final camera, so they are reserved before anything is
/// placed (callouts keep clear of them); drawn over the pins, under the callouts. They have no callout.
struct ClusterOverlay: MapOverlay {
  /// One marker, in points.
  struct Marker {
    let point: PixelPoint
    let coordinate: Coordinate
    let count: Int
    /// The listed members' ids (at most `MapLayout.ClusterLayout.maximumListedMembers`).
    let members: [String]
  }

  let markers: [Marker]
  private let layer: ClusterLayer

  init(markers: [Marker], style: Style) {
    self.markers = markers
    layer = ClusterLayer(style: style)
  }

  /// The circle of a marker, border included, in points.
  private func circle(_ marker: Marker) -> PixelRect {
    let r = layer.radius(count: marker.count) + layer.style.borderWidth / 2
    return PixelRect(x: marker.point.x - r, y: marker.point.y - r, width: 2 * r, height: 2 * r)
  }

  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    markers.map(circle)
  }

  var drawLevels: [DrawLevel] { [.pins] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    for marker in markers { layer.draw(count: marker.count, at: marker.point, on: canvas) }
  }

  func report(to result: inout RenderResult) {
    let scale = result.layout.scale
    result.layout.clusters = markers.map { marker in
      MapLayout.ClusterLayout(
        coordinate: marker.coordinate,
        point: PixelPoint(x: marker.point.x * scale, y: marker.point.y * scale),
        rect: circle(marker).scaled(by: scale), count: marker.count, members: marker.members)
    }
  }
}
