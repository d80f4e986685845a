import Foundation
import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// Numbered pins and the legend (`PlaceLabels`), the title plate and the scale bar: what the layout says was
/// drawn, and that no plate covers a pin, a callout or another plate.
final class PlaceLabelsTests: XCTestCase {
  private static let cities: [(String, Double, Double)] = [
    ("London", 51.5072, -0.1276), ("Paris", 48.8566, 2.3522), ("Brussels", 50.8503, 4.3517),
    ("Amsterdam", 52.3676, 4.9041), ("Luxembourg", 49.6116, 6.1319), ("Cologne", 50.9375, 6.9603),
    ("Frankfurt am Main", 50.1109, 8.6821), ("Strasbourg", 48.5734, 7.7521), ("Zürich", 47.3769, 8.5417),
    ("Lyon", 45.7640, 4.8357), ("Bordeaux", 44.8378, -0.5792), ("Nantes", 47.2184, -1.5536),
  ]

  private func cities(category: (Int) -> String = { _ in "Historic Building" }) -> [PointAnnotation] {
    PlaceLabelsTests.cities.enumerated().map {
      RenderKit.place(
        "c\($0.offset)", $0.element.1, $0.element.2, title: $0.element.0, subtitle: category($0.offset))
    }
  }

  private func render(_ request: RenderRequest) throws -> RenderResult {
    try Snapshotter.render(request)
  }

  /// Everything a plate must keep clear of: every pin and callout.
  private func marks(_ layout: MapLayout) -> [PixelRect] {
    layout.annotations.flatMap { [$0.pin] + ($0.callout.map { [$0] } ?? []) }
  }

  private func assertPlatesClear(_ layout: MapLayout, file: StaticString = #filePath, line: UInt = #line) {
    let image = PixelRect(x: 0, y: 0, width: Double(layout.width), height: Double(layout.height))
    for plate in layout.plates {
      XCTAssertTrue(image.contains(plate.rect), "\(plate.kind) is inside the image", file: file, line: line)
      for mark in marks(layout) where mark.intersects(plate.rect) {
        XCTFail("\(plate.kind) \(plate.rect) covers \(mark)", file: file, line: line)
      }
    }
    for (index, first) in layout.plates.enumerated() {
      for second in layout.plates[(index + 1)...] where first.rect.intersects(second.rect) {
        XCTFail("\(first.kind) and \(second.kind) overlap", file: file, line: line)
      }
    }
  }

  func testNumbersModeNumbersEveryPinInTheAnnotationsOrder() throws {
    var request = RenderKit.request(Array(cities().prefix(6)), width: 640, height: 480)
    request.labels = .numbers
    let layout = try render(request).layout
    XCTAssertEqual(layout.annotations.map(\.number), [1, 2, 3, 4, 5, 6])
    XCTAssertTrue(layout.annotations.allSatisfy { $0.callout == nil }, "numbers replace the callouts")
    let legend = try XCTUnwrap(layout.legend)
    XCTAssertEqual(legend.rows.map(\.number), [1, 2, 3, 4, 5, 6])
    XCTAssertEqual(legend.rows.map(\.id), ["c0", "c1", "c2", "c3", "c4", "c5"])
    XCTAssertEqual(
      legend.rows.map(\.title), ["London", "Paris", "Brussels", "Amsterdam", "Luxembourg", "Cologne"])
    XCTAssertEqual(legend.rows.first?.category, "Historic Building")
    XCTAssertEqual(legend.more, 0)
    XCTAssertEqual(layout.plates.map(\.kind), ["legend"])
    XCTAssertEqual(layout.plates.first?.rect, legend.rect)
    assertPlatesClear(layout)
  }

