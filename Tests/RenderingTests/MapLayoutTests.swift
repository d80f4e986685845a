import Foundation
import JSON
import MapMath
import TestSupport
import XCTest

@testable import Rendering

final class MapLayoutTests: XCTestCase {
  private func layout(
    annotations: [MapLayout.AnnotationLayout] = [], user: MapLayout.UserLayout? = nil, dropped: [String] = [],
    tileZoom: Int? = 13, labels: [MapLayout.MapLabel] = []
  ) -> MapLayout {
    MapLayout(
      width: 1600, height: 1200, scale: 2, format: .png,
      camera: Camera(
        center: Coordinate(latitude: 37.3349, longitude: -122.009), zoom: 12.5,
        size: PixelSize(width: 800, height: 600), scale: 2),
      bounds: GeoBox(north: 37.4, south: 37.2, west: -122.1, east: -121.9),
      tiles: .init(source: "/tiles/x.mbtiles", zoom: tileZoom, needed: 24, drawn: 23, missing: 1),
      annotations: annotations, user: user, droppedCallouts: dropped, labels: labels)
  }

  private func annotation(
    id: String = "apple-park", title: String = "Apple Park", subtitle: String? = nil,
    callout: PixelRect? = nil,
    point: PixelPoint = PixelPoint(x: 800.123456, y: 600.006)
  ) -> MapLayout.AnnotationLayout {
    MapLayout.AnnotationLayout(
      id: id, title: title, subtitle: subtitle,
      coordinate: Coordinate(latitude: 37.3349, longitude: -122.009),
      point: point, pin: PixelRect(x: 791.5, y: 541, width: 40, height: 62), callout: callout)
  }

  private func parse(_ json: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    return try XCTUnwrap(object as? [String: Any])
  }

  // MARK: The exact text

  func testTheExactText() {
    let label = MapLayout.MapLabel(
      text: "Cupertino", layer: "place_city", rect: PixelRect(x: 10.254, y: 20, width: 60.5, height: 14))
    let text = layout(annotations: [annotation()], dropped: ["apple-park"], labels: [label]).json
    let expected = """
      {
        "width": 1600,
        "height": 1200,
        "scale": 2,
        "format": "png",
        "camera": {
          "center": {
            "latitude": 37.3349,
            "longitude": -122.009
          },
          "zoom": 12.5
        },
        "bounds": {
          "north": 37.4,
          "south": 37.2,
          "east": -121.9,
          "west": -122.1
        },
        "tiles": {
          "source": "/tiles/x.mbtiles",
          "zoom": 13,
          "needed": 24,
          "drawn": 23,
          "missing": 1
        },
        "annotations": [
          {
            "id": "apple-park",
            "title": "Apple Park",
            "subtitle": null,
            "latitude": 37.3349,
            "longitude": -122.009,
            "point": {
              "x": 800.12,
              "y": 600.01
            },
            "pin": {
              "x": 791.5,
              "y": 541,
              "width": 40,
              "height": 62
            },
            "callout": null,
            "number": null
          }
        ],
        "user": null,
        "droppedCallouts": [
          "apple-park"
        ],
        "labels": [
          {
            "text": "Cupertino",
            "layer": "place_city",
            "rect": {
              "x": 10.25,
              "y": 20,
              "width": 60.5,
              "height": 14
            }
          }
        ],
        "legend": null,
        "plates": [],
        "tracks": []
      }

      """
    XCTAssertEqual(text, expected)
  }

  func testEmptyListsAndAUser() throws {
    let user = MapLayout.UserLayout(
      coordinate: Coordinate(latitude: 37.3318, longitude: -122.0312), point: PixelPoint(x: 10.5, y: -0.001))
    let text = layout(user: user, tileZoom: nil).json
    XCTAssertTrue(text.contains("\"annotations\": [],\n"), text)
    XCTAssertTrue(text.contains("\"droppedCallouts\": [],\n  \"labels\": [],\n"), text)
    XCTAssertTrue(text.contains("\"legend\": null,\n  \"plates\": [],\n  \"tracks\": []\n}"), text)
    XCTAssertTrue(text.contains("\"zoom\": null,\n"), text)
    XCTAssertTrue(
      text.contains(
        """
          "user": {
            "latitude": 37.3318,
            "longitude": -122.0312,
            "point": {
              "x": 10.5,
              "y": 0
            }
          },
        """), text)
  }

  // MARK: ARCHITECTURE.md §4's keys and values

