import Foundation
import ImageCodecs
import Rendering
import TestSupport
import Tiles
import XCTest

final class ImageComparisonTests: XCTestCase {
  private func image(
    width: Int = 4, height: Int = 3, _ colour: (UInt8, UInt8, UInt8, UInt8) = (40, 120, 200, 255)
  ) -> RasterImage {
    RasterImage(width: width, height: height, red: colour.0, green: colour.1, blue: colour.2, alpha: colour.3)
  }

  private func setting(
    _ image: RasterImage, x: Int, y: Int, to colour: (UInt8, UInt8, UInt8, UInt8)
  ) -> RasterImage {
    var copy = image
    let index = (y * image.width + x) * 4
    copy.rgba[index] = colour.0
    copy.rgba[index + 1] = colour.1
    copy.rgba[index + 2] = colour.2
    copy.rgba[index + 3] = colour.3
    return copy
  }

  func testIdenticalImagesPass() {
    let result = ImageComparison.compare(image(), image(), tolerance: .exact)
    XCTAssertTrue(result.passes)
    XCTAssertTrue(result.sizesMatch)
    XCTAssertEqual(result.differingPixelCount, 0)
    XCTAssertEqual(result.pixelCount, 12)
    XCTAssertEqual(result.differingFraction, 0)
    XCTAssertEqual(result.maximumDifference, 0)
    XCTAssertNil(result.differenceBounds)
    XCTAssertEqual(result.summary, "0 of 12 pixels differ (0.00 %), max difference 0")
  }

  func testOnePixelWithinTheChannelTolerance() {
    // 24 levels on one channel is exactly the standard tolerance: not a differing pixel.
    let changed = setting(image(), x: 2, y: 1, to: (64, 120, 200, 255))
    let result = ImageComparison.compare(image(), changed, tolerance: .standard)
    XCTAssertTrue(result.passes)
    XCTAssertEqual(result.differingPixelCount, 0)
    XCTAssertEqual(result.maximumDifference, 24, "the largest difference is reported even when tolerated")
    XCTAssertNil(result.differenceBounds)
  }

  func testOnePixelOverTheChannelTolerance() {
    let changed = setting(image(), x: 2, y: 1, to: (40, 95, 200, 255))  // green 120 → 95: 25 levels
    let strict = ImageComparison.compare(
      image(), changed, tolerance: ImageTolerance(maxChannelDifference: 24, maxDifferingFraction: 0))
    XCTAssertFalse(strict.passes)
    XCTAssertEqual(strict.differingPixelCount, 1)
    XCTAssertEqual(strict.differingFraction, 1.0 / 12)
    XCTAssertEqual(strict.maximumDifference, 25)
    XCTAssertEqual(strict.differenceBounds, ImageComparisonResult.Bounds(minX: 2, minY: 1, maxX: 2, maxY: 1))
    XCTAssertEqual(strict.summary, "1 of 12 pixels differ (8.33 %), max difference 25, in x 2…2, y 1…1")
    // The same pixel is fine when one pixel in twelve may differ.
    let lenient = ImageComparison.compare(
      image(), changed, tolerance: ImageTolerance(maxChannelDifference: 24, maxDifferingFraction: 1.0 / 12))
    XCTAssertTrue(lenient.passes)
  }

  func testDifferingFractionAtTheStandardTolerance() {
    // 1000 pixels: the standard 0.2 % allows 2 differing pixels, not 3.
    let base = image(width: 100, height: 10)
    let two = setting(setting(base, x: 0, y: 0, to: (0, 0, 0, 255)), x: 99, y: 9, to: (0, 0, 0, 255))
    XCTAssertTrue(ImageComparison.compare(base, two).passes)
    let three = setting(two, x: 50, y: 5, to: (0, 0, 0, 255))
    let result = ImageComparison.compare(base, three)
    XCTAssertFalse(result.passes)
    XCTAssertEqual(result.differenceBounds, ImageComparisonResult.Bounds(minX: 0, minY: 0, maxX: 99, maxY: 9))
  }

  func testSizeMismatchNeverPassesAndHasNoDiffImage() {
    let result = ImageComparison.compare(image(width: 800, height: 600), image(width: 1600, height: 1200))
    XCTAssertFalse(result.sizesMatch)
    XCTAssertFalse(result.passes)
    XCTAssertNil(result.diffImage())
    XCTAssertEqual(result.summary, "image sizes differ: expected 800×600, actual 1600×1200")
  }

