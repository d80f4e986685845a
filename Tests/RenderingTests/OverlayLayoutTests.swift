import Foundation
import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// Properties of where pins and callouts land, checked on many seeded random maps through
/// `Snapshotter.render` and its layout (what `--layout-json` reports).
final class OverlayLayoutTests: XCTestCase {
  private static let sizes: [(Double, Double)] = [
    (400, 300), (640, 480), (800, 600), (1200, 800), (500, 700),
  ]
  private static let titles = [
    "Café", "Apple Store", "(No Description)", "Golden Gate Bridge Welcome Center", "Bar", "X",
    "A very long description of a place that goes on and on until it has to be cut short", "東京タワー",
    "Zürich HB", "Musée d’Orsay",
  ]
  private static let categories: [String?] = [
    "Landmark", "No Category", "Historic Building", "Icecream Vendor", nil, "",
  ]

  /// One random case: 2–40 places in a region somewhere on Earth (sometimes across 180°).
  private struct Case: CustomStringConvertible {
    let seed: UInt64
    let annotations: [PointAnnotation]
    let user: UserPosition?
    let size: PixelSize
    let scale: Double

    var description: String {
      "seed \(seed): \(annotations.count) places, \(Int(size.width))×\(Int(size.height)) @\(Int(scale))x"
        + (user == nil ? "" : ", user")
    }

    func request(callouts: Bool = true, snapping: ZoomSnapping = .integer) -> RenderRequest {
      var request = RenderRequest(annotations: annotations, user: user)
      request.size = size
      request.scale = scale
      request.format = .svg  // the cheapest output; the layout does not depend on the format
      request.showCallouts = callouts
      request.zoomSnapping = snapping
      // The one-pin-each layout is what these cases check (ClusteringTests checks clusters).
      request.clustering = .never
      return request
    }
  }

  private func makeCase(seed: UInt64) -> Case {
    var generator = SeededGenerator(seed: seed)
    let count = Int.random(in: 2...40, using: &generator)
    let centre = Coordinate(
      latitude: Double.random(in: -60...60, using: &generator),
      // One case in four near the antimeridian.
      longitude: Int.random(in: 0..<4, using: &generator) == 0
        ? 180 + Double.random(in: -3...3, using: &generator)
        : Double.random(in: -180..<180, using: &generator))
    let span = pow(10, Double.random(in: -2.5...1.3, using: &generator))  // 0.003° … 20°
    let annotations = (0..<count).map { index in
      PointAnnotation(
        identifier: "p\(index)",
        coordinate: Coordinate(
          latitude: centre.latitude + Double.random(in: -span / 2...span / 2, using: &generator),
          longitude: normalizedLongitude(
            centre.longitude + Double.random(in: -span...span, using: &generator))),
        title: OverlayLayoutTests.titles.randomElement(using: &generator)!,
        subtitle: OverlayLayoutTests.categories.randomElement(using: &generator)!)
    }
    let user =
      Bool.random(using: &generator)
      ? UserPosition(
        coordinate: Coordinate(
          latitude: centre.latitude + Double.random(in: -span / 2...span / 2, using: &generator),
          longitude: normalizedLongitude(
            centre.longitude + Double.random(in: -span...span, using: &generator))))
      : nil
    let (width, height) = OverlayLayoutTests.sizes.randomElement(using: &generator)!
    return Case(
      seed: seed, annotations: annotations, user: user, size: PixelSize(width: width, height: height),
      scale: Bool.random(using: &generator) ? 1 : 2)
  }

  private static let seeds: [UInt64] = Array(1...36)

  // MARK: Callouts and pins stay in the picture and out of each other's way

