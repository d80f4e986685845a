import Foundation
import ImageCodecs
import MapMath
import Rendering
import TestSupport
import Tiles
import XCTest

/// Golden maps drawn over the real built-in basemap data (`Data/basemap.sqlite`, or the file that
/// `$MYMAP_BASEMAP` names). Skipped, saying why, when the data file is not there.
final class VectorBasemapRealDataTests: XCTestCase {
  private func basemap() throws -> BasemapData {
    let environment = ProcessInfo.processInfo.environment
    let path =
      environment[BasemapData.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
      ?? RepositoryPaths.root.appendingPathComponent("Data/\(BasemapData.fileName)").path
    guard FileManager.default.fileExists(atPath: path) else {
      throw TestPrerequisiteMissing(
        "the built-in basemap goldens need the basemap data file \(path), which is not present")
    }
    return try BasemapData(path: path)
  }

  private func place(
    _ id: String, _ latitude: Double, _ longitude: Double, _ title: String, _ subtitle: String
  )
    -> PointAnnotation
  {
    PointAnnotation(
      identifier: id, coordinate: Coordinate(latitude: latitude, longitude: longitude), title: title,
      subtitle: subtitle)
  }

  private func render(
    _ places: [PointAnnotation], user: UserPosition? = nil, style: Style = .standard
  ) throws -> RenderResult {
    var request = RenderRequest(annotations: places, user: user)
    request.size = PixelSize(width: 800, height: 600)
    request.basemap = try basemap()
    request.style = style
    let result = try Snapshotter.render(request)
    XCTAssertEqual(result.layout.tiles.source, "builtin")
    XCTAssertFalse(result.labels.isEmpty, "the map names some places")
    return result
  }

  /// A map at scale 2 is the same map at twice the pixels: no border, coast or island that the scale 1
  /// map lacks (state borders once appeared at 2× only), and the same labels in the same places. Checked
  /// by shrinking the 2× image by half and comparing it with the 1× one outside the labels (text is hinted
  /// for its pixel size, so it differs in its strokes); lines drawn one and two pixels wide differ a little
  /// at their edges, so the check counts pixels that differ strongly.
  func testScaleTwoDrawsTheSameMapAsScaleOne() throws {
    func render(scale: Double) throws -> (RenderResult, RasterImage) {
      var request = RenderRequest(annotations: [])
      request.size = PixelSize(width: 400, height: 300)
      request.scale = scale
      request.center = Coordinate(latitude: 47, longitude: 12)
      request.zoom = 4.2
      request.basemap = try basemap()
      request.style.basemap.attribution = ""
      let result = try Snapshotter.render(request)
      return (result, try PNGCodec.decode(Data(result.data)))
    }
    let (singleResult, single) = try render(scale: 1)
    let (doubleResult, double) = try render(scale: 2)
    XCTAssertEqual(singleResult.labels.map(\.text), doubleResult.labels.map(\.text))
    let halved = doubleResult.labels.map { $0.rect.scaled(by: 0.5) }
    for (one, two) in zip(singleResult.labels.map(\.rect), halved) {
      XCTAssertEqual(one.midX, two.midX, accuracy: 1)
      XCTAssertEqual(one.midY, two.midY, accuracy: 1)
    }
    let labels = singleResult.labels.flatMap { [$0.rect] + ($0.dot.map { [$0] } ?? []) }
    var strong = 0
    for y in 0..<single.height {
      for x in 0..<single.width {
        let point = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
        if labels.contains(where: { $0.insetBy(dx: -2, dy: -2).contains(point) }) { continue }
        var difference = 0
        for channel in 0..<3 {
          var sum = 0
          for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            sum += Int(double.rgba[((2 * y + dy) * double.width + 2 * x + dx) * 4 + channel])
          }
          difference = max(difference, abs(sum / 4 - Int(single.rgba[(y * single.width + x) * 4 + channel])))
        }
        if difference > 24 { strong += 1 }
      }
    }
    XCTAssertLessThan(
      strong, 600, "pixels outside the labels that differ strongly between the 1× map and the 2× map halved")
  }

  func testAWorldTrip() throws {
    let result = try render([
      place("eiffel", 48.8584, 2.2945, "Eiffel Tower", "Landmark"),
      place("empire", 40.7484, -73.9857, "Empire State Building", "Landmark"),
      place("tokyo", 35.6586, 139.7454, "Tokyo Tower", "Landmark"),
      place("opera", -33.8568, 151.2153, "Sydney Opera House", "Landmark"),
      place("redeemer", -22.9519, -43.2105, "Christ the Redeemer", "Landmark"),
      place("table", -33.9628, 18.4098, "Table Mountain", "Park"),
    ])
    GoldenImage.assertMatches(Data(result.data), named: "builtin-world")
  }

  private var italy: [PointAnnotation] {
    [
      place("colosseum", 41.8902, 12.4922, "Colosseum", "Historic Building"),
      place("duomo", 43.7731, 11.2560, "Duomo di Firenze", "Historic Building"),
      place("rialto", 45.4380, 12.3359, "Rialto Bridge", "Landmark"),
      place("galleria", 45.4659, 9.1900, "Galleria Vittorio Emanuele II", "Shopping"),
      place("pompeii", 40.7484, 14.4848, "Pompeii", "Historic Building"),
      place("dolomites", 46.6136, 12.2986, "Tre Cime di Lavaredo", "Park"),
    ]
  }

  func testACountryTrip() throws {
    GoldenImage.assertMatches(Data(try render(italy).data), named: "builtin-country")
  }

  func testACountryTripInTheDarkStyle() throws {
    let dark = try Style.load(contentsOf: RepositoryPaths.styles.appendingPathComponent("dark.json"))
    GoldenImage.assertMatches(Data(try render(italy, style: dark).data), named: "builtin-country-dark")
  }