  func testTransparentPixelsCompareByWhatTheyShow() {
    // Fully transparent pixels are equal whatever colour they hide; a change of alpha is a difference.
    let clear = image((255, 0, 0, 0))
    XCTAssertEqual(
      ImageComparison.compare(clear, image((0, 255, 0, 0)), tolerance: .exact).differingPixelCount, 0)
    let halfRed = image((255, 0, 0, 128))
    let result = ImageComparison.compare(halfRed, image((255, 0, 0, 100)), tolerance: .exact)
    XCTAssertEqual(result.maximumDifference, 28)  // alpha 128 vs 100
    XCTAssertEqual(result.differingPixelCount, 12)
  }

  func testDiffImageShowsDifferencesInMagentaOverFadedGrey() throws {
    var expected = image(width: 3, height: 1, (0, 0, 0, 255))
    expected = setting(expected, x: 1, y: 0, to: (255, 255, 255, 255))
    expected = setting(expected, x: 2, y: 0, to: (0, 0, 0, 0))
    let actual = setting(expected, x: 0, y: 0, to: (200, 0, 0, 255))
    let result = ImageComparison.compare(expected, actual)
    let diff = try XCTUnwrap(result.diffImage())
    XCTAssertEqual(diff.width, 3)
    XCTAssertEqual(diff.height, 1)
    XCTAssertTrue(diff.pixel(x: 0, y: 0) == (255, 0, 255, 255), "differing pixel is magenta")
    // Unchanged pixels: grey (r = g = b) in 128…255, black → 128, white → 255, transparent shows as white.
    XCTAssertTrue(diff.pixel(x: 1, y: 0) == (255, 255, 255, 255), "\(diff.pixel(x: 1, y: 0))")
    XCTAssertTrue(diff.pixel(x: 2, y: 0) == (255, 255, 255, 255), "\(diff.pixel(x: 2, y: 0))")
    let black = image(width: 1, height: 1, (0, 0, 0, 255))
    let blackDiff = try XCTUnwrap(ImageComparison.compare(black, black).diffImage())
    XCTAssertTrue(blackDiff.pixel(x: 0, y: 0) == (128, 128, 128, 255))
    // A coloured pixel becomes a neutral grey.
    let green = image(width: 1, height: 1, (82, 209, 102, 255))
    let greenDiff = try XCTUnwrap(ImageComparison.compare(green, green).diffImage()).pixel(x: 0, y: 0)
    XCTAssertEqual(greenDiff.red, greenDiff.green)
    XCTAssertEqual(greenDiff.green, greenDiff.blue)
  }

  func testSummaryGroupsThousands() {
    // 1234 pixels in x 10…200, y 5…11 of an 800 × 600 image.
    let expected = image(width: 800, height: 600, (10, 10, 10, 255))
    var actual = expected
    for index in 0..<1234 {
      let offset = ((5 + index / 191) * 800 + 10 + index % 191) * 4
      actual.rgba[offset] = 97
    }
    let result = ImageComparison.compare(expected, actual)
    XCTAssertEqual(
      result.summary,
      "1 234 of 480 000 pixels differ (0.26 %), max difference 87, in x 10…200, y 5…11; most in one 16×16"
        + " block: 112 at x 16, y 0 (2 allowed)")
    XCTAssertFalse(result.passes, "0.26 % is over the standard 0.2 %")
  }

  func testTinyFractionIsNotShownAsZero() {
    let expected = image(width: 400, height: 300)
    let actual = setting(expected, x: 399, y: 299, to: (0, 0, 0, 255))
    let result = ImageComparison.compare(expected, actual)
    XCTAssertEqual(
      result.summary,
      "1 of 120 000 pixels differ (< 0.01 %), max difference 200, in x 399…399, y 299…299; most in one"
        + " 16×16 block: 1 at x 384, y 288 (2 allowed)")
    XCTAssertTrue(result.passes)
  }

  func testLargeImageCompares() throws {
    // The size of an 1200 × 800 map at scale 2; the comparison works on the byte arrays without copies.
    // White from a repeated byte: filling pixel by pixel would dominate the test's time in a debug build.
    let expected = RasterImage(
      width: 2400, height: 1600, rgba: [UInt8](repeating: 255, count: 2400 * 1600 * 4))
    let actual = setting(expected, x: 2399, y: 0, to: (255, 255, 0, 255))
    let result = ImageComparison.compare(expected, actual)
    XCTAssertEqual(result.differingPixelCount, 1)
    XCTAssertEqual(
      result.differenceBounds, ImageComparisonResult.Bounds(minX: 2399, minY: 0, maxX: 2399, maxY: 0))
    let diff = try XCTUnwrap(result.diffImage())
    XCTAssertTrue(diff.pixel(x: 2399, y: 0) == (255, 0, 255, 255))
  }

