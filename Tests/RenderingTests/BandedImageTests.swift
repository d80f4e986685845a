import Foundation
import ImageCodecs
import MapMath
import Tiles
import XCTest

@testable import Rendering

/// A large PNG over raster tiles is drawn and encoded a band of rows at a time: the same pixels, layout
/// and warnings as the image drawn whole, whatever crosses a band's edge (callouts, pins, the user dot,
/// tiles that are missing, undrawable or translucent), and above the buffered size the same bytes.
final class BandedImageTests: XCTestCase {
  /// Tiles of a colour per tile with a diagonal line (a tile put one pixel off shows); some missing, one
  /// not an image, one with translucent pixels.
  private struct PaintedTiles: TileSource {
    var tileSize: Int { 256 }
    var zoomRange: ClosedRange<Int> { 0...18 }
    var attribution: String? { "© Painted tiles" }
    var description: String { "painted" }
    var missing: Set<TileID> = []
    var broken: Set<TileID> = []
    var translucent: Set<TileID> = []

    func tileData(_ id: TileID) throws -> Data? {
      if missing.contains(id) { return nil }
      if broken.contains(id) { return Data("not a picture".utf8) }
      var image = RasterImage(
        width: 256, height: 256, red: UInt8(id.x * 40 % 256), green: UInt8(id.y * 70 % 256), blue: 90)
      for index in 0..<256 { image.rgba[(index * 256 + index) * 4] = 255 }
      if translucent.contains(id) {
        for index in stride(from: 3, to: image.rgba.count, by: 4) { image.rgba[index] = 100 }
      }
      return try PNGCodec.encode(image)
    }
  }

  private let places = [
    RenderKit.place("cathedral", 60.1702, 24.9522, title: "Helsinki Cathedral"),
    RenderKit.place("station", 60.1710, 24.9414, title: "Central Station"),
    RenderKit.place("market", 60.1675, 24.9530, title: "Market Square"),
    RenderKit.place("museum", 60.1699, 24.9384, title: "Kiasma"),
    RenderKit.place("island", 60.1450, 24.9880, title: "Suomenlinna"),
  ]

  private func request(_ tiles: PaintedTiles, width: Double, height: Double) -> RenderRequest {
    var request = RenderKit.request(
      places, user: UserPosition(coordinate: Coordinate(latitude: 60.160, longitude: 24.960), accuracy: 400),
      width: width,
      height: height)
    request.tiles = tiles
    return request
  }

  /// The map drawn both ways: banded (whatever its size) and whole.
  private func renderBothWays(_ request: RenderRequest) throws -> (banded: RenderResult, whole: RenderResult)
  {
    let banded = try Snapshotter.render(request, adding: [], bandedAbove: 0)
    let whole = try Snapshotter.render(request, adding: [], bandedAbove: .max)
    XCTAssertTrue(banded.phaseTimes.contains { $0.name == "tiles" }, "drawn in bands")
    XCTAssertFalse(whole.phaseTimes.contains { $0.name == "tiles" }, "drawn whole")
    return (banded, whole)
  }

  /// How many pixels differ between the two renders' images (0 when the same).
  private func differingPixels(_ one: RenderResult, _ other: RenderResult) throws -> Int {
    let (a, b) = (try RenderKit.decode(one), try RenderKit.decode(other))
    XCTAssertEqual(a.width, b.width)
    XCTAssertEqual(a.height, b.height)
    return stride(from: 0, to: min(a.rgba.count, b.rgba.count), by: 4).filter {
      a.rgba[$0..<$0 + 4] != b.rgba[$0..<$0 + 4]
    }.count
  }

  func testABandedImageHasThePixelsOfTheImageDrawnWhole() throws {
    var tiles = PaintedTiles()
    let layout = try Snapshotter.render(request(tiles, width: 900, height: 1300)).layout
    // Tiles of the view missing, broken and translucent, in different bands.
    let range = layout.camera.tileRange(tileZoom: try XCTUnwrap(layout.tiles.zoom))
    let sorted = range.tiles.sorted()
    XCTAssertGreaterThan(range.rows.count, 4, "tile rows enough for three bands")
    tiles.missing = [sorted[1]]
    tiles.broken = [sorted[sorted.count / 2]]
    tiles.translucent = [sorted[sorted.count - 2]]
    let (banded, whole) = try renderBothWays(request(tiles, width: 900, height: 1300))
    XCTAssertEqual(try differingPixels(banded, whole), 0)
    XCTAssertEqual(banded.layout, whole.layout)
    XCTAssertEqual(banded.warnings, whole.warnings)
    XCTAssertEqual(banded.layout.tiles.missing, 2)
    XCTAssertEqual(banded.warnings.count, 1 + 1, "one missing, one undrawable: \(banded.warnings)")
  }

  func testAtScaleTwoAndOnEveryBandEdgeThePixelsAreTheSame() throws {
    var request = request(PaintedTiles(), width: 700, height: 900)
    request.scale = 2
    let (banded, whole) = try renderBothWays(request)
    XCTAssertEqual(try differingPixels(banded, whole), 0)
  }

  func testAboveTheBufferedSizeBothWaysWriteTheSameBytes() throws {
    // Filtered rows just over PNGCodec.maximumBufferedBytes: both ways write through PNGRowWriter.
    var request = request(PaintedTiles(), width: 4000, height: 2800)
    request.showCallouts = false
    let banded = try Snapshotter.render(request)
    let whole = try Snapshotter.render(request, adding: [], bandedAbove: .max)
    XCTAssertTrue(banded.phaseTimes.contains { $0.name == "tiles" }, "drawn in bands")
    XCTAssertTrue(banded.data == whole.data, "the same bytes")
  }

  func testATranslucentBackgroundIsDrawnWhole() throws {
    var request = request(PaintedTiles(), width: 600, height: 600)
    request.style.basemap.background = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
    let result = try Snapshotter.render(request, adding: [], bandedAbove: 0)
    XCTAssertFalse(result.phaseTimes.contains { $0.name == "tiles" })
  }
}