  func testTheKeysOfDesignSection4() throws {
    let callout = PixelRect(x: 700, y: 480, width: 200, height: 56)
    let user = MapLayout.UserLayout(
      coordinate: Coordinate(latitude: 37.3318, longitude: -122.0312), point: PixelPoint(x: 10, y: 20))
    let root = try parse(
      layout(annotations: [annotation(subtitle: "Landmark", callout: callout)], user: user).json)
    // ARCHITECTURE.md §5 lists these.
    XCTAssertEqual(
      Set(root.keys),
      [
        "width", "height", "scale", "format", "camera", "bounds", "tiles", "annotations", "user",
        "droppedCallouts", "labels", "legend", "plates", "tracks",
      ])
    XCTAssertEqual(root["width"] as? Int, 1600)
    XCTAssertEqual(root["height"] as? Int, 1200)
    XCTAssertEqual(root["scale"] as? Double, 2)
    XCTAssertEqual(root["format"] as? String, "png")
    let camera = try XCTUnwrap(root["camera"] as? [String: Any])
    XCTAssertEqual(Set(camera.keys), ["center", "zoom"])
    XCTAssertEqual(Set(try XCTUnwrap(camera["center"] as? [String: Any]).keys), ["latitude", "longitude"])
    XCTAssertEqual(
      Set(try XCTUnwrap(root["bounds"] as? [String: Any]).keys), ["north", "south", "east", "west"])
    XCTAssertEqual(
      Set(try XCTUnwrap(root["tiles"] as? [String: Any]).keys),
      ["source", "zoom", "needed", "drawn", "missing"])
    let annotations = try XCTUnwrap(root["annotations"] as? [[String: Any]])
    XCTAssertEqual(annotations.count, 1)
    XCTAssertEqual(
      Set(annotations[0].keys),
      ["id", "title", "subtitle", "latitude", "longitude", "point", "pin", "callout", "number"])
    XCTAssertEqual(annotations[0]["subtitle"] as? String, "Landmark")
    XCTAssertEqual(Set(try XCTUnwrap(annotations[0]["point"] as? [String: Any]).keys), ["x", "y"])
    XCTAssertEqual(
      Set(try XCTUnwrap(annotations[0]["pin"] as? [String: Any]).keys), ["x", "y", "width", "height"])
    let calloutObject = try XCTUnwrap(annotations[0]["callout"] as? [String: Any])
    XCTAssertEqual(Set(calloutObject.keys), ["x", "y", "width", "height"])
    XCTAssertEqual(calloutObject["width"] as? Double, 200)
    let userObject = try XCTUnwrap(root["user"] as? [String: Any])
    XCTAssertEqual(Set(userObject.keys), ["latitude", "longitude", "point"])
  }

  func testCalloutAndUserAreNullWhenAbsent() throws {
    let root = try parse(layout(annotations: [annotation()]).json)
    let annotations = try XCTUnwrap(root["annotations"] as? [[String: Any]])
    XCTAssertTrue(annotations[0]["callout"] is NSNull, "\(String(describing: annotations[0]["callout"]))")
    XCTAssertTrue(annotations[0]["subtitle"] is NSNull)
    XCTAssertTrue(root["user"] is NSNull)
  }

  func testNumbersAreRoundedAndPlain() throws {
    let tiny = annotation(point: PixelPoint(x: 0.00001, y: -0.001))
    var item = tiny
    item.coordinate = Coordinate(latitude: 0.00001, longitude: -0.000000001)
    item.pin = PixelRect(x: -0.0, y: 1e-7, width: 12.345, height: 0.125)
    var map = layout(annotations: [item])
    map.camera.zoom = 1.0 / 3
    map.bounds = GeoBox(north: 1e-9, south: -1e-9, west: -0.00000005, east: 179.99999999)
    let text = map.json
    XCTAssertNil(text.firstMatch(of: /[0-9][eE][-+]?[0-9]/), text)
    XCTAssertNil(text.firstMatch(of: /-0(,|\n)/), text)
    XCTAssertTrue(text.contains("\"latitude\": 0.00001,"), text)
    XCTAssertTrue(text.contains("\"longitude\": 0,"), text)
    XCTAssertTrue(text.contains("\"zoom\": 0.333333\n"), text)
    XCTAssertTrue(text.contains("\"north\": 0,\n"), text)
    XCTAssertTrue(text.contains("\"south\": 0,\n"), text)
    XCTAssertTrue(text.contains("\"west\": -0.0000001\n"), text)
    XCTAssertTrue(text.contains("\"east\": 180,\n"), text)
    XCTAssertTrue(text.contains("\"width\": 12.35,"), text)
    XCTAssertTrue(text.contains("\"height\": 0.13\n"), text)
    _ = try parse(text)
  }