  func testToleranceThresholdEdges() {
    let expected = image()
    let actual = setting(expected, x: 0, y: 0, to: (50, 120, 200, 255))  // 10 levels
    XCTAssertEqual(
      ImageComparison.compare(
        expected, actual, tolerance: ImageTolerance(maxChannelDifference: 9.5, maxDifferingFraction: 0)
      ).differingPixelCount, 1)
    XCTAssertEqual(
      ImageComparison.compare(
        expected, actual, tolerance: ImageTolerance(maxChannelDifference: 10, maxDifferingFraction: 0)
      ).differingPixelCount, 0)
  }
}

/// `GoldenImage.check`, run against a temporary goldens folder so the real goldens are never touched.
final class GoldenImageTests: XCTestCase {
  private func png(_ red: UInt8, width: Int = 8, height: Int = 6) throws -> Data {
    try PNGCodec.encode(RasterImage(width: width, height: height, red: red, green: 100, blue: 50))
  }

  func testMissingGoldenIsRecordedAndFails() throws {
    let folder = try TemporaryDirectory()
    let outcome = GoldenImage.check(try png(10), named: "map", directory: folder.url, record: false)
    guard case .recorded(let golden, let wasMissing) = outcome else { return XCTFail("\(outcome)") }
    XCTAssertTrue(wasMissing)
    XCTAssertEqual(golden.lastPathComponent, "map.png")
    XCTAssertEqual(try Data(contentsOf: golden), try png(10))
    XCTAssertTrue(outcome.failureMessage?.contains("was missing and has been recorded") ?? false)
    // The next run compares against it.
    let again = GoldenImage.check(try png(10), named: "map", directory: folder.url, record: false)
    XCTAssertNil(again.failureMessage)
  }

  func testMismatchWritesActualAndDiffAndNamesThem() throws {
    let folder = try TemporaryDirectory()
    _ = GoldenImage.check(try png(10), named: "group/map", directory: folder.url, record: false)
    let outcome = GoldenImage.check(try png(200), named: "group/map", directory: folder.url, record: false)
    guard case .mismatched(let result, _, let actual, let diff) = outcome else {
      return XCTFail("\(outcome)")
    }
    XCTAssertEqual(result.differingPixelCount, 48)
    XCTAssertEqual(actual, folder.url("failures/group/map.actual.png"))
    XCTAssertEqual(diff, folder.url("failures/group/map.diff.png"))
    XCTAssertEqual(try Data(contentsOf: actual), try png(200))
    let diffImage = try PNGCodec.decode(try Data(contentsOf: try XCTUnwrap(diff)))
    XCTAssertTrue(diffImage.pixel(x: 0, y: 0) == (255, 0, 255, 255))
    let message = try XCTUnwrap(outcome.failureMessage)
    XCTAssertTrue(message.contains(actual.path), message)
    XCTAssertTrue(message.contains(try XCTUnwrap(diff).path), message)
    XCTAssertTrue(message.contains("48 of 48 pixels differ"), message)
    // Once the image matches again, the failure images go away.
    XCTAssertNil(
      GoldenImage.check(try png(10), named: "group/map", directory: folder.url, record: false).failureMessage)
    XCTAssertFalse(FileManager.default.fileExists(atPath: actual.path))
  }

  func testSizeMismatchWritesNoDiff() throws {
    let folder = try TemporaryDirectory()
    _ = GoldenImage.check(try png(10), named: "map", directory: folder.url, record: false)
    let outcome = GoldenImage.check(try png(10, width: 9), named: "map", directory: folder.url, record: false)
    guard case .mismatched(_, _, _, let diff) = outcome else { return XCTFail("\(outcome)") }
    XCTAssertNil(diff)
    XCTAssertTrue(outcome.failureMessage?.contains("image sizes differ: expected 8×6, actual 9×6") ?? false)
  }

  func testRecordingRewritesAndFails() throws {
    let folder = try TemporaryDirectory()
    _ = GoldenImage.check(try png(10), named: "map", directory: folder.url, record: false)
    let outcome = GoldenImage.check(try png(200), named: "map", directory: folder.url, record: true)
    guard case .recorded(let golden, let wasMissing) = outcome else { return XCTFail("\(outcome)") }
    XCTAssertFalse(wasMissing)
    XCTAssertEqual(try Data(contentsOf: golden), try png(200))
    XCTAssertNotNil(outcome.failureMessage)
  }

  func testBadInputsAreErrors() throws {
    let folder = try TemporaryDirectory()
    let notPNG = GoldenImage.check(Data("hello".utf8), named: "map", directory: folder.url, record: false)
    guard case .error = notPNG else { return XCTFail("\(notPNG)") }
    for name in ["", "../escape", "/absolute", "map.png", "a//b"] {
      let outcome = GoldenImage.check(try png(10), named: name, directory: folder.url, record: false)
      guard case .error = outcome else { return XCTFail("\(name): \(outcome)") }
    }
    try folder.write("corrupt", to: "broken.png")
    let corrupt = GoldenImage.check(try png(10), named: "broken", directory: folder.url, record: false)
    guard case .error(let message) = corrupt else { return XCTFail("\(corrupt)") }
    XCTAssertTrue(message.contains(GoldenImage.recordVariable), message)
  }
}