  func testAutoNumbersExactlyThePlacesWhoseCalloutsDidNotFit() throws {
    var request = RenderKit.request(cities(), width: 420, height: 300)
    request.labels = .auto
    let result = try render(request)
    let layout = result.layout
    let numbered = layout.annotations.filter { $0.number != nil }
    XCTAssertFalse(numbered.isEmpty, "a 420×300 map cannot hold twelve callouts")
    for item in layout.annotations {
      XCTAssertEqual(item.callout == nil, item.number != nil, "\(item.id): a callout or a number, not both")
    }
    XCTAssertEqual(numbered.map(\.number), Array(1...numbered.count).map { Optional($0) })
    XCTAssertEqual(Set(numbered.map(\.id)), Set(layout.droppedCallouts))
    // The legend names them in number order; in so small a map it may have room for only the first ones.
    let legend = try XCTUnwrap(layout.legend)
    XCTAssertEqual(legend.rows.map(\.id), Array(numbered.map { $0.id }.prefix(legend.rows.count)))
    XCTAssertEqual(legend.rows.count + legend.more, numbered.count)
    XCTAssertTrue(result.warnings.contains(.calloutsNumbered(count: numbered.count, inLegend: true)))
    XCTAssertFalse(result.warnings.contains { if case .calloutsLeftOut = $0 { true } else { false } })
    assertPlatesClear(layout)
  }

  func testWithoutALegendTheNumbersStayAndTheWarningSaysWhereTheyAreNamed() throws {
    var request = RenderKit.request(cities(), width: 420, height: 300)
    request.labels = .auto
    request.showsLegend = false
    request.legendMoreText = { "noch \($0)" }
    let result = try render(request)
    XCTAssertNil(result.layout.legend)
    let numbered = result.layout.annotations.filter { $0.number != nil }.count
    XCTAssertGreaterThan(numbered, 0)
    XCTAssertTrue(result.warnings.contains(.calloutsNumbered(count: numbered, inLegend: false)))
    XCTAssertEqual(
      RenderWarning.calloutsNumbered(count: 3, inLegend: false).description,
      "3 callouts did not fit; their places are numbered (the layout names the numbers)")
  }

  func testASubtitleAloneIsTheTitlePlatesOneLine() throws {
    var request = RenderKit.request(Array(cities().prefix(2)), width: 400, height: 300)
    request.title = MapTitle(title: "", subtitle: "Only this")
    let plate = try XCTUnwrap(try render(request).layout.plates.first)
    XCTAssertEqual(plate.kind, "title")
    XCTAssertEqual(plate.text, "Only this")
    request.title = MapTitle(title: "", subtitle: "")
    XCTAssertTrue(try render(request).layout.plates.isEmpty, "an empty title draws no plate")
  }

  func testCalloutsModeDrawsNoNumbersAndNoLegend() throws {
    var request = RenderKit.request(cities(), width: 420, height: 300)
    request.labels = .callouts
    let layout = try render(request).layout
    XCTAssertFalse(layout.droppedCallouts.isEmpty)
    XCTAssertTrue(layout.annotations.allSatisfy { $0.number == nil })
    XCTAssertNil(layout.legend)
    XCTAssertTrue(layout.plates.isEmpty)
    XCTAssertTrue(layout.json.contains("\"legend\": null"))
  }

  func testALegendTooLongForTheImageEndsWithTheCountOfTheRest() throws {
    // Eighty places in a grid: their legend cannot be 80 rows tall in 300 points.
    var places: [PointAnnotation] = []
    for row in 0..<8 {
      for column in 0..<10 {
        places.append(RenderKit.place("p\(row * 10 + column)", 40 + Double(row), Double(column)))
      }
    }
    var request = RenderKit.request(places, width: 560, height: 300)
    request.labels = .numbers
    let result = try render(request)
    let legend = try XCTUnwrap(result.layout.legend)
    XCTAssertGreaterThan(legend.rows.count, 3)
    XCTAssertLessThan(legend.rows.count, 15)
    XCTAssertEqual(legend.rows.count + legend.more, 80)
    XCTAssertEqual(legend.rows.map(\.number), Array(1...legend.rows.count))
    XCTAssertLessThanOrEqual(legend.rect.height, 300 - 2 * PlateSpacing.margin)
    XCTAssertTrue(result.warnings.contains(.legendShortened(shown: legend.rows.count, total: 80)))
    XCTAssertEqual(result.layout.annotations.compactMap(\.number).count, 80, "every pin keeps its number")
    assertPlatesClear(result.layout)
  }