  func testCalloutsAndPinsAreInsideTheImageAndDoNotCollide() throws {
    var placedCallouts = 0
    var droppedCallouts = 0
    for seed in OverlayLayoutTests.seeds {
      let item = makeCase(seed: seed)
      let layout = try Snapshotter.render(item.request()).layout
      let s = item.scale
      let image = PixelRect(x: 0, y: 0, width: item.size.width * s, height: item.size.height * s)
      XCTAssertEqual(layout.annotations.map(\.id), item.annotations.map(\.identifier), "\(item)")
      let heads = layout.annotations.map { RenderKit.headRect(at: $0.point, scale: s) }
      let userDot = layout.user.map { user -> PixelRect in
        let dot = UserDotLayer(style: Style.standard.userDot).extent
        return PixelRect(
          x: user.point.x + dot.x * s, y: user.point.y + dot.y * s, width: dot.width * s,
          height: dot.height * s)
      }
      for (index, annotation) in layout.annotations.enumerated() {
        // Every pin is whole: fitting keeps it in the picture (and `padding` points off the edges).
        XCTAssertTrue(image.contains(annotation.pin), "\(item): pin of \(annotation.id) \(annotation.pin)")
        XCTAssertTrue(
          image.insetBy(dx: 20 * s - 1e-6, dy: 20 * s - 1e-6).contains(annotation.pin),
          "\(item): pin of \(annotation.id) within the padding")
        guard let callout = annotation.callout else {
          droppedCallouts += 1
          continue
        }
        placedCallouts += 1
        XCTAssertTrue(image.contains(callout), "\(item): callout of \(annotation.id) \(callout)")
        for (other, otherAnnotation) in layout.annotations.enumerated() where other != index {
          XCTAssertFalse(
            heads[other].intersects(callout),
            "\(item): callout of \(annotation.id) covers the pin head of \(otherAnnotation.id)")
          if other > index, let otherCallout = otherAnnotation.callout {
            XCTAssertFalse(
              callout.intersects(otherCallout),
              "\(item): callouts of \(annotation.id) and \(otherAnnotation.id)")
          }
        }
        if let userDot {
          XCTAssertFalse(callout.intersects(userDot), "\(item): callout of \(annotation.id) covers the user")
        }
      }
      // The dropped list names exactly the places without a callout, in order.
      XCTAssertEqual(
        layout.droppedCallouts, layout.annotations.filter { $0.callout == nil }.map(\.id), "\(item)")
    }
    // The cases exercise both outcomes.
    XCTAssertGreaterThan(placedCallouts, 100)
    XCTAssertGreaterThan(droppedCallouts, 10)
  }

  func testCalloutsPointAtTheirOwnPin() throws {
    var sides: Set<String> = []
    for seed in OverlayLayoutTests.seeds {
      let item = makeCase(seed: seed)
      let layout = try Snapshotter.render(item.request()).layout
      let s = item.scale
      let gap = 1.5 * s  // between the pointer's tip and the pin
      for annotation in layout.annotations {
        guard let callout = annotation.callout else { continue }
        let head = RenderKit.headRect(at: annotation.point, scale: s)
        let overPin = callout.minX < annotation.point.x && annotation.point.x < callout.maxX
        let besideHead = callout.minY < head.midY && head.midY < callout.maxY
        // Above the head, below the place, or beside the head, with the pointer reaching to the pin.
        if abs(callout.maxY - (head.minY - gap)) < 1e-6 && overPin {
          sides.insert("above")
        } else if abs(callout.minY - (annotation.point.y + 3 * s + gap)) < 1e-6 && overPin {
          sides.insert("below")
        } else if abs(callout.minX - (head.maxX + gap)) < 1e-6 && besideHead {
          sides.insert("right")
        } else if abs(callout.maxX - (head.minX - gap)) < 1e-6 && besideHead {
          sides.insert("left")
        } else {
          XCTFail("\(item): the callout of \(annotation.id) \(callout) is not next to its pin \(head)")
        }
      }
    }
    XCTAssertTrue(sides.isSuperset(of: ["above", "below"]), "\(sides)")
  }

  func testWithoutCalloutsNoneIsDrawnAndTheMapIsNoFartherOut() throws {
    for seed in OverlayLayoutTests.seeds {
      let item = makeCase(seed: seed)
      let with = try Snapshotter.render(item.request()).layout
      let without = try Snapshotter.render(item.request(callouts: false)).layout
      XCTAssertTrue(without.annotations.allSatisfy { $0.callout == nil }, "\(item)")
      XCTAssertEqual(without.droppedCallouts, [], "\(item): callouts that were not asked for are not dropped")
      XCTAssertGreaterThanOrEqual(without.camera.zoom, with.camera.zoom, "\(item)")
    }
  }

