import CCairo
import Foundation
import ImageCodecs
import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// Tracks and routes drawn: under the pins, in the fit, simplified, across 180°, in the layout JSON.
final class TrackRenderingTests: XCTestCase {
  private func line(_ points: [(Double, Double)], id: String = "t", direction: Bool = false) -> MapTrack {
    MapTrack(
      id: id, name: id, segments: [points.map { Coordinate(latitude: $0.0, longitude: $0.1) }],
      showsDirection: direction)
  }

  /// Rows from `from` to `to` and back, `step` apart, joined at their ends.
  private func serpentine(rows: Int, top: Double, step: Double, from: Double, to: Double) -> [PixelPoint] {
    var line: [PixelPoint] = []
    for row in 0..<rows {
      let y = top + Double(row) * step
      let ends = [PixelPoint(x: from, y: y), PixelPoint(x: to, y: y)]
      line += row.isMultiple(of: 2) ? ends : ends.reversed()
    }
    return line
  }

  func testOnlyTracksStillFitTheMap() throws {
    var request = RenderKit.request([], width: 400, height: 300)
    request.tracks = [line([(60.16, 24.93), (60.17, 24.95)])]
    let result = try Snapshotter.render(request)
    let layout = try XCTUnwrap(result.layout.tracks.first)
    XCTAssertEqual(layout.id, "t")
    XCTAssertEqual(layout.lengthKilometers, 1.569, accuracy: 0.001)
    let rect = try XCTUnwrap(layout.rect)
    XCTAssertTrue(PixelRect(x: 0, y: 0, width: 400, height: 300).contains(rect), "\(rect)")
    // The seed's 1.1 margins: the line spans most of the map, not a dot in it.
    XCTAssertGreaterThan(max(rect.width / 400, rect.height / 300), 0.6)
    XCTAssertTrue(result.layout.json.contains("\"tracks\": ["))
  }

  func testTheTrackIsDrawnUnderThePin() throws {
    // A pin on the middle of a horizontal line: at the pin's head the pin's green shows, beside it the line.
    let place = RenderKit.place("p", 0, 0)
    var request = RenderKit.request([place], width: 300, height: 200)
    request.showCallouts = false
    request.tracks = [line([(0.0015, -0.01), (0.0015, 0.01)])]
    request.zoom = 15
    request.center = Coordinate(latitude: 0, longitude: 0)
    let result = try Snapshotter.render(request)
    let image = try RenderKit.decode(result)
    let pin = try XCTUnwrap(result.layout.annotations.first?.pin)
    let track = result.layout.camera.pixel(for: Coordinate(latitude: 0.0015, longitude: 0))
    let head = RenderKit.headRect(at: result.layout.annotations[0].point, scale: 1)
    XCTAssertTrue(head.contains(PixelPoint(x: head.midX, y: track.y)), "the line must cross the pin's head")
    let onHead = image.pixel(x: Int(head.midX), y: Int(track.y))
    XCTAssertGreaterThan(Int(onHead.green), Int(onHead.red) + 60, "the pin's green on top: \(onHead)")
    let beside = image.pixel(x: Int(pin.maxX + 30), y: Int(track.y))
    XCTAssertGreaterThan(Int(beside.red), Int(beside.green) + 60, "the track's magenta beside it: \(beside)")
  }

  func testAHundredThousandPointsBecomeFewSegments() throws {
    // A zigzag with GPS noise along 20 km: every point kept would be 100,000 segments.
    var generator = SeededGenerator(seed: 12)
    var points: [(Double, Double)] = []
    for index in 0..<100_000 {
      let t = Double(index) / 100_000
      points.append(
        (
          60 + 0.05 * sin(t * 40) + Double.random(in: -1e-5...1e-5, using: &generator),
          24.8 + 0.3 * t + Double.random(in: -1e-5...1e-5, using: &generator)
        ))
    }
    var request = RenderKit.request([], width: 800, height: 600)
    request.tracks = [line(points)]
    let start = Date()
    let result = try Snapshotter.render(request)
    let drawn = try XCTUnwrap(result.layout.tracks.first?.pointsDrawn)
    XCTAssertLessThan(drawn, 5_000, "simplified for the zoom")
    XCTAssertGreaterThan(drawn, 200, "the zigzag's curves are kept")
    XCTAssertLessThan(Date().timeIntervalSince(start), 20)
  }

