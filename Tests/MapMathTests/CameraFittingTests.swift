import MapMath
import TestSupport
import XCTest

/// `Camera.fitting`: the region and every pin and callout inside the image minus padding, at the largest zoom.
///
/// Everything is checked from the outside: the fitted camera projects each overlay with `pixel(for:)` (ARCHITECTURE.md
/// §3) and the test measures where the rectangles land.
final class CameraFittingTests: XCTestCase {
  /// A pin: 16 × 40 points standing on its anchor (the seed's pin image is about this size).
  static let pin = PixelRect(x: -8, y: -40, width: 16, height: 40)
  /// A callout above the pin, centred on the anchor.
  static let callout = PixelRect(x: -70, y: -92, width: 140, height: 48)

  static let parisLandmarks = [
    Coordinate(latitude: 48.8584, longitude: 2.2945),  // Eiffel Tower
    Coordinate(latitude: 48.8606, longitude: 2.3376),  // Louvre
    Coordinate(latitude: 48.8530, longitude: 2.3499),  // Notre-Dame
    Coordinate(latitude: 48.8867, longitude: 2.3431),  // Sacré-Cœur
  ]
  static let pacificTrip = [Sample.auckland, Sample.honolulu, Sample.petropavlovsk]
  static let fijiSamoa = [Sample.suva, Sample.nadi, Sample.apia]

  private static func pins(_ coordinates: [Coordinate], callouts: Bool = false) -> [OverlayExtent] {
    coordinates.flatMap { coordinate in
      [OverlayExtent(anchor: coordinate, rect: pin)]
        + (callouts ? [OverlayExtent(anchor: coordinate, rect: callout)] : [])
    }
  }

  private struct Scenario {
    let name: String
    let coordinates: [Coordinate]
    var callouts = false
  }

  private let scenarios = [
    Scenario(name: "Paris", coordinates: parisLandmarks),
    Scenario(name: "Paris with callouts", coordinates: parisLandmarks, callouts: true),
    Scenario(name: "one place", coordinates: [Sample.paris]),
    Scenario(name: "one place with callout", coordinates: [Sample.cupertino], callouts: true),
    Scenario(name: "Pacific", coordinates: pacificTrip),
    Scenario(name: "Fiji and Samoa", coordinates: fijiSamoa, callouts: true),
    Scenario(name: "Sydney to Paris", coordinates: [Sample.sydney, Sample.paris]),
  ]

  func testIntegerZoomIsTheLargestThatFits() throws {
    for scenario in scenarios {
      for (size, padding) in [
        (PixelSize(width: 800, height: 600), 20.0), (PixelSize(width: 320, height: 480), 0),
      ] {
        let region = try XCTUnwrap(Region.forAnnotations(scenario.coordinates, user: nil))
        let overlays = Self.pins(scenario.coordinates, callouts: scenario.callouts)
        let camera = Camera.fitting(region: region, size: size, overlays: overlays, padding: padding)
        let label = "\(scenario.name) in \(size)"
        XCTAssertEqual(camera.zoom, camera.zoom.rounded(), label)
        XCTAssertLessThan(camera.zoom, 19, label)
        let fit = Fit(camera: camera, region: region, overlays: overlays, padding: padding)
        fit.assertInsideFrame(label)
        fit.assertCentred(label)
        // One zoom more would not fit: the content (centred the same way) outgrows the frame.
        let closer = Camera.fitting(
          region: region, size: size, overlays: overlays, padding: padding, zoom: camera.zoom + 1)
        let closerFit = Fit(camera: closer, region: region, overlays: overlays, padding: padding)
        XCTAssertTrue(
          closerFit.union.width > closerFit.frame.width + 1e-6
            || closerFit.union.height > closerFit.frame.height + 1e-6,
          "zoom \(closer.zoom) would fit: \(label)")
      }
    }
  }

  func testFractionalZoomIsTighterAndFillsOneSide() throws {
    for scenario in scenarios {
      let size = PixelSize(width: 800, height: 600)
      let region = try XCTUnwrap(Region.forAnnotations(scenario.coordinates, user: nil))
      let overlays = Self.pins(scenario.coordinates, callouts: scenario.callouts)
      let whole = Camera.fitting(region: region, size: size, overlays: overlays, padding: 16)
      let tight = Camera.fitting(
        region: region, size: size, overlays: overlays, padding: 16, snapping: .fractional)
      XCTAssertGreaterThanOrEqual(tight.zoom, whole.zoom, scenario.name)
      XCTAssertLessThan(tight.zoom, whole.zoom + 1, scenario.name)
      let fit = Fit(camera: tight, region: region, overlays: overlays, padding: 16)
      fit.assertInsideFrame(scenario.name)
      fit.assertCentred(scenario.name)
      // The binary search ends within 19 / 2^60 of a zoom: one side of the content meets the frame.
      XCTAssertTrue(
        abs(fit.union.width - fit.frame.width) < 1e-6 || abs(fit.union.height - fit.frame.height) < 1e-6,
        "\(scenario.name): \(fit.union) in \(fit.frame)")
    }
  }