final class TestSupportTests: XCTestCase {
  func testTemporaryDirectoryIsCreatedAndRemoved() throws {
    var folder: TemporaryDirectory? = try TemporaryDirectory(prefix: "mymap-support")
    let url = try XCTUnwrap(folder?.url)
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
    XCTAssertTrue(url.path.hasPrefix(URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path))
    let file = try XCTUnwrap(folder?.write("hi", to: "a/b.txt"))
    XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "hi")
    folder = nil
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "removed in deinit")
    let explicit = try TemporaryDirectory()
    explicit.remove()
    explicit.remove()
    XCTAssertFalse(FileManager.default.fileExists(atPath: explicit.path))
  }

  func testRepositoryPaths() {
    let root = RepositoryPaths.root
    XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path))
    XCTAssertEqual(RepositoryPaths.goldens.path, root.path + "/Tests/RenderingTests/Goldens")
    XCTAssertEqual(RepositoryPaths.fixtures.path, root.path + "/Tests/Fixtures")
    XCTAssertEqual(RepositoryPaths.examples.path, root.path + "/Examples")
    if let shared = RepositoryPaths.sharedData {
      XCTAssertEqual(shared.lastPathComponent, "data")
    }
  }
}

/// The block rule of `LocalTolerance`: a few pixels together fail, the same pixels scattered or moved by
/// one pixel pass.
final class LocalToleranceTests: XCTestCase {
  private func white(_ width: Int, _ height: Int) -> RasterImage {
    RasterImage(width: width, height: height, rgba: [UInt8](repeating: 255, count: width * height * 4))
  }

  private func drawing(_ image: RasterImage, _ points: [(Int, Int)], grey: UInt8 = 0) -> RasterImage {
    var copy = image
    for (x, y) in points {
      let index = (y * image.width + x) * 4
      copy.rgba[index] = grey
      copy.rgba[index + 1] = grey
      copy.rgba[index + 2] = grey
    }
    return copy
  }

  func testThreePixelsInOneBlockFailWhereTwoPass() {
    let base = white(64, 64)
    let two = drawing(base, [(20, 20), (22, 20)])
    let three = drawing(base, [(20, 20), (22, 20), (24, 21)])
    XCTAssertTrue(ImageComparison.compare(base, two).passes)
    let result = ImageComparison.compare(base, three)
    XCTAssertFalse(result.passes)
    XCTAssertEqual(result.worstBlock?.differingPixels, 3)
    XCTAssertEqual(result.tolerance.local?.smallestDetectedChange, 3)
    // The same three pixels in three blocks pass: each block holds one.
    XCTAssertTrue(ImageComparison.compare(base, drawing(base, [(2, 2), (30, 30), (60, 60)])).passes)
  }

  func testALineMovedByOnePixelPassesFromScale2() {
    let base = white(64, 64)
    let line = drawing(base, (10..<50).map { ($0, 20) })
    let moved = drawing(base, (10..<50).map { ($0, 21) })
    let result = ImageComparison.compare(line, moved, tolerance: .standard(scale: 2))
    XCTAssertTrue(result.passes, result.summary)
    XCTAssertEqual(result.differingPixelCount, 0)
    XCTAssertEqual(result.rawDifferingPixelCount, 80, "over the tolerance before the near match")
    // Moved by three pixels it is a different drawing.
    let far = drawing(base, (10..<50).map { ($0, 23) })
    XCTAssertFalse(ImageComparison.compare(line, far, tolerance: .standard(scale: 2)).passes)
    // At scale 1 a pixel is a third of a letter's stem: there a pixel must match in its own place.
    let atScale1 = ImageComparison.compare(line, moved)
    XCTAssertFalse(atScale1.passes)
    XCTAssertEqual(atScale1.differingPixelCount, 80)
  }

  func testBlocksGrowWithTheScale() {
    XCTAssertEqual(
      LocalTolerance.scaled(1), LocalTolerance(blockSize: 16, maxPixelsPerBlock: 2, shiftRadius: 0))
    XCTAssertEqual(
      LocalTolerance.scaled(2), LocalTolerance(blockSize: 32, maxPixelsPerBlock: 8, shiftRadius: 1))
    XCTAssertEqual(
      LocalTolerance.scaled(3), LocalTolerance(blockSize: 48, maxPixelsPerBlock: 18, shiftRadius: 1))
    XCTAssertEqual(ImageTolerance.standard(scale: 2).local?.blockSize, 32)
  }
}