  func testTheLegendNeverCoversAPinWhereverThePlacesAre() throws {
    var generator = SeededGenerator(seed: 12)
    for trial in 0..<6 {
      let count = 5 + trial * 3
      let places = (0..<count).map { index in
        RenderKit.place(
          "r\(index)", generator.double(in: 30..<60), generator.double(in: -10..<30),
          title: "Place number \(index)")
      }
      var request = RenderKit.request(places, width: 360 + Double(trial) * 60, height: 300)
      request.labels = trial.isMultiple(of: 2) ? .numbers : .auto
      request.title = MapTitle(title: "Trial \(trial)")
      request.scaleBar = .metric
      let layout = try render(request).layout
      assertPlatesClear(layout)
      if request.labels == .numbers { XCTAssertNotNil(layout.legend, "trial \(trial)") }
    }
  }

  func testTheTitleTheScaleBarAndTheLegendAvoidEachOtherAndThePins() throws {
    var request = RenderKit.request(cities(), width: 700, height: 500)
    request.labels = .numbers
    request.title = MapTitle(title: "Twelve cities", subtitle: "1 May 2026 – 9 May 2026")
    request.scaleBar = .metric
    request.style.basemap.attribution = "© Somebody"
    let result = try render(request)
    let layout = result.layout
    XCTAssertEqual(Set(layout.plates.map(\.kind)), ["title", "scaleBar", "legend", "attribution"])
    assertPlatesClear(layout)
    let title = try XCTUnwrap(layout.plates.first { $0.kind == "title" }?.rect)
    XCTAssertEqual(title.midX, 350, accuracy: 1, "the title is centred at the top")
    XCTAssertEqual(title.minY, PlateSpacing.margin)
    let attribution = try XCTUnwrap(result.attribution)
    XCTAssertEqual(layout.plates.first { $0.kind == "attribution" }?.rect, attribution)
    XCTAssertEqual(layout.plates.first { $0.kind == "attribution" }?.text, "© Somebody")
    for plate in layout.plates where plate.kind != "attribution" {
      XCTAssertFalse(plate.rect.intersects(attribution), plate.kind)
    }
    XCTAssertTrue(layout.json.contains("\"kind\": \"scaleBar\""))
  }

  func testAScaleBarInImperialUnitsAndNoneOnAWorldMap() throws {
    var request = RenderKit.request(Array(cities().prefix(3)), width: 500, height: 400)
    request.scaleBar = .imperial
    XCTAssertEqual(try render(request).layout.plates.map(\.kind), ["scaleBar"])
    var world = RenderKit.request(
      [RenderKit.place("a", 60, -150), RenderKit.place("b", -40, 170)], width: 500, height: 400)
    world.scaleBar = .metric
    XCTAssertTrue(try render(world).layout.plates.isEmpty, "one bar cannot be right across the world")
  }

  func testALongTitleIsCutToTheImageWidth() throws {
    var request = RenderKit.request(Array(cities().prefix(3)), width: 300, height: 300)
    request.title = MapTitle(title: String(repeating: "A very long title ", count: 40))
    let layout = try render(request).layout
    let title = try XCTUnwrap(layout.plates.first?.rect)
    XCTAssertLessThanOrEqual(title.width, 300 - 2 * PlateSpacing.margin + 0.5)
    assertPlatesClear(layout)
  }

  func testAHugeTitleAndHugePlaceTitlesAreCutNotShapedWhole() throws {
    // 2 MB of title and of each legend row: only what can show is laid out (TextLayout.visiblePart).
    let huge = String(repeating: "Ω", count: 1_000_000)
    var request = RenderKit.request(
      (0..<3).map { RenderKit.place("h\($0)", 48 + Double($0), 2, title: huge) }, width: 400, height: 300)
    request.labels = .numbers
    request.title = MapTitle(title: huge, subtitle: huge)
    let start = Date()
    let layout = try render(request).layout
    XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    XCTAssertEqual(layout.legend?.rows.count, 3)
    for plate in layout.plates {
      XCTAssertLessThanOrEqual(plate.rect.width, 400 - 2 * PlateSpacing.margin + 0.5)
    }
  }