  func testZoomDoesNotDependOnScaleAndOverlaysScaleWithIt() throws {
    let region = try XCTUnwrap(Region.forAnnotations(Self.parisLandmarks, user: nil))
    let overlays = Self.pins(Self.parisLandmarks, callouts: true)
    let size = PixelSize(width: 600, height: 400)
    let base = Camera.fitting(region: region, size: size, overlays: overlays, padding: 10)
    for scale in [2.0, 3] {
      for snapping in [ZoomSnapping.integer, .fractional] {
        let camera = Camera.fitting(
          region: region, size: size, scale: scale, overlays: overlays, padding: 10, snapping: snapping)
        if snapping == .integer { XCTAssertEqual(camera.zoom, base.zoom) }
        XCTAssertEqual(camera.scale, scale)
        XCTAssertEqual(camera.pixelSize, PixelSize(width: 600 * scale, height: 400 * scale))
        let fit = Fit(camera: camera, region: region, overlays: overlays, padding: 10)
        fit.assertInsideFrame("scale \(scale) \(snapping)")
        fit.assertCentred("scale \(scale) \(snapping)")
      }
    }
  }

  func testPinsAloneAreCentredWhenTheRegionIsTheirBox() throws {
    // With the seed's × 1.1 region the centred content is region ∪ pins, and the region's margin is part of
    // it; with a region that is exactly the places' box, the drawn pins alone have even margins.
    let box = try XCTUnwrap(GeoBox.enclosing(Self.parisLandmarks))
    let region = Region(
      center: box.center, latitudeDelta: box.north - box.south, longitudeDelta: box.longitudes.width)
    let overlays = Self.pins(Self.parisLandmarks)
    for snapping in [ZoomSnapping.integer, .fractional] {
      let camera = Camera.fitting(
        region: region, size: PixelSize(width: 800, height: 600), scale: 2, overlays: overlays, padding: 24,
        snapping: snapping)
      let fit = Fit(camera: camera, region: region, overlays: overlays, padding: 24)
      let pins = fit.overlayRects.dropFirst().reduce(fit.overlayRects[0]) { $0.union($1) }
      // Whole zooms snap the world's origin to a whole point: up to a point (2 px at scale 2) of difference.
      let snap = snapping == .integer ? camera.scale : 0
      XCTAssertEqual(pins.minX, camera.pixelSize.width - pins.maxX, accuracy: 0.5 + snap, "\(snapping)")
      XCTAssertEqual(pins.minY, camera.pixelSize.height - pins.maxY, accuracy: 0.5 + snap, "\(snapping)")
      XCTAssertEqual(pins, fit.union, "the pins cover their own box")
    }
  }

  func testPacificTripFitsTheShortWayAcross180() throws {
    let region = try XCTUnwrap(Region.forAnnotations(Self.pacificTrip, user: nil))
    let overlays = Self.pins(Self.pacificTrip, callouts: true)
    // The trip spans 90° of latitude, so a portrait image: 800 × 1000 points.
    let size = PixelSize(width: 800, height: 1000)
    let camera = Camera.fitting(region: region, size: size, scale: 2, overlays: overlays, padding: 20)
    // The short way is 43.5° wide and fits at zoom 3; the seed's min/max box (332.6° wide) fits only zoom 1.
    XCTAssertGreaterThan(camera.zoom, 2)
    let minMax = Region(
      center: Coordinate(latitude: region.center.latitude, longitude: 8.45),
      latitudeDelta: region.latitudeDelta,
      longitudeDelta: (174.7633 + 157.8583) * 1.1)
    XCTAssertLessThanOrEqual(
      Camera.fitting(region: minMax, size: size, scale: 2, overlays: overlays, padding: 20).zoom, 1)
    XCTAssertGreaterThan(abs(camera.center.longitude), 170, "centred in the Pacific, not over Africa")
    XCTAssertTrue(camera.bounds.longitudes.crossesAntimeridian)
    let fit = Fit(camera: camera, region: region, overlays: overlays, padding: 20)
    fit.assertInsideFrame("Pacific")
    fit.assertCentred("Pacific")
    // Auckland (174.8°E) is drawn west of Honolulu (157.9°W), as on the globe.
    XCTAssertLessThan(camera.pixel(for: Sample.auckland).x, camera.pixel(for: Sample.honolulu).x)
  }

