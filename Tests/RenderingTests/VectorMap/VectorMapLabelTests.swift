import Foundation
import ImageCodecs
import MapMath
import MapStyle
import TestSupport
import XCTest

@testable import Rendering

/// Labels of the Helsinki example judged by rules: nothing overlaps, the main streets are named, names do
/// not repeat nearby, curved text bends no more than the style allows.
final class VectorMapLabelTests: XCTestCase {
  /// A pin-sized obstacle in the middle of the city centre (Esplanadi) and the attribution's corner.
  private let obstacles = [
    PixelRect(x: 560, y: 480, width: 60, height: 80), PixelRect(x: 900, y: 770, width: 300, height: 30),
  ]

  private func placed(_ style: String) throws -> (VectorMapLayer, MapStyle) {
    let mapStyle = try VectorMapFixtures.style(style)
    let camera = try VectorMapFixtures.exampleCamera()
    let (_, layer) = try VectorMapFixtures.render(style: mapStyle, camera: camera, obstacles: obstacles)
    return (layer, mapStyle)
  }

  /// A property of every symbol layer, by layer id.
  private func symbolValues(_ style: MapStyle, zoom: Double, _ value: (SymbolStyle, Double) -> Double)
    -> [String: Double]
  {
    var values: [String: Double] = [:]
    for layer in style.layers {
      if case .symbol(let symbol) = layer.kind { values[layer.id] = value(symbol, zoom) }
    }
    return values
  }

  func testLabelsOverlapNothingAndStayInTheImage() throws {
    let (layer, _) = try placed("light")
    let labels = layer.labels
    XCTAssertGreaterThan(labels.count, 20, "a city centre at this zoom has many names")
    let image = PixelRect(x: 0, y: 0, width: 1200, height: 800)
    for (index, label) in labels.enumerated() {
      for box in label.boxes {
        XCTAssertTrue(image.contains(box), "\(label.text) leaves the image: \(box)")
        for obstacle in obstacles {
          XCTAssertFalse(box.intersects(obstacle), "\(label.text) covers the obstacle \(obstacle)")
        }
        for other in labels[(index + 1)...] {
          for otherBox in other.boxes {
            XCTAssertFalse(box.intersects(otherBox), "\(label.text) overlaps \(other.text)")
          }
        }
      }
      XCTAssertTrue(
        label.boxes.allSatisfy { label.rect.contains($0) }, "\(label.text)'s rect holds its boxes")
    }
  }

  func testMainStreetsAreNamed() throws {
    let (layer, _) = try placed("light")
    let texts = Set(layer.labels.map(\.text))
    for street in [
      "Mannerheimintie", "Aleksanterinkatu", "Pohjoisesplanadi", "Eteläesplanadi", "Unioninkatu",
    ] {
      XCTAssertTrue(texts.contains(street), "\(street) is not labelled; labels: \(texts.sorted())")
    }
    XCTAssertTrue(texts.contains("KLUUVI"), "neighbourhood names are upper-cased by text-transform")
  }

  func testStreetNamesDoNotRepeatNearby() throws {
    let (layer, style) = try placed("light")
    let spacing = symbolValues(style, zoom: layer.tiling.styleZoom) { $0.spacing.value(atZoom: $1) }
    let streets = layer.placedLabels.filter { if case .curved = $0.label.drawing { true } else { false } }
    XCTAssertGreaterThan(streets.count, 10)
    for (index, first) in streets.enumerated() {
      for second in streets[(index + 1)...] where first.label.text == second.label.text {
        let distance = LabelLine.distance(
          PixelPoint(x: first.label.rect.midX, y: first.label.rect.midY),
          PixelPoint(x: second.label.rect.midX, y: second.label.rect.midY))
        let limit = 2 * (spacing[first.layer] ?? 250)
        // The label's middle may sit off its rectangle's centre on a bent street: allow a label length.
        XCTAssertGreaterThan(
          distance + max(first.label.rect.width, first.label.rect.height), limit,
          "\(first.label.text) appears twice, \(distance) points apart")
      }
    }
  }

  func testPlacesMappedTwiceAreNamedOnce() throws {
    // Senate Square at zoom 18: the National Library is in the tiles twice (the building and a point).
    let camera = Camera(
      center: Coordinate(latitude: 60.16951, longitude: 24.95227), zoom: 18,
      size: PixelSize(width: 1200, height: 800))
    let layer = try VectorMapFixtures.render(style: try VectorMapFixtures.style("light"), camera: camera)
      .layer
    let points = layer.placedLabels.filter { if case .point = $0.label.drawing { true } else { false } }
    XCTAssertEqual(points.filter { $0.label.text == "Kansalliskirjasto" }.count, 1)
    XCTAssertTrue(points.contains { $0.label.text == "Helsingin tuomiokirkko" }, "the cathedral is named")
    for (index, first) in points.enumerated() {
      for second in points[(index + 1)...] where first.label.text == second.label.text {
        let distance = LabelLine.distance(
          PixelPoint(x: first.label.rect.midX, y: first.label.rect.midY),
          PixelPoint(x: second.label.rect.midX, y: second.label.rect.midY))
        XCTAssertGreaterThan(distance, LabelPlacement.pointRepeatDistance - 1, first.label.text)
      }
    }
  }