  func testTheSameRequestGivesTheSameBytes() throws {
    var request = RenderKit.request(
      cities(category: { $0 % 2 == 0 ? "Bar" : "Park" }), width: 500, height: 400)
    request.labels = .auto
    request.title = MapTitle(title: "Same", subtitle: "bytes")
    request.scaleBar = .imperial
    request.style.pin.categoryColors = ["bar": Color(red: 0.5, green: 0.3, blue: 0.7)]
    for format in [OutputFormat.png, .svg] {
      request.format = format
      let first = try render(request)
      let second = try render(request)
      XCTAssertEqual(first.data, second.data, "\(format)")
      XCTAssertEqual(first.layout, second.layout)
    }
  }

  func testCategoryColoursPaintThePinHeadsAndTheLegendNamesThem() throws {
    let places = [
      RenderKit.place("bar", 48.85, 2.30, title: "Bar", subtitle: "Bar"),
      RenderKit.place("park", 48.85, 2.40, title: "Park", subtitle: "park"),
      RenderKit.place("other", 48.80, 2.35, title: "Other", subtitle: "House"),
    ]
    var request = RenderKit.request(places, width: 400, height: 300)
    request.center = Coordinate(latitude: 48.83, longitude: 2.35)
    request.zoom = 11
    request.showCallouts = false
    request.style.pin.categoryColors = [
      "bar": Color(red: 0.85, green: 0.1, blue: 0.1), "park": Color(red: 0.1, green: 0.2, blue: 0.9),
    ]
    let result = try render(request)
    let image = try RenderKit.decode(result)
    let head = PinGeometry(style: request.style.pin).headCenter
    func headPixel(_ id: String) throws -> RGBA {
      let point = try XCTUnwrap(result.layout.annotations.first { $0.id == id }?.point)
      return RGBA(image, Int(point.x + head.x + 2), Int(point.y + head.y + 2))
    }
    let red = try headPixel("bar")
    XCTAssertGreaterThan(red.r, red.g + 90, "Bar is red: \(red)")
    XCTAssertGreaterThan(red.r, red.b + 90, "Bar is red: \(red)")
    let blue = try headPixel("park")
    XCTAssertGreaterThan(blue.b, blue.r + 90, "Park is blue whatever its case: \(blue)")
    let green = try headPixel("other")
    XCTAssertGreaterThan(green.g, green.r + 60, "a category without a colour keeps the pin green: \(green)")
    XCTAssertGreaterThan(green.g, green.b + 60, "a category without a colour keeps the pin green: \(green)")
    let legend = try XCTUnwrap(result.layout.legend)
    XCTAssertEqual(legend.categories.map(\.name), ["Bar", "House", "park"])
    XCTAssertEqual(legend.categories.map(\.color.description), ["#D91A1A", "#52D166", "#1A33E6"])
    XCTAssertTrue(legend.rows.isEmpty)
    XCTAssertTrue(result.layout.json.contains("\"color\": \"#D91A1A\""))
  }

  func testTheDefaultStyleDrawsNoCategoryLegend() throws {
    var request = RenderKit.request(Array(cities().prefix(3)), width: 500, height: 400)
    request.labels = .auto
    let layout = try render(request).layout
    XCTAssertTrue(layout.droppedCallouts.isEmpty)
    XCTAssertNil(layout.legend, "nothing numbered and no colours: no legend")
  }
}

/// Past `PlaceNumbering.maximumNumbered` places, none is numbered, and the render says so.
final class PlaceNumberingLimitTests: XCTestCase {
  func testTooManyPlacesAreNotNumbered() throws {
    var generator = SeededGenerator(seed: 7)
    let places = (0...PlaceNumbering.maximumNumbered).map { index in
      RenderKit.place("p\(index)", generator.double(in: 40..<50), generator.double(in: 0..<10))
    }
    var request = RenderKit.request(places, width: 300, height: 200)
    request.labels = .numbers
    request.clustering = .never
    let result = try Snapshotter.render(request)
    XCTAssertTrue(result.layout.annotations.allSatisfy { $0.number == nil })
    XCTAssertNil(result.layout.legend)
    XCTAssertEqual(result.warnings.first, .tooManyToNumber(maximum: 999))
    XCTAssertEqual(
      result.warnings.first?.description,
      "more than 999 places would need a number: none is numbered (their pins stay unnamed)")
  }
}