  func testFixedCentreIsKeptAndTheFitIsSymmetricAroundIt() throws {
    let region = try XCTUnwrap(Region.forAnnotations(Self.parisLandmarks, user: nil))
    let overlays = Self.pins(Self.parisLandmarks)
    let centre = Coordinate(latitude: 48.85, longitude: 2.30)  // south-west of the places
    let size = PixelSize(width: 800, height: 600)
    let camera = Camera.fitting(region: region, size: size, overlays: overlays, padding: 20, center: centre)
    assertCoordinate(camera.center, centre)
    XCTAssertEqual(camera.zoom, camera.zoom.rounded())
    Fit(camera: camera, region: region, overlays: overlays, padding: 20).assertInsideFrame("fixed centre")
    // One zoom more around the same centre pushes something out of the frame.
    let closer = Camera.fitting(
      region: region, size: size, overlays: overlays, padding: 20, center: centre, zoom: camera.zoom + 1)
    assertCoordinate(closer.center, centre)
    let closerFit = Fit(camera: closer, region: region, overlays: overlays, padding: 20)
    XCTAssertFalse(
      closerFit.overlayRects.allSatisfy { closerFit.frame.insetBy(dx: -1e-6, dy: -1e-6).contains($0) }
        && closerFit.frame.insetBy(dx: -1e-6, dy: -1e-6).contains(closerFit.regionRect))
    // The fixed-centre fit is never closer than the free one (it must reach the far side both ways).
    let free = Camera.fitting(region: region, size: size, overlays: overlays, padding: 20)
    XCTAssertLessThanOrEqual(camera.zoom, free.zoom)
  }

  func testFixedZoomIsUsedAsGivenAndTheContentCentred() throws {
    let region = try XCTUnwrap(Region.forAnnotations(Self.parisLandmarks, user: nil))
    let overlays = Self.pins(Self.parisLandmarks)
    let camera = Camera.fitting(
      region: region, size: PixelSize(width: 800, height: 600), overlays: overlays, padding: 20, zoom: 11.5)
    XCTAssertEqual(camera.zoom, 11.5)
    Fit(camera: camera, region: region, overlays: overlays, padding: 20).assertCentred("fixed zoom")
    // Too close to fit is still what was asked for.
    let tooClose = Camera.fitting(
      region: region, size: PixelSize(width: 800, height: 600), overlays: overlays, zoom: 17)
    XCTAssertEqual(tooClose.zoom, 17)
  }

  func testFixedCentreAndZoomAreBothKept() throws {
    let region = try XCTUnwrap(Region.forAnnotations(Self.parisLandmarks, user: nil))
    let camera = Camera.fitting(
      region: region, size: PixelSize(width: 800, height: 600), scale: 2,
      overlays: Self.pins(Self.parisLandmarks),
      center: Sample.sydney, zoom: 6.25)
    XCTAssertEqual(camera.zoom, 6.25)
    assertCoordinate(camera.center, Sample.sydney)
    XCTAssertEqual(camera.scale, 2)
  }

  func testZoomLimits() throws {
    let single = try XCTUnwrap(Region.forAnnotations([Sample.paris], user: nil))
    let size = PixelSize(width: 800, height: 600)
    XCTAssertEqual(Camera.fitting(region: single, size: size, zoomLimits: 0...12).zoom, 12)
    XCTAssertEqual(
      Camera.fitting(region: single, size: size, snapping: .fractional, zoomLimits: 0...12).zoom, 12)
    let world = Region(center: Coordinate(latitude: 0, longitude: 0), latitudeDelta: 170, longitudeDelta: 360)
    XCTAssertEqual(Camera.fitting(region: world, size: size, zoomLimits: 3...19).zoom, 3)
    XCTAssertEqual(
      Camera.fitting(region: world, size: size, snapping: .fractional, zoomLimits: 3...19).zoom, 3)
    // The one-kilometre region of Paris: at zoom 16 a point is 2.387 m × cos 48.86° = 1.571 m, so 1000 m
    // is 636 points, taller than 600; at zoom 15 it is 318 points.
    XCTAssertEqual(Camera.fitting(region: single, size: size).zoom, 15)
  }