  // MARK: The camera

  func testThePinTipIsThePlacesPixel() throws {
    for seed in OverlayLayoutTests.seeds.prefix(12) {
      let item = makeCase(seed: seed)
      let layout = try Snapshotter.render(item.request()).layout
      XCTAssertEqual(layout.camera.scale, item.scale)
      XCTAssertEqual(layout.camera.size, item.size)
      for annotation in layout.annotations {
        let expected = RenderKit.designPixel(of: annotation.coordinate, camera: layout.camera)
        XCTAssertEqual(annotation.point.x, expected.x, accuracy: 1e-6, "\(item): \(annotation.id)")
        XCTAssertEqual(annotation.point.y, expected.y, accuracy: 1e-6, "\(item): \(annotation.id)")
        let camera = layout.camera.pixel(for: annotation.coordinate)
        XCTAssertEqual(annotation.point.x, camera.x, accuracy: 1e-6)
        XCTAssertEqual(annotation.point.y, camera.y, accuracy: 1e-6)
      }
      if let user = layout.user {
        let expected = RenderKit.designPixel(of: user.coordinate, camera: layout.camera)
        XCTAssertEqual(user.point.x, expected.x, accuracy: 1e-6, "\(item): user")
        XCTAssertEqual(user.point.y, expected.y, accuracy: 1e-6, "\(item): user")
      }
    }
  }

  func testTheZoomIsWholeByDefaultAndFractionalOnlyWhenAsked() throws {
    var fractionalSeen = false
    for seed in OverlayLayoutTests.seeds {
      let item = makeCase(seed: seed)
      for callouts in [false, true] {
        let whole = try Snapshotter.render(item.request(callouts: callouts)).layout
        XCTAssertEqual(whole.camera.zoom, whole.camera.zoom.rounded(), "\(item)")
        let fractional = try Snapshotter.render(item.request(callouts: callouts, snapping: .fractional))
          .layout
        XCTAssertGreaterThanOrEqual(
          fractional.camera.zoom, whole.camera.zoom, "\(item), callouts \(callouts)")
        if fractional.camera.zoom != fractional.camera.zoom.rounded() { fractionalSeen = true }
      }
    }
    XCTAssertTrue(fractionalSeen)
  }

  func testScaleTwoIsScaleOneTwiceAsLarge() throws {
    for seed in OverlayLayoutTests.seeds.prefix(12) {
      var item = makeCase(seed: seed)
      item = Case(seed: item.seed, annotations: item.annotations, user: item.user, size: item.size, scale: 1)
      let one = try Snapshotter.render(item.request()).layout
      item = Case(seed: item.seed, annotations: item.annotations, user: item.user, size: item.size, scale: 2)
      let two = try Snapshotter.render(item.request()).layout
      XCTAssertEqual(one.camera.zoom, two.camera.zoom, "\(item)")
      XCTAssertEqual(two.width, 2 * one.width)
      XCTAssertEqual(two.droppedCallouts, one.droppedCallouts, "\(item)")
      for (a, b) in zip(one.annotations, two.annotations) {
        XCTAssertEqual(b.point.x, 2 * a.point.x, accuracy: 1e-6, "\(item)")
        XCTAssertEqual(b.point.y, 2 * a.point.y, accuracy: 1e-6, "\(item)")
        assertEqual(b.pin, a.pin.scaled(by: 2), "\(item): pin of \(a.id)")
        XCTAssertEqual(b.callout == nil, a.callout == nil, "\(item): callout of \(a.id)")
        if let ca = a.callout, let cb = b.callout {
          assertEqual(cb, ca.scaled(by: 2), "\(item): callout of \(a.id)")
        }
      }
    }
  }