  func testStringsAreEscaped() throws {
    let title = "He said \"hi\"\\ then\nleft\r\tat 5\u{1}\u{1F}\u{7F} — Zürich 東京 🗺️ \u{2028}"
    let text = layout(annotations: [annotation(id: "a\"b", title: title, subtitle: "line\nbreak")]).json
    XCTAssertTrue(
      text.contains(
        #""title": "He said \"hi\"\\ then\nleft\r\tat 5\u0001\u001f\#u{7F} — Zürich 東京 🗺️ \#u{2028}","#), text)
    XCTAssertTrue(text.contains(#""id": "a\"b","#), text)
    XCTAssertTrue(text.contains(#""subtitle": "line\nbreak","#), text)
    // No raw control character is left anywhere (the text's own line breaks are the only ones).
    XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let root = try parse(text)
    let annotations = try XCTUnwrap(root["annotations"] as? [[String: Any]])
    XCTAssertEqual(annotations[0]["title"] as? String, title)
    XCTAssertEqual(annotations[0]["id"] as? String, "a\"b")
    XCTAssertEqual(annotations[0]["subtitle"] as? String, "line\nbreak")
  }

  func testEveryControlCharacterRoundTrips() throws {
    let title = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
    let root = try parse(layout(annotations: [annotation(title: title)]).json)
    let annotations = try XCTUnwrap(root["annotations"] as? [[String: Any]])
    XCTAssertEqual(annotations[0]["title"] as? String, title)
  }

  // MARK: A real render's layout

  func testARenderedLayoutParsesAndAgreesWithTheLayout() throws {
    let places = [
      RenderKit.place("louvre", 48.8606, 2.3376, title: "Louvre"),
      RenderKit.place("eiffel", 48.8584, 2.2945, title: "Tour Eiffel", subtitle: nil),
    ]
    let result = try Snapshotter.render(RenderKit.request(places, width: 300, height: 200, scale: 2))
    let map = result.layout
    let root = try parse(map.json)
    XCTAssertEqual(root["width"] as? Int, 600)
    XCTAssertEqual(root["height"] as? Int, 400)
    XCTAssertEqual(root["scale"] as? Double, 2)
    XCTAssertEqual(root["format"] as? String, "png")
    XCTAssertTrue(root["user"] is NSNull)
    let tiles = try XCTUnwrap(root["tiles"] as? [String: Any])
    XCTAssertEqual(tiles["source"] as? String, "none")
    XCTAssertTrue(tiles["zoom"] is NSNull)
    let annotations = try XCTUnwrap(root["annotations"] as? [[String: Any]])
    XCTAssertEqual(annotations.map { $0["id"] as? String }, ["louvre", "eiffel"])
    XCTAssertTrue(annotations[1]["subtitle"] is NSNull)
    for (object, item) in zip(annotations, map.annotations) {
      let point = try XCTUnwrap(object["point"] as? [String: Any])
      XCTAssertEqual(try XCTUnwrap(point["x"] as? Double), item.point.x, accuracy: 0.005)
      XCTAssertEqual(try XCTUnwrap(point["y"] as? Double), item.point.y, accuracy: 0.005)
      XCTAssertEqual(try XCTUnwrap(object["latitude"] as? Double), item.coordinate.latitude, accuracy: 1e-8)
      XCTAssertEqual(object["title"] as? String, item.title)
    }
    let camera = try XCTUnwrap(root["camera"] as? [String: Any])
    XCTAssertEqual(try XCTUnwrap(camera["zoom"] as? Double), map.camera.zoom, accuracy: 1e-6)
  }

  // MARK: JSONWriter.format

  /// The text the layout writes for a number rounded to `digits` decimals.
  private func format(_ value: Double, digits: Int) -> String {
    guard case .number(let number) = MapLayout.number(value, digits: digits) else { return "not a number" }
    return JSONWriter.numberText(number)
  }

  func testFormat() {
    let cases: [(Double, Int, String)] = [
      (0, 2, "0"), (-0.0, 2, "0"), (1, 2, "1"), (-1, 2, "-1"), (12, 0, "12"), (1600, 2, "1600"),
      (12.5, 2, "12.5"), (0.1, 2, "0.1"), (0.125, 2, "0.13"), (-0.125, 2, "-0.13"), (0.004, 2, "0"),
      (-0.004, 2, "0"), (0.005, 2, "0.01"), (-0.001, 2, "0"), (0.00001, 8, "0.00001"), (1e-5, 2, "0"),
      (-0.00001, 8, "-0.00001"), (1e-9, 8, "0"), (123.456789012, 8, "123.45678901"), (0.5, 0, "1"),
      (0.4, 0, "0"), (100, 0, "100"), (10, 2, "10"), (1.10, 2, "1.1"), (-122.0312, 8, "-122.0312"),
      (85.051128779806, 7, "85.0511288"), (1e15, 2, "1000000000000000"), (.nan, 2, "null"),
      (.infinity, 2, "null"), (-.infinity, 2, "null"),
    ]
    for (value, digits, expected) in cases {
      XCTAssertEqual(format(value, digits: digits), expected, "\(value) with \(digits) digits")
    }
  }

  func testFormatAlwaysGivesAPlainJSONNumber() throws {
    var generator = SeededGenerator(seed: 42)
    // Up to 1e9: far past any pixel or degree (past 9e18 / 10^digits the writer falls back to `String(value)`).
    for _ in 0..<2000 {
      let magnitude = pow(10, Double.random(in: -12...9, using: &generator))
      let value = (Bool.random(using: &generator) ? -1 : 1) * magnitude
      let digits = Int.random(in: 0...8, using: &generator)
      let text = format(value, digits: digits)
      XCTAssertNotNil(text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?/), "\(value): \(text)")
      XCTAssertNotEqual(text, "-0", "\(value)")
      let parsed = try XCTUnwrap(Double(text), text)
      XCTAssertEqual(
        parsed, value, accuracy: 0.5 * pow(10, -Double(digits)) * 1.000001 + abs(value) * 1e-15, text)
    }
  }
}