  func testPlacesAtOnePointZoomAllTheWayIn() throws {
    let region = try XCTUnwrap(Region.forAnnotations([Sample.paris, Sample.paris], user: nil))
    let overlays = Self.pins([Sample.paris, Sample.paris], callouts: true)
    let camera = Camera.fitting(region: region, size: PixelSize(width: 400, height: 300), overlays: overlays)
    XCTAssertEqual(camera.zoom, 19)
    Fit(camera: camera, region: region, overlays: overlays, padding: 0).assertInsideFrame("one point")
    Fit(camera: camera, region: region, overlays: overlays, padding: 0).assertCentred("one point")
  }

  func testNearThePoleTheImageStopsAtTheWorldsEdgeButKeepsThePins() throws {
    // Places in the far north: centring them would show grey beyond the top of the world, so the centre moves
    // south, but only until the pins (whose heads stand above the world's edge at 85°) still fit.
    let north = [Coordinate(latitude: 85, longitude: 10), Coordinate(latitude: 84, longitude: 40)]
    let region = try XCTUnwrap(Region.forAnnotations(north, user: nil))
    let overlays = Self.pins(north)
    let camera = Camera.fitting(
      region: region, size: PixelSize(width: 800, height: 600), overlays: overlays, padding: 10)
    let worldTop = camera.pixel(for: WorldPoint(x: camera.centerWorld.x, y: 0)).y
    XCTAssertGreaterThanOrEqual(worldTop, -Epsilon.pixels)
    XCTAssertLessThanOrEqual(worldTop, 50, "no more grey than the pins' overhang and the padding")
    let fit = Fit(camera: camera, region: region, overlays: overlays, padding: 10)
    for rect in fit.overlayRects {
      XCTAssertGreaterThanOrEqual(rect.minX, fit.frame.minX - Epsilon.pixels)
      XCTAssertLessThanOrEqual(rect.maxX, fit.frame.maxX + Epsilon.pixels)
      XCTAssertGreaterThanOrEqual(rect.minY, fit.frame.minY - Epsilon.pixels, "a pin left the frame")
    }
    XCTAssertEqual(fit.union.minX, camera.pixelSize.width - fit.union.maxX, accuracy: 1.5)
  }

  func testWorldShorterThanTheImageIsCentredOnTheEquator() {
    let region = Region(
      center: Coordinate(latitude: 60, longitude: 20), latitudeDelta: 10, longitudeDelta: 10)
    let camera = Camera.fitting(region: region, size: PixelSize(width: 800, height: 600), zoom: 0)
    XCTAssertEqual(camera.center.latitude, 0, accuracy: Epsilon.degrees)
    // Within the whole-point snap of the world's origin: half a point at zoom 0 is 0.7°.
    XCTAssertEqual(camera.center.longitude, 20, accuracy: 0.5 / 256 * 360)
  }

  /// Random sets of places, some across 180°, random image sizes, scales and padding.
  func testRandomFitsKeepEverythingInsideAndCentred() throws {
    var random = SeededGenerator(seed: 0xF17_7ED)
    for iteration in 0..<300 {
      let centre = random.coordinate(maxLatitude: 70)
      let spread = random.double(in: 0.001..<60)
      let coordinates = (0..<random.int(in: 1...8)).map { _ in
        Coordinate(
          latitude: min(max(centre.latitude + random.double(in: -spread / 4..<spread / 4), -80), 80),
          longitude: normalizedLongitude(centre.longitude + random.double(in: -spread..<spread)))
      }
      // Never smaller than a callout (140 × 92 points) plus twice the largest padding: smaller images cannot
      // fit a callout at any zoom, and the fit then just stops at the lowest zoom.
      let size = PixelSize(
        width: Double(random.int(in: 220...1200)), height: Double(random.int(in: 172...1000)))
      let scale = Double(random.int(in: 1...3))
      let padding = Double(random.int(in: 0...40))
      let snapping: ZoomSnapping = random.bool() ? .integer : .fractional
      let overlays = Self.pins(coordinates, callouts: random.bool())
      let region = try XCTUnwrap(Region.forAnnotations(coordinates, user: nil))
      let camera = Camera.fitting(
        region: region, size: size, scale: scale, overlays: overlays, padding: padding, snapping: snapping)
      let label = "#\(iteration) \(coordinates) \(size) ×\(scale) pad \(padding) \(snapping)"
      let fit = Fit(camera: camera, region: region, overlays: overlays, padding: padding)
      if fit.isClampedAtAPole {
        // Vertically the pole wins; horizontally the fit still holds.
        XCTAssertGreaterThanOrEqual(fit.union.minX, fit.frame.minX - Epsilon.pixels, label)
        XCTAssertLessThanOrEqual(fit.union.maxX, fit.frame.maxX + Epsilon.pixels, label)
        continue
      }
      fit.assertInsideFrame(label)
      fit.assertCentred(label)
      if snapping == .integer && camera.zoom < 19 {
        let closer = Camera.fitting(
          region: region, size: size, scale: scale, overlays: overlays, padding: padding,
          zoom: camera.zoom + 1)
        let closerFit = Fit(camera: closer, region: region, overlays: overlays, padding: padding)
        XCTAssertTrue(
          closerFit.union.width > closerFit.frame.width || closerFit.union.height > closerFit.frame.height,
          label)
      }
    }
  }
}