  /// The margins are even: the fit centres everything it keeps in view (the region and every pin and
  /// callout), so left and right margins, and top and bottom ones, differ by at most a pixel.
  func testMarginsAreEven() throws {
    var checked = 0
    for seed in OverlayLayoutTests.seeds {
      let original = makeCase(seed: seed)
      let item = Case(
        seed: seed, annotations: original.annotations, user: nil, size: original.size, scale: original.scale)
      for callouts in [true, false] {
        let layout = try Snapshotter.render(item.request(callouts: callouts)).layout
        let s = item.scale
        // The preferred callouts (above the pin, centred): the ones the fit makes room for.
        let overlays = OverlayLayout(
          annotations: item.annotations, style: .standard, showCallouts: callouts,
          measuring: MeasuringContext())
        let preferred = overlays.extents()
        var union = regionRect(item.annotations.map(\.coordinate), camera: layout.camera)
        var allPreferred = layout.droppedCallouts.isEmpty
        for (annotation, extent) in zip(layout.annotations, preferred) {
          let drawn = annotation.callout.map { annotation.pin.union($0) } ?? annotation.pin
          let expected = PixelRect(
            x: annotation.point.x + extent.rect.x * s, y: annotation.point.y + extent.rect.y * s,
            width: extent.rect.width * s, height: extent.rect.height * s)
          if !close(drawn, expected) { allPreferred = false }
          union = union.union(drawn)
        }
        guard allPreferred else { continue }
        checked += 1
        let left = union.minX
        let right = Double(layout.width) - union.maxX
        let top = union.minY
        let bottom = Double(layout.height) - union.maxY
        // Within a pixel, plus the whole-point snap of the world's origin at whole zooms (up to a point).
        XCTAssertEqual(left, right, accuracy: 1 + s, "\(item), callouts \(callouts): horizontal margins")
        XCTAssertEqual(top, bottom, accuracy: 1 + s, "\(item), callouts \(callouts): vertical margins")
        // And the tighter axis has just the padding.
        XCTAssertGreaterThanOrEqual(min(left, top), 20 * s - 1e-6, "\(item), callouts \(callouts)")
      }
    }
    XCTAssertGreaterThan(checked, 20, "enough cases have every callout where it prefers to be")
  }

  func testTwoPlacesSideBySideAreCentredWithTheirCallouts() throws {
    // Callouts wider than the region: the union of pins and callouts sets the margins.
    let places = [
      RenderKit.place("west", 48.8606, 2.3376, title: "A rather long title on the left"),
      RenderKit.place("east", 48.8606, 2.3500, title: "Short"),
    ]
    for scale in [1.0, 2.0] {
      for snapping in [ZoomSnapping.integer, .fractional] {
        var request = RenderKit.request(places, width: 600, height: 300, scale: scale, format: .svg)
        request.zoomSnapping = snapping
        let layout = try Snapshotter.render(request).layout
        XCTAssertEqual(layout.droppedCallouts, [])
        let union = layout.annotations.reduce(nil) { (result: PixelRect?, item) -> PixelRect? in
          let drawn = item.pin.union(item.callout!)
          return result.map { $0.union(drawn) } ?? drawn
        }!
        XCTAssertEqual(
          union.minX, Double(layout.width) - union.maxX, accuracy: 1 + scale, "\(scale) \(snapping)")
      }
    }
  }

  // MARK: Helpers

  /// The region the fit keeps for the places (their box), in image pixels.
  private func regionRect(_ coordinates: [Coordinate], camera: Camera) -> PixelRect {
    let region = Region.forAnnotations(coordinates, user: nil, spanMargin: 1)!
    let box = region.box
    let centre = WebMercator.project(region.center)
    let halfWidth = min(region.longitudeDelta, 360) / 360 / 2
    let topLeft = camera.pixel(
      for: WorldPoint(
        x: centre.x - halfWidth, y: WebMercator.project(Coordinate(latitude: box.north, longitude: 0)).y))
    let bottomRight = camera.pixel(
      for: WorldPoint(
        x: centre.x + halfWidth, y: WebMercator.project(Coordinate(latitude: box.south, longitude: 0)).y))
    return PixelRect(
      x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
  }

  private func close(_ a: PixelRect, _ b: PixelRect) -> Bool {
    abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 && abs(a.width - b.width) < 1e-6
      && abs(a.height - b.height) < 1e-6
  }

  private func assertEqual(_ a: PixelRect, _ b: PixelRect, _ message: String, line: UInt = #line) {
    XCTAssertTrue(close(a, b), "\(message): \(a) vs \(b)", line: line)
  }
}