  func testCurvedLabelsBendNoMoreThanTheStyleAllows() throws {
    let (layer, style) = try placed("light")
    let maxAngle = symbolValues(style, zoom: layer.tiling.styleZoom) { $0.textMaxAngle.value(atZoom: $1) }
    var checked = 0
    for (layerID, label) in layer.placedLabels {
      guard case .curved(_, let glyphs) = label.drawing else { continue }
      let limit = try XCTUnwrap(maxAngle[layerID]) * .pi / 180
      for (a, b) in zip(glyphs, glyphs.dropFirst()) {
        var turn = abs(a.angle - b.angle).truncatingRemainder(dividingBy: 2 * .pi)
        if turn > .pi { turn = 2 * .pi - turn }
        XCTAssertLessThanOrEqual(turn, limit + 1e-9, "\(label.text) bends \(turn * 180 / .pi)°")
      }
      // Upright: the text runs left to right, or (near vertical) upwards.
      let first = try XCTUnwrap(glyphs.first).point
      let last = try XCTUnwrap(glyphs.last).point
      let direction = atan2(last.y - first.y, last.x - first.x) * 180 / .pi
      XCTAssertTrue((-100.0..<80.0).contains(direction), "\(label.text) runs at \(direction)°")
      checked += 1
    }
    XCTAssertGreaterThan(checked, 10)
  }

  /// Every street name is drawn, with its halo: blue letters and a red halo in each label's box, in
  /// bands and on one canvas, and where a line layer after the labels keeps them off the bands; and its
  /// letters where there is no halo. (Reading a street name's glyph outlines once wiped the path the
  /// names before it had added: only the last name of a colour got its halo, or, without halos, its
  /// letters.)
  func testEveryStreetNameIsDrawnWithItsHalo() throws {
    let camera = try VectorMapFixtures.exampleCamera()
    let height = Int(camera.pixelSize.height)
    let light = try styleObject("light")
    var lineOnTop = light
    var layers = try XCTUnwrap(lineOnTop["layers"] as? [[String: Any]])
    let source = try XCTUnwrap(layers.first { $0["source-layer"] as? String == "transportation" }?["source"])
    layers.append([
      "id": "rail-on-top", "type": "line", "source": source, "source-layer": "transportation",
      "filter": ["==", "class", "rail"], "paint": ["line-color": "#00ff00", "line-width": 0.5],
    ])
    lineOnTop["layers"] = layers
    for (name, object) in [("labels last", light), ("a line after the labels", lineOnTop)] {
      for bands in [nil, [0..<height]] {
        for halo in [true, false] {
          let case_ = "\(name), \(bands == nil ? "4 bands" : "1 band"), \(halo ? "halo" : "no halo")"
          let drawn = try VectorMapFixtures.render(
            style: try labelsInBlue(object, redHalo: halo), camera: camera, bands: bands)
          let image = try PNGCodec.decode(drawn.data)
          var checked = 0
          for label in drawn.layer.placedLabels.map(\.1) {
            guard case .curved = label.drawing else { continue }
            var (letters, haloPixels) = (0, 0)
            let rect = label.rect
            for y in max(Int(rect.minY), 0)..<min(Int(rect.maxY.rounded(.up)), image.height) {
              for x in max(Int(rect.minX), 0)..<min(Int(rect.maxX.rounded(.up)), image.width) {
                let index = (y * image.width + x) * 4
                let (r, g, b) = (
                  Int(image.rgba[index]), Int(image.rgba[index + 1]), Int(image.rgba[index + 2])
                )
                if b > r + 60, b > g + 60 { letters += 1 }
                if r > b + 100, r > g + 100 { haloPixels += 1 }
              }
            }
            XCTAssertGreaterThan(letters, 10, "\(case_): \(label.text) has no letters")
            if halo {
              XCTAssertGreaterThan(haloPixels, 20, "\(case_): \(label.text) has no halo")
            } else {
              XCTAssertEqual(haloPixels, 0, "\(case_): \(label.text)")
            }
            checked += 1
          }
          XCTAssertGreaterThan(checked, 20, case_)
        }
      }
    }
  }

  private func styleObject(_ name: String) throws -> [String: Any] {
    let url = RepositoryPaths.styles.appendingPathComponent("vector/\(name).json")
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  /// The style `object` describes, every label's letters blue; with `redHalo` its halo red, else none.
  private func labelsInBlue(_ object: [String: Any], redHalo: Bool) throws -> MapStyle {
    var object = object
    if let layers = object["layers"] as? [[String: Any]] {
      object["layers"] = layers.map { layer -> [String: Any] in
        guard layer["type"] as? String == "symbol" else { return layer }
        var layer = layer
        var paint = layer["paint"] as? [String: Any] ?? [:]
        paint["text-color"] = "#0000ff"
        paint["text-halo-color"] = "#ff0000"
        paint["text-halo-width"] = redHalo ? 1.4 : 0
        layer["paint"] = paint
        return layer
      }
    }
    return try MapStyle(bytes: [UInt8](JSONSerialization.data(withJSONObject: object)))
  }
}