/// A fitted camera with the region and overlays it was fitted to, measured in image pixels.
private struct Fit {
  let camera: Camera
  let region: Region
  let overlays: [OverlayExtent]
  let padding: Double

  /// The image minus the padding, in pixels.
  var frame: PixelRect {
    PixelRect(x: 0, y: 0, width: camera.pixelSize.width, height: camera.pixelSize.height)
      .insetBy(dx: padding * camera.scale, dy: padding * camera.scale)
  }

  /// The region's box: its centre ± half its longitude span, from its north to its south edge.
  var regionRect: PixelRect {
    let centre = camera.pixel(for: region.center)
    let halfWidth = min(region.longitudeDelta, 360) / 360 / 2 * camera.worldPixels
    let top = camera.pixel(for: Coordinate(latitude: region.box.north, longitude: region.center.longitude)).y
    let bottom = camera.pixel(for: Coordinate(latitude: region.box.south, longitude: region.center.longitude))
      .y
    return PixelRect(x: centre.x - halfWidth, y: top, width: 2 * halfWidth, height: bottom - top)
  }

  /// Every overlay where it is drawn: the anchor's pixel plus the rectangle at the camera's scale.
  var overlayRects: [PixelRect] {
    overlays.map { overlay in
      let anchor = camera.pixel(for: overlay.anchor)
      return overlay.rect.scaled(by: camera.scale).offsetBy(dx: anchor.x, dy: anchor.y)
    }
  }

  var union: PixelRect { overlayRects.reduce(regionRect) { $0.union($1) } }

  /// True when the image shows the top or bottom edge of the world (the fit then gives up even margins).
  var isClampedAtAPole: Bool {
    let top = camera.pixel(for: WorldPoint(x: camera.centerWorld.x, y: 0)).y
    let bottom = camera.pixel(for: WorldPoint(x: camera.centerWorld.x, y: 1)).y
    return top > -Epsilon.pixels || bottom < camera.pixelSize.height + Epsilon.pixels
  }

  func assertInsideFrame(_ label: String, file: StaticString = #filePath, line: UInt = #line) {
    let tolerant = frame.insetBy(dx: -Epsilon.pixels, dy: -Epsilon.pixels)
    XCTAssertTrue(
      tolerant.contains(regionRect), "region \(regionRect) outside \(frame): \(label)", file: file, line: line
    )
    for (overlay, rect) in zip(overlays, overlayRects) {
      XCTAssertTrue(
        tolerant.contains(rect), "overlay at \(overlay.anchor) \(rect) outside \(frame): \(label)",
        file: file,
        line: line)
    }
  }

  /// Left and right margins equal, top and bottom likewise (unless the image shows a pole's edge of the
  /// world, where the fit keeps the grey beyond it out of the picture instead), within half a pixel.
  /// Margins even within half a pixel, plus, at whole zooms, the snap of the world's origin to a whole point
  /// (which moves everything by up to half a point, so margins differ by up to a point).
  func assertCentred(_ label: String, file: StaticString = #filePath, line: UInt = #line) {
    let content = union
    let snap = camera.zoom == camera.zoom.rounded() ? camera.scale : 0
    XCTAssertEqual(
      content.minX, camera.pixelSize.width - content.maxX, accuracy: 0.5 + snap, label, file: file, line: line
    )
    guard !isClampedAtAPole else { return }
    XCTAssertEqual(
      content.minY, camera.pixelSize.height - content.maxY, accuracy: 0.5 + snap, label, file: file,
      line: line)
  }
}
