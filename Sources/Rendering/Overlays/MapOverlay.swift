import MapMath

/// Something drawn over the map: the places' pins and callouts, the user's position, a plate in a corner.
///
/// A render takes every overlay through the same stages (`Snapshotter`), the overlays in the order they
/// are listed at each step:
/// - **fit**: the camera keeps every overlay's `fitExtents` in view. An overlay with optional parts (the
///   callouts) is then tried on the fitted camera, and the camera is fitted again without the parts that
///   could not be placed (`partsThatDoNotFit`).
/// - **place**, on the final camera, in three rounds: every overlay `reserve`s what must stay free before
///   anything is placed (a mark fixed at its place, a plate's preferred corner); then `place`s itself
///   around everything claimed so far; then may `settle` elsewhere, seeing all that the others claimed.
///   What an overlay claims, the overlays after it and the basemap's labels keep clear of.
/// - **draw**: at each of its `drawLevels`, every overlay at a lower level having drawn first.
/// - **report**: what it drew, into the render's result.
///
/// Everything is in points, the camera's scale divided out. Only `drawLevels` and `draw` are required; the
/// rest does nothing by default.
protocol MapOverlay {
  /// What the camera must keep in view, anchored at coordinates, without the optional parts in `leftOut`.
  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent]
  /// True when the fit should try the overlay on its camera and refit without what does not fit there.
  var hasOptionalParts: Bool { get }
  /// The optional parts that could not be placed on `camera` if nothing else were on the image.
  func partsThatDoNotFit(on camera: Camera) -> Set<Int>

  /// The first round of placement: what must stay free before anything is placed. `others` are the
  /// reservations of the overlays listed before this one.
  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect]
  /// The second round: places the overlay clear of `others` (every other overlay's claims so far) and
  /// returns what it claims in addition to its reservations.
  mutating func place(on camera: Camera, around others: [PixelRect]) -> [PixelRect]
  /// The last round: with every other overlay's claims in `others`, claims that replace all of this
  /// overlay's, or nil to keep them.
  mutating func settle(on camera: Camera, around others: [PixelRect]) -> [PixelRect]?
  /// What the user should know about the overlay as placed, in the order to say it.
  var warnings: [RenderWarning] { get }
  /// Room at the image's edges the fit keeps free for the overlay from the start (the title's band).
  var fitRoom: EdgeRoom { get }
  /// Ways to make the room the overlay found missing once placed (a plate with no free corner: a band at
  /// its edge, a column at its side), any one of which would do; empty when nothing is missing.
  var missingRoom: [EdgeRoom] { get }
  /// How much the overlay could not show as placed: legend rows left out, a plate left over a pin.
  var shortfall: Int { get }

  /// Where the overlay draws, bottom to top; it is asked to draw once per level.
  var drawLevels: [DrawLevel] { get }
  /// Draws the overlay's part at `level`.
  func draw(_ level: DrawLevel, on canvas: Canvas)
  /// Records what was drawn in the result (its layout is complete but for the overlays' parts).
  func report(to result: inout RenderResult)
}

extension MapOverlay {
  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent] { [] }
  var hasOptionalParts: Bool { false }
  func partsThatDoNotFit(on camera: Camera) -> Set<Int> { [] }
  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] { [] }
  mutating func place(on camera: Camera, around others: [PixelRect]) -> [PixelRect] { [] }
  mutating func settle(on camera: Camera, around others: [PixelRect]) -> [PixelRect]? { nil }
  var warnings: [RenderWarning] { [] }
  var fitRoom: EdgeRoom { .none }
  var missingRoom: [EdgeRoom] { [] }
  var shortfall: Int { 0 }
  func report(to result: inout RenderResult) {}
}

/// A layer of the overlays, bottom to top: every overlay at a lower level is drawn before one at a higher
/// level; overlays at one level draw in the order they are listed. The background and the basemap are
/// below them all.
struct DrawLevel: Comparable, Hashable {
  let rank: Int

  /// The accuracy circle around the user's position, under everything else (the app draws it so).
  static let accuracyCircle = DrawLevel(rank: 10)
  /// The places' pins.
  static let pins = DrawLevel(rank: 100)
  /// The places' callouts, over every pin.
  static let callouts = DrawLevel(rank: 200)
  /// The user's position: the blue dot.
  static let userPosition = DrawLevel(rank: 300)
  /// Plates in the image's corners, on top of everything.
  static let plates = DrawLevel(rank: 400)

  static func < (a: DrawLevel, b: DrawLevel) -> Bool { a.rank < b.rank }
}

extension Camera {
  /// Where `coordinate` lands, in points.
  func point(for coordinate: Coordinate) -> PixelPoint {
    let pixel = self.pixel(for: coordinate)
    return PixelPoint(x: pixel.x / scale, y: pixel.y / scale)
  }
}
