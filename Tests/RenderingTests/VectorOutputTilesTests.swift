import Foundation
import ImageCodecs
import MapMath
import XCTest

@testable import Rendering

/// An SVG or PDF keeps every pixel of the tile image it embeds: it gets only the part in view, without an
/// alpha channel when the tiles have none.
final class VectorOutputTilesTests: XCTestCase {
  private func request(_ format: OutputFormat) throws -> RenderRequest {
    var request = RenderKit.request(
      [RenderKit.place("a", 48.85, 2.35)], width: 600, height: 400, format: format)
    request.tiles = try RenderKit.fixtureTiles()
    request.center = Coordinate(latitude: 48, longitude: 5)
    request.zoom = 4
    return request
  }

  func testAnSVGEmbedsTheTilesInViewOnly() throws {
    let svg = String(decoding: try Snapshotter.render(try request(.svg)).data, as: UTF8.self)
    let embedded = svg.components(separatedBy: "data:image/png;base64,").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    XCTAssertEqual(embedded.count, 1, "one tile image")
    let png = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(embedded.first)))
    let image = try PNGCodec.decode(png)
    // The view is 600 × 400 pixels, resampled from tiles at a fractional offset: two pixels more on each
    // side; the mosaic of its tiles would be 768 × 512 or more.
    XCTAssertEqual(image.width, 605)
    XCTAssertEqual(image.height, 405)
    // Colour type 2: RGB, no alpha (byte 25 of a PNG, in its IHDR chunk).
    XCTAssertEqual(png[png.startIndex + 25], 2)
  }

  func testAPDFIsSmallerThanTheWholeMosaicWouldMakeIt() throws {
    let pdf = try Snapshotter.render(try request(.pdf)).data
    let text = String(decoding: pdf, as: UTF8.self)
    // The image XObject has the view's size (and the resampling margin) and no soft mask.
    XCTAssertTrue(text.contains("/Width 605"), "the tile image is as wide as the view")
    XCTAssertTrue(text.contains("/Height 405"))
    XCTAssertFalse(text.contains("/SMask"), "opaque tiles need no soft mask")
  }
}
