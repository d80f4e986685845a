import MapMath
import XCTest

@testable import Rendering

/// A test-only overlay: paints one rectangle (points) in one colour at its level and, when asked, claims it
/// before anything is placed.
private struct BlockOverlay: MapOverlay {
  let block: PixelRect
  var claims = true
  var level = DrawLevel(rank: 250)
  static let color = Color(red: 1, green: 0, blue: 1)

  func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    claims ? [block] : []
  }

  var drawLevels: [DrawLevel] { [level] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    canvas.drawing.fillRect(block, color: BlockOverlay.color)
  }
}

/// A test-only overlay that only takes part in the fit: `rect` (points) anchored at `anchor`, and as
/// optional parts, when `optional`, a rectangle that never fits.
private struct FitOverlay: MapOverlay {
  let anchor: Coordinate
  let rect: PixelRect
  var optional = false

  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent] {
    leftOut.contains(0) ? [] : [OverlayExtent(anchor: anchor, rect: rect)]
  }

  var hasOptionalParts: Bool { optional }

  func fitTrial(on camera: Camera, around obstacles: [PixelRect]) -> FitTrial {
    FitTrial(dropped: optional ? [0] : [])
  }

  var drawLevels: [DrawLevel] { [] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {}
}

/// The render as a pipeline over overlays (`MapOverlay`): an overlay plugged in without touching the others
/// takes part in the fit, claims its part of the image (callouts and basemap labels keep clear of it) and
/// draws at its level.
final class OverlayPipelineTests: XCTestCase {
  private let paris = Coordinate(latitude: 48.85, longitude: 2.35)

  /// One place in the middle of a 400×300 image at zoom 12.
  private func centred(_ annotations: [any Annotation]? = nil) -> RenderRequest {
    var request = RenderKit.request(
      annotations ?? [RenderKit.place("paris", paris.latitude, paris.longitude, title: "Paris")], width: 400,
      height: 300)
    request.center = paris
    request.zoom = 12
    return request
  }

  func testCalloutsKeepClearOfWhatAnOverlayClaims() throws {
    let free = try Snapshotter.render(centred())
    let preferred = try XCTUnwrap(free.layout.annotations.first?.callout)
    let blocked = try Snapshotter.render(centred(), adding: [BlockOverlay(block: preferred)])
    let callout = try XCTUnwrap(blocked.layout.annotations.first?.callout, "there is room below the pin")
    XCTAssertFalse(callout.intersects(preferred), "\(callout) covers the claimed \(preferred)")
    XCTAssertEqual(blocked.layout.annotations.first?.pin, free.layout.annotations.first?.pin)
    // A claim over every place a callout could go: the callout is left out, and the render says so.
    let everywhere = PixelRect(x: 0, y: 0, width: 400, height: 300)
    let crowded = try Snapshotter.render(centred(), adding: [BlockOverlay(block: everywhere)])
    XCTAssertNil(crowded.layout.annotations.first?.callout)
    XCTAssertEqual(crowded.layout.droppedCallouts, ["paris"])
    XCTAssertEqual(crowded.warnings, [.calloutsLeftOut(count: 1, total: 1)])
  }

  func testBasemapLabelsKeepClearOfWhatAnOverlayClaims() throws {
    var request = RenderKit.request([], width: 800, height: 400)
    request.basemap = SyntheticBasemap()
    request.center = Coordinate(latitude: 5, longitude: 0)
    request.zoom = 2.5
    let free = try Snapshotter.render(request)
    let label = try XCTUnwrap(free.labels.first)
    let claim = label.rect.insetBy(dx: -2, dy: -2)
    let blocked = try Snapshotter.render(request, adding: [BlockOverlay(block: claim)])
    XCTAssertFalse(blocked.labels.isEmpty)
    for other in blocked.labels {
      XCTAssertFalse(other.rect.intersects(claim), "\(other.text) \(other.rect) covers the claim \(claim)")
      if let dot = other.dot { XCTAssertFalse(dot.intersects(claim), "\(other.text)'s dot") }
    }
    // Unclaimed, the same block is only painted: the label stays where it was.
    let painted = try Snapshotter.render(request, adding: [BlockOverlay(block: claim, claims: false)])
    XCTAssertEqual(painted.labels, free.labels)
  }

