import Foundation
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
}
