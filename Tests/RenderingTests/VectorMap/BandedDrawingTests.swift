import Foundation
import ImageCodecs
import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// Images are drawn in horizontal bands on several threads: the bands depend on the image alone, meet
/// without a seam, and the map is the same bytes run to run.
final class BandedDrawingTests: XCTestCase {
  func testBandsDependOnTheImageHeightAlone() {
    XCTAssertEqual(BandedDrawing.bands(pixelHeight: 800), [0..<200, 200..<400, 400..<600, 600..<800])
    XCTAssertEqual(BandedDrawing.bands(pixelHeight: 600), [0..<200, 200..<400, 400..<600])
    XCTAssertEqual(BandedDrawing.bands(pixelHeight: 150), [0..<150])
    XCTAssertEqual(BandedDrawing.bands(pixelHeight: 1), [0..<1])
    // The built-in basemap's bands cost less, and start smaller.
    XCTAssertEqual(
      BandedDrawing.bands(pixelHeight: 600, minimumRows: 100), [0..<150, 150..<300, 300..<450, 450..<600])
    XCTAssertEqual(BandedDrawing.bands(pixelHeight: 250, minimumRows: 100), [0..<125, 125..<250])
    for height in [199, 401, 1001, 2400, 9999] {
      let bands = BandedDrawing.bands(pixelHeight: height)
      XCTAssertLessThanOrEqual(bands.count, BandedDrawing.maximumBands)
      XCTAssertEqual(bands.first?.lowerBound, 0)
      XCTAssertEqual(bands.last?.upperBound, height)
      XCTAssertTrue(zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }
  }

  /// The Helsinki example with labels, in bands and with one context. Cairo works out where an edge
  /// crosses a band's first rows afresh, so a pixel within two rows of a band's edge may be off by one of
  /// the 16 antialiasing samples of a line (at most 16 levels); anywhere else at most 2 levels.
  func testBandsMeetWithoutASeam() throws {
    let style = try VectorMapFixtures.style("light")
    for scale in [1.0, 2.0] {
      let camera = try VectorMapFixtures.exampleCamera(scale: scale)
      let height = Int(camera.pixelSize.height)
      let bands = BandedDrawing.bands(pixelHeight: height)
      XCTAssertEqual(bands.count, 4)
      let banded = try PNGCodec.decode(try VectorMapFixtures.render(style: style, camera: camera).data)
      let whole = try PNGCodec.decode(
        try VectorMapFixtures.render(style: style, camera: camera, bands: [0..<height]).data)
      XCTAssertEqual(banded.width, whole.width)
      let seamRows = Set(bands.dropFirst().flatMap { ($0.lowerBound - 2)...($0.lowerBound + 1) })
      var atSeams = 0
      let (a, b) = (banded.rgba, whole.rgba)
      for y in 0..<height
      where a[y * whole.width * 4..<(y + 1) * whole.width * 4]
        != b[y * whole.width * 4..<(y + 1) * whole.width * 4]
      {
        for x in 0..<whole.width {
          let index = (y * whole.width + x) * 4
          var difference = 0
          for channel in index..<index + 4 {
            difference = max(difference, abs(Int(a[channel]) - Int(b[channel])))
          }
          guard difference > 2 else { continue }
          XCTAssertTrue(seamRows.contains(y), "scale \(scale): (\(x), \(y)) differs by \(difference)")
          XCTAssertLessThanOrEqual(difference, 16, "scale \(scale): (\(x), \(y))")
          atSeams += 1
        }
      }
      XCTAssertLessThan(atSeams, whole.width / 10, "scale \(scale): pixels off along the seams")
    }
  }

  func testABandedMapIsTheSameBytesRunToRun() throws {
    let style = try VectorMapFixtures.style("dark")
    let camera = try VectorMapFixtures.exampleCamera()
    let first = try VectorMapFixtures.render(style: style, camera: camera).data
    for _ in 0..<3 {
      XCTAssertEqual(try VectorMapFixtures.render(style: style, camera: camera).data, first)
    }
  }

  func testABandOutsideTheImageIsRefused() throws {
    let canvas = try Canvas(format: .png, pixelWidth: 40, pixelHeight: 30, scale: 1)
    for rows in [-1..<10, 20..<31, 5..<5] {
      XCTAssertThrowsError(try Canvas(band: rows, of: canvas), "\(rows)")
    }
    let svg = try Canvas(format: .svg, pixelWidth: 40, pixelHeight: 30, scale: 1)
    XCTAssertThrowsError(try Canvas(band: 0..<10, of: svg))
    XCTAssertNoThrow(try Canvas(band: 10..<30, of: canvas))
  }
}