  func testALongTranslucentLineDrawnInRunsCrossesItselfEvenly() throws {
    // A serpentine of long legs, then a vertical line of 600 points across them: over 512 points, so the
    // image gets it in runs, and the vertical line crosses legs stroked in other runs.
    let serpentine = serpentine(rows: 28, top: 15, step: 20, from: 20, to: 580)
    let vertical = (0..<600).map { PixelPoint(x: 300.5, y: Double($0)) }
    var style = TrackStyle()
    style.color = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
    style.casingWidth = 0
    let canvas = try Canvas(format: .png, pixelWidth: 600, pixelHeight: 600, scale: 1)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: 600, height: 600), color: .white)
    TrackLineLayer(style: style).draw([([serpentine, vertical], false)], on: canvas)
    let image = try PNGCodec.decode(try canvas.finish())
    let onOneLeg = image.pixel(x: 150, y: 215)
    let onTheVertical = image.pixel(x: 300, y: 225)
    let crossing = image.pixel(x: 300, y: 215)
    for pixel in [onOneLeg, onTheVertical] {
      XCTAssertEqual(Int(pixel.red), 127, accuracy: 2, "half blue over white: \(pixel)")
    }
    // One coat where they cross: twice laid, the crossing would be a quarter white (red 63).
    XCTAssertEqual(Int(crossing.red), Int(onOneLeg.red), accuracy: 2, "\(crossing) vs \(onOneLeg)")
    XCTAssertEqual(Int(crossing.blue), 255, accuracy: 2)
  }

  func testARoutePassingASpotManyTimesShowsItsWayThereOnce() {
    // Forty passes the same way along one street get the chevrons of one; the way back gets its own.
    let layer = TrackLineLayer(style: TrackStyle())
    let street = [PixelPoint(x: 10, y: 30.3), PixelPoint(x: 290, y: 30.3)]
    func chevrons(_ pieces: [[PixelPoint]]) -> Int {
      var count = 0
      layer.forEachChevron(along: pieces) { _ in count += 1 }
      return count
    }
    let once = chevrons([street])
    XCTAssertGreaterThan(once, 4)
    XCTAssertEqual(chevrons(Array(repeating: street, count: 40)), once)
    XCTAssertEqual(chevrons([street, street.reversed()]), 2 * once)
  }

  func testALongLineDrawnInRunsLooksAsOneStroke() throws {
    // A serpentine of 600 points with long legs and short steps, opaque: in runs on the image it must look
    // as Cairo strokes it whole, with no segment lost where a run ends.
    var line = serpentine(rows: 150, top: 10, step: 3.8, from: 20, to: 380)
    line += (0..<300).map { PixelPoint(x: 390, y: 10 + Double($0) * 1.9) }
    // Opaque, and translucent (each colour laid once over its runs, the group clipped to the line's box).
    for alpha in [1, 0.5] {
      var style = TrackStyle()
      style.color = Color(red: 0.8, green: 0.1, blue: 0.5, alpha: alpha)
      style.casingColor = Color(red: 1, green: 1, blue: 1, alpha: alpha)
      try assertRunsLookAsOneStroke(line, style: style)
    }
  }

  private func assertRunsLookAsOneStroke(_ line: [PixelPoint], style: TrackStyle) throws {
    func canvas() throws -> Canvas {
      let canvas = try Canvas(format: .png, pixelWidth: 400, pixelHeight: 600, scale: 1)
      canvas.drawing.fillRect(
        PixelRect(x: 0, y: 0, width: 400, height: 600), color: Color(red: 0, green: 0, blue: 0))
      return canvas
    }
    let inRuns = try canvas()
    TrackLineLayer(style: style).draw([([line], false)], on: inRuns)
    let whole = try canvas()
    let cr = whole.context
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for (width, color) in [
      (style.width + 2 * style.casingWidth, style.casingColor), (style.width, style.color),
    ] {
      cairo_set_line_width(cr, width)
      whole.drawing.setColor(color)
      cairo_move_to(cr, line[0].x, line[0].y)
      for point in line.dropFirst() { cairo_line_to(cr, point.x, point.y) }
      cairo_stroke(cr)
    }
    let a = try PNGCodec.decode(try inRuns.finish())
    let b = try PNGCodec.decode(try whole.finish())
    var different = 0
    for index in a.rgba.indices where abs(Int(a.rgba[index]) - Int(b.rgba[index])) > 100 { different += 1 }
    XCTAssertEqual(different, 0, "alpha \(style.color.alpha)")
    XCTAssertGreaterThan(a.rgba.count { $0 > 100 }, 100_000, "the line is drawn")
  }

  func testSimplificationKeepsTheShapeWithinTheTolerance() {
    let line = (0...1000).map { PixelPoint(x: Double($0) / 10, y: sin(Double($0) / 100) * 20) }
    let simple = TrackGeometry.simplified(line, tolerance: 0.25)
    XCTAssertLessThan(simple.count, 100)
    XCTAssertEqual(simple.first, line.first)
    XCTAssertEqual(simple.last, line.last)
    XCTAssertEqual(TrackGeometry.simplified(Array(line.prefix(2)), tolerance: 1), Array(line.prefix(2)))
  }

  func testATrackAcrossTheAntimeridianIsOneShortLine() throws {
    var request = RenderKit.request([], width: 480, height: 320)
    request.tiles = try RenderKit.fixtureTiles()
    request.tracks = [
      line([(-17.7, 177.4), (-16.5, 179.3), (-15.0, -179.0), (-13.8, -171.8)], id: "pacific"),
      line([(-18.1, 178.4), (-13.8, -171.8)], id: "route", direction: true),
    ]
    let result = try Snapshotter.render(request)
    XCTAssertGreaterThan(result.layout.bounds.west, result.layout.bounds.east, "the view crosses 180°")
    XCTAssertGreaterThanOrEqual(result.layout.camera.zoom, 4, "the short way: about 11° wide")
    let rect = try XCTUnwrap(result.layout.tracks.first?.rect)
    XCTAssertLessThan(rect.width, 480, "one piece, not two halves at the edges")
    GoldenImage.assertMatches(Data(result.data), named: "track-antimeridian")
  }

  func testARouteCurvesAsOnAGlobeAndGoesTheShortWay() {
    let route = MapTrack.route(
      through: [
        Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 35.68, longitude: 139.77),
        Coordinate(latitude: 21.3, longitude: -157.9),
      ])!
    let points = route.segments[0]
    XCTAssertEqual(points.first, Coordinate(latitude: 60.17, longitude: 24.94))
    // Helsinki to Tokyo passes north of both, over Siberia.
    XCTAssertGreaterThan(points.map(\.latitude).max()!, 65)
    // Tokyo to Honolulu crosses 180° continuously: longitudes keep growing past 180.
    for (a, b) in zip(points, points.dropFirst()) {
      XCTAssertLessThan(abs(b.longitude - a.longitude), 3, "no jump between \(a) and \(b)")
    }
    XCTAssertEqual(points.last!.longitude, 202.1, accuracy: 1e-9)
    XCTAssertNil(MapTrack.route(through: [Coordinate(latitude: 1, longitude: 2)]))
    // Every step is at most a degree of arc.
    for (a, b) in zip(points, points.dropFirst()) {
      XCTAssertLessThanOrEqual(GreatCircle.distanceMeters(a, b), 111_200)
    }
  }
}