  func testAnOverlayDrawsAtItsLevel() throws {
    let user = UserPosition(coordinate: Coordinate(latitude: 48.845, longitude: 2.33))
    var request = centred()
    request.user = user
    request.style.basemap.attribution = "Test tiles"
    let free = try Snapshotter.render(request)
    let layout = free.layout
    let place = try XCTUnwrap(layout.annotations.first)
    let head = RenderKit.headRect(at: place.point, scale: 1)
    let callout = try XCTUnwrap(place.callout)
    let dot = try XCTUnwrap(layout.user?.point)
    let plate = try XCTUnwrap(free.attribution)
    let samples: [(name: String, x: Double, y: Double)] = [
      ("map", 20, 20), ("pin head", head.midX, head.midY), ("callout", callout.minX + 4, callout.midY),
      ("user dot", dot.x, dot.y), ("attribution", plate.minX + 2, plate.midY),
    ]
    // Painting the whole image (claiming nothing, so everything is placed as before) at each level: what it
    // covers is what is drawn below it.
    let expectations: [(rank: Int, covered: Set<String>)] = [
      (50, ["map"]), (250, ["map", "pin head", "callout"]),
      (350, ["map", "pin head", "callout", "user dot"]),
      (450, ["map", "pin head", "callout", "user dot", "attribution"]),
    ]
    for (rank, covered) in expectations {
      let block = BlockOverlay(
        block: PixelRect(x: 0, y: 0, width: 400, height: 300), claims: false, level: DrawLevel(rank: rank))
      let result = try Snapshotter.render(request, adding: [block])
      XCTAssertEqual(result.layout, layout, "level \(rank): nothing moved")
      let image = try RenderKit.decode(result)
      for sample in samples {
        let pixel = RGBA(image, Int(sample.x), Int(sample.y))
        let magenta = pixel.distance(to: BlockOverlay.color) <= 2
        XCTAssertEqual(magenta, covered.contains(sample.name), "level \(rank), \(sample.name): \(pixel)")
      }
    }
  }

  func testAnOverlaysExtentsTakePartInTheFit() throws {
    var request = RenderKit.request(
      [RenderKit.place("a", 48.85, 2.35), RenderKit.place("b", 48.86, 2.36)], width: 400, height: 300)
    request.showCallouts = false
    let plain = try Snapshotter.render(request)
    // 300 points to the right of place b, the eastern one: the map zooms out until they fit beside it.
    let wide = FitOverlay(
      anchor: Coordinate(latitude: 48.86, longitude: 2.36),
      rect: PixelRect(x: 0, y: -5, width: 300, height: 10))
    let fitted = try Snapshotter.render(request, adding: [wide])
    XCTAssertLessThan(fitted.layout.camera.zoom, plain.layout.camera.zoom)
    let b = try XCTUnwrap(fitted.layout.annotations.first { $0.id == "b" })
    XCTAssertLessThanOrEqual(
      b.point.x + 300, 400 - request.padding + 1e-9, "the extent is inside the padding")
    // An optional part that never fits is left out by the refit: the camera is the one without it.
    var huge = FitOverlay(anchor: wide.anchor, rect: PixelRect(x: 0, y: -5, width: 5000, height: 10))
    huge.optional = true
    let refitted = try Snapshotter.render(request, adding: [huge])
    XCTAssertEqual(refitted.layout.camera, plain.layout.camera)
    huge.optional = false
    XCTAssertEqual(
      try Snapshotter.render(request, adding: [huge]).layout.camera.zoom, 0, "kept, it zooms out")
  }
}
