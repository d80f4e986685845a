import Foundation
import XCTest

/// `--layout-json`: what was drawn and where, and the options that choose which places are drawn.
final class LayoutJSONTests: XCTestCase {
  private func layout(
    _ extra: [String], size: String = "200x150", file: StaticString = #filePath, line: UInt = #line
  ) throws -> Layout {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--out", "map.png", "--layout-json", "-", "-q"] + extra, size: size), file: file,
      line: line)
    assertSucceeded(result, file: file, line: line)
    XCTAssertEqual(result.stderr, "", "--quiet prints nothing", file: file, line: line)
    return try Layout(result.stdout, file: file, line: line)
  }

  func testDocumentShape() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--out", "map.png", "--layout-json", "layout.json"], size: "800x600"))
    assertSucceeded(result)
    XCTAssertTrue(result.stdout.isEmpty)
    let layout = try Layout(try XCTUnwrap(sandbox.contents(of: "layout.json")))

    let keys: Set = [
      "width", "height", "scale", "format", "camera", "bounds", "tiles", "annotations", "user",
    ]
    XCTAssertTrue(keys.isSubset(of: layout.json.keys), "missing keys: \(keys.subtracting(layout.json.keys))")
    XCTAssertEqual(layout.width, 800)
    XCTAssertEqual(layout.height, 600)
    XCTAssertEqual(layout.scale, 1)
    XCTAssertEqual(layout.json["format"] as? String, "png")

    let center = try XCTUnwrap(layout.camera["center"] as? [String: Any])
    XCTAssertNotNil(number(center["latitude"]))
    XCTAssertNotNil(number(center["longitude"]))
    XCTAssertNotNil(number(layout.camera["zoom"]))
    let bounds = try XCTUnwrap(layout.json["bounds"] as? [String: Any])
    let north = try XCTUnwrap(number(bounds["north"]))
    let south = try XCTUnwrap(number(bounds["south"]))
    XCTAssertGreaterThan(north, south)
    XCTAssertNotNil(number(bounds["east"]))
    XCTAssertNotNil(number(bounds["west"]))

    XCTAssertEqual(layout.tiles["source"] as? String, Inputs.europeTiles)
    let needed = try XCTUnwrap(number(layout.tiles["needed"]))
    XCTAssertGreaterThan(needed, 0)
    XCTAssertEqual(number(layout.tiles["drawn"]), needed)
    XCTAssertEqual(number(layout.tiles["missing"]), 0)

    XCTAssertEqual(layout.annotations.count, 13)
    XCTAssertEqual(layout.ids, Inputs.europeIDs)
    XCTAssertTrue(
      layout.userIsNull, "user is null without --user: \(String(describing: layout.json["user"]))")

    for annotation in layout.annotations {
      let id = annotation["id"] as? String ?? "?"
      XCTAssertNotNil(annotation["title"] as? String, id)
      XCTAssertNotNil(number(annotation["latitude"]), id)
      XCTAssertNotNil(number(annotation["longitude"]), id)
      let pin = try XCTUnwrap(rect(annotation["pin"]), "\(id) has a pin rectangle")
      XCTAssertGreaterThan(pin.width, 0, id)
      XCTAssertGreaterThan(pin.height, 0, id)
      XCTAssertTrue(
        pin.x >= 0 && pin.y >= 0 && pin.x + pin.width <= 800 && pin.y + pin.height <= 600,
        "the pin of \(id) is inside the image: \(pin)")
      if let callout = rect(annotation["callout"]) {
        XCTAssertTrue(
          callout.x >= 0 && callout.y >= 0 && callout.x + callout.width <= 800
            && callout.y + callout.height <= 600,
          "the callout of \(id) is inside the image: \(callout)")
      } else {
        XCTAssertTrue(annotation["callout"] is NSNull, "\(id): callout is a rectangle or null")
      }
    }
    let callouts = layout.annotations.filter { !($0["callout"] is NSNull) }
    XCTAssertFalse(callouts.isEmpty, "at 800x600 some callouts fit")
  }

  func testScaleAppliesToEveryPixelValue() throws {
    let one = try layout([])
    let two = try layout(["--scale", "2"])
    XCTAssertEqual(two.width, 400)
    XCTAssertEqual(two.height, 300)
    XCTAssertEqual(two.scale, 2)
    let pinOne = try XCTUnwrap(rect(one.annotations.first?["pin"]))
    let pinTwo = try XCTUnwrap(rect(two.annotations.first?["pin"]))
    XCTAssertEqual(pinTwo.width, pinOne.width * 2, accuracy: 0.01)
    XCTAssertEqual(pinTwo.height, pinOne.height * 2, accuracy: 0.01)
  }

  func testFormatIsReported() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "m.pdf", "--layout-json", "-", "-q"]))
    assertSucceeded(result)
    XCTAssertEqual(try Layout(result.stdout).json["format"] as? String, "pdf")
  }

  func testLayoutToStdoutWithImageToFileAndTheOtherWayRound() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "-", "--layout-json", "l.json", "-q"]))
    assertSucceeded(result)
    assertPNG(result.stdout, width: 200, height: 150)
    XCTAssertEqual(try Layout(try XCTUnwrap(sandbox.contents(of: "l.json"))).annotations.count, 13)
  }

  func testUserPosition() throws {
    let layout = try layout(["--user", "48.8566,2.3522,65"], size: "800x600")
    let user = try XCTUnwrap(layout.user, "user is set with --user")
    XCTAssertEqual(try XCTUnwrap(number(user["latitude"])), 48.8566, accuracy: 1e-9)
    XCTAssertEqual(try XCTUnwrap(number(user["longitude"])), 2.3522, accuracy: 1e-9)
    let point = try XCTUnwrap(user["point"] as? [String: Any])
    let x = try XCTUnwrap(number(point["x"]))
    let y = try XCTUnwrap(number(point["y"]))
    XCTAssertTrue((0...800).contains(x) && (0...600).contains(y), "the user dot is inside: \(x), \(y)")
    XCTAssertEqual(layout.annotations.count, 13)
  }

  func testUserFromTheLocationsFile() throws {
    let sandbox = try Sandbox()
    let input = try sandbox.write(
      #"{ "user": { "latitude": 37.3318, "longitude": -122.0312 }, "locations": [] }"#, to: "me.json")
    let result = try sandbox.run([
      "render", "--locations", input, "--size", "100x100", "--layout-json", "-", "-q",
    ])
    assertSucceeded(result)
    let layout = try Layout(result.stdout)
    XCTAssertEqual(number(layout.user?["latitude"]), 37.3318)
    XCTAssertEqual(layout.annotations.count, 0)
  }

  func testCalloutsNone() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--callouts", "none", "--out", "m.png", "--layout-json", "-"], size: "800x600"))
    assertSucceeded(result)
    XCTAssertEqual(result.stderr, "", "no callouts asked, so no warning that some did not fit")
    let layout = try Layout(result.stdout)
    XCTAssertEqual(layout.annotations.count, 13)
    for annotation in layout.annotations {
      XCTAssertTrue(annotation["callout"] is NSNull, "callout of \(annotation["id"] ?? "?") is null")
      XCTAssertNotNil(rect(annotation["pin"]))
    }
  }

  func testCategoryFilter() throws {
    XCTAssertEqual(try layout(["--category", "Park"]).ids, ["vigelandsparken", "parque-del-retiro"])
    XCTAssertEqual(
      try layout(["--category", "park"]).ids, ["vigelandsparken", "parque-del-retiro"], "any case")
    XCTAssertEqual(
      try layout(["--category", "Park", "--category", "Bar"]).ids,
      ["vigelandsparken", "u-fleku", "parque-del-retiro"])
  }

  func testSinceAndUntil() throws {
    XCTAssertEqual(
      try layout(["--since", "2025-06-11", "--until", "2025-06-24"]).ids,
      ["brandenburger-tor", "vigelandsparken", "u-fleku", "colosseum", "gelateria-dei-neri"])
    XCTAssertEqual(
      try layout(["--until", "2025-06-02"]).ids, ["eiffel-tower", "shakespeare-and-company"],
      "a plain --until day includes the whole day")
    XCTAssertEqual(
      try layout(["--since", "2025-07-05T18:25:00Z"]).ids, ["parque-del-retiro", "livraria-lello"],
      "--since includes its own instant")
    XCTAssertEqual(
      try layout(["--until", "2025-06-02T12:00:00Z"]).ids, ["eiffel-tower"], "a time in --until is exact")
  }

  func testUserOnlyWithoutLocations() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "render", "--user", "48.8566,2.3522,65", "--tiles", Inputs.europeTiles, "--size", "200x150",
        "--out", "me.png", "--layout-json", "-",
      ])
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "me.png"), width: 200, height: 150)
    let layout = try Layout(result.stdout)
    XCTAssertEqual(layout.annotations.count, 0)
    XCTAssertEqual(number(layout.user?["latitude"]), 48.8566)
    let center = try XCTUnwrap(layout.camera["center"] as? [String: Any])
    XCTAssertEqual(try XCTUnwrap(number(center["latitude"])), 48.8566, accuracy: 0.5)
    XCTAssertEqual(try XCTUnwrap(number(center["longitude"])), 2.3522, accuracy: 0.5)
  }

  func testCenterAndZoom() throws {
    let layout = try layout(["--center", "48.85,2.35", "--zoom", "5"], size: "400x300")
    let center = try XCTUnwrap(layout.camera["center"] as? [String: Any])
    XCTAssertEqual(number(center["latitude"]), 48.85)
    XCTAssertEqual(number(center["longitude"]), 2.35)
    XCTAssertEqual(number(layout.camera["zoom"]), 5)
    XCTAssertEqual(number(layout.tiles["zoom"]), 5)
  }

  func testCenterOnlyWithoutLocations() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "render", "--center", "41.9,12.5", "--span-meters", "50000", "--tiles", Inputs.europeTiles,
        "--size", "200x150", "--out", "rome.png", "--layout-json", "-", "-q",
      ])
    assertSucceeded(result)
    let layout = try Layout(result.stdout)
    XCTAssertEqual(layout.annotations.count, 0)
    XCTAssertTrue(layout.userIsNull)
    let bounds = try XCTUnwrap(layout.json["bounds"] as? [String: Any])
    let north = try XCTUnwrap(number(bounds["north"]))
    let south = try XCTUnwrap(number(bounds["south"]))
    // 50 km is about 0.45° of latitude; the whole-zoom map shows at least that.
    XCTAssertGreaterThanOrEqual(north - south, 0.44)
    XCTAssertTrue(south < 41.9 && 41.9 < north)
  }

  func testFractionalZoom() throws {
    let whole = try layout([], size: "400x300")
    let fractional = try layout(["--fractional-zoom"], size: "400x300")
    let wholeZoom = try XCTUnwrap(number(whole.camera["zoom"]))
    let fractionalZoom = try XCTUnwrap(number(fractional.camera["zoom"]))
    XCTAssertEqual(wholeZoom, wholeZoom.rounded(), "without --fractional-zoom the zoom is whole")
    XCTAssertNotEqual(fractionalZoom, fractionalZoom.rounded(), "this example fits at a fractional zoom")
    XCTAssertGreaterThanOrEqual(fractionalZoom, wholeZoom)
  }
}