  func testACityWalk() throws {
    // A handful of places within 2 km of Apple Park, and where the user is.
    let result = try render(
      [
        place("apple-park", 37.3349, -122.0090, "Apple Park", "Landmark"),
        place("visitor-center", 37.3327, -122.0053, "Apple Park Visitor Center", "Apple Store"),
        place("infinite-loop", 37.3318, -122.0312, "Infinite Loop", "Historic Building"),
        place("caffe-macs", 37.3236, -122.0162, "Caffe Macs", "Café"),
        place("jollyman", 37.3392, -122.0190, "Jollyman Park", "Park"),
      ], user: UserPosition(coordinate: Coordinate(latitude: 37.3300, longitude: -122.0210), accuracy: 60))
    GoldenImage.assertMatches(Data(result.data), named: "builtin-city")
  }

  private func labels(center: Coordinate, zoom: Double, width: Double = 800, height: Double = 600) throws
    -> [BasemapLabel]
  {
    var request = RenderRequest(annotations: [])
    request.size = PixelSize(width: width, height: height)
    request.center = center
    request.zoom = zoom
    request.basemap = try basemap()
    return try Snapshotter.render(request).labels
  }

  /// A view wider than the world (three copies of Greenland at zoom 1 on 1200 points) names each country
  /// and city once, in the copy nearest the middle of the image.
  func testAViewWiderThanTheWorldNamesEachPlaceOnce() throws {
    let labels = try labels(center: Coordinate(latitude: 20, longitude: 0), zoom: 1, width: 1200, height: 500)
    let texts = labels.map(\.text)
    XCTAssertEqual(texts.count, Set(texts).count, "names drawn twice: \(texts)")
    let greenland = try XCTUnwrap(labels.first { $0.text == "GREENLAND" }, "\(texts)")
    // Greenland's label point (about 41° W) is 58 points left of the middle in the middle copy.
    XCTAssertEqual(greenland.rect.midX, 600 - 58, accuracy: 40)
  }

  /// Paris is named once: not again as its arrondissements ("Paris 13 Gobelins" and "Paris 13e
  /// Arrondissement", the same one under two names) nor as "Gare", a section GeoNames lists beside it.
  func testParisIsNamedWithoutItsSections() throws {
    let texts = try labels(center: Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: 12).map(\.text)
    XCTAssertTrue(texts.contains("Paris"), "\(texts)")
    XCTAssertEqual(texts.filter { $0.hasPrefix("Paris ") || $0 == "Gare" }, [], "\(texts)")
  }

  /// Capitals and large agglomerations come first: the world map names Delhi, Moscow and Beijing (once
  /// hidden under the countries' names, Hyderabad and Shenzhen named instead), and Europe's map sets Paris
  /// and Berlin no smaller than Saint Petersburg (bold for the largest cities of the view).
  func testCapitalsAndAgglomerationsComeFirst() throws {
    let world = try labels(center: Coordinate(latitude: 20, longitude: 10), zoom: 1.6).map(\.text)
    for name in ["Delhi", "Moscow", "Beijing"] { XCTAssertTrue(world.contains(name), "\(name) in \(world)") }
    // A continent at zoom 3: the largest cities lead there too (Cairo, Delhi and Moscow were hidden under
    // the names of Qatar, Cyprus and Belarus while Volgograd and Kano were named).
    let asia = try labels(center: Coordinate(latitude: 20, longitude: 60), zoom: 3, width: 1000, height: 600)
      .map(\.text)
    for name in ["Cairo", "Delhi", "Moscow", "Mumbai", "Beijing"] {
      XCTAssertTrue(asia.contains(name), "\(name) in \(asia)")
    }
    let europe = try labels(center: Coordinate(latitude: 52, longitude: 15), zoom: 3.6)
    func height(_ name: String) throws -> Double {
      try XCTUnwrap(europe.first { $0.text == name }, "\(europe.map(\.text))").rect.height
    }
    XCTAssertGreaterThanOrEqual(try height("Paris"), try height("Saint Petersburg"))
    XCTAssertGreaterThanOrEqual(try height("Berlin"), try height("Saint Petersburg"))
  }

  /// Fiji, Samoa and Tonga are named on their islands (the 1:110 m countries lack Samoa and Tonga).
  func testSmallIslandCountriesAreNamed() throws {
    let texts = try labels(center: Coordinate(latitude: -17, longitude: -177), zoom: 5.3).map(\.text)
    for name in ["FIJI", "SAMOA", "TONGA"] { XCTAssertTrue(texts.contains(name), "\(name) in \(texts)") }
  }

  /// Paris has the Seine: from zoom 5 rivers are drawn in the lakes' colour (Natural Earth 1:50 m centre
  /// lines), up to zoom 10, past which the source's lines stray too far from the real banks.
  func testRiversFromTheZoomWhereTheyMatter() throws {
    func waterOnLand(zoom: Double, center: Coordinate) throws -> Int {
      var request = RenderRequest(annotations: [])
      request.size = PixelSize(width: 400, height: 300)
      request.center = center
      request.zoom = zoom
      request.basemap = try basemap()
      request.style.basemap.attribution = ""
      let image = try PNGCodec.decode(Data(try Snapshotter.render(request).data))
      var count = 0
      for y in 0..<image.height {
        for x in 0..<image.width where RGBA(image, x, y).distance(to: request.style.basemap.lake) <= 12 {
          count += 1
        }
      }
      return count
    }
    let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
    XCTAssertGreaterThan(try waterOnLand(zoom: 9, center: paris), 300, "the Seine and the Marne at Paris")
    XCTAssertLessThan(try waterOnLand(zoom: 12, center: paris), 20, "no Seine 3 km south of the Cité")
  }
}
