import Foundation
import ImageCodecs
import MapMath
import TestSupport
import Tiles
import XCTest

/// The fixtures in `Tests/Fixtures/images/` (made by `make-fixtures.py` there) are 32×32 with four 16×16
/// quadrants: red, green / blue, white; the white one is half transparent in the images with alpha.
final class ImageDecoderTests: XCTestCase {
  private let red: [UInt8] = [200, 30, 40, 255]
  private let green: [UInt8] = [40, 180, 60, 255]
  private let blue: [UInt8] = [30, 60, 200, 255]
  private let white: [UInt8] = [250, 250, 250, 255]
  private let halfWhite: [UInt8] = [250, 250, 250, 128]

  private let allFixtures = [
    "quadrants.png", "quadrants-alpha.png", "baseline.jpg", "progressive.jpg", "grayscale.jpg", "cmyk.jpg",
    "lossy.webp", "lossy-alpha.webp", "lossless-alpha.webp", "tile-256.jpg", "tile-256.webp",
  ]

  func testDecodesPNG() throws {
    try assertQuadrants("quadrants.png", [red, green, blue, white], tolerance: 0)
    try assertQuadrants("quadrants-alpha.png", [red, green, blue, halfWhite], tolerance: 0)
  }

  func testDecodesBaselineAndProgressiveJPEG() throws {
    try assertQuadrants("baseline.jpg", [red, green, blue, white], tolerance: 6)
    try assertQuadrants("progressive.jpg", [red, green, blue, white], tolerance: 6)
  }

  func testDecodesGrayscaleJPEGAsOpaqueGrey() throws {
    // Pillow's luma of each quadrant colour (ITU-R 601).
    let greys: [[UInt8]] = [
      [82, 82, 82, 255], [124, 124, 124, 255], [67, 67, 67, 255], [250, 250, 250, 255],
    ]
    try assertQuadrants("grayscale.jpg", greys, tolerance: 4)
  }

  func testRefusesCMYKJPEGClearly() throws {
    XCTAssertThrowsError(try ImageDecoder.decode(fixture("cmyk.jpg"))) {
      XCTAssertEqual(
        $0 as? ImageCodecError, .notAnImage("CMYK JPEG images are not supported; use RGB or grayscale"))
    }
  }

  func testDecodesLossyAndLosslessWebPWithAlpha() throws {
    try assertQuadrants("lossy.webp", [red, green, blue, white], tolerance: 6)
    try assertQuadrants("lossy-alpha.webp", [red, green, blue, halfWhite], tolerance: 6)
    try assertQuadrants("lossless-alpha.webp", [red, green, blue, halfWhite], tolerance: 0)
  }

  func testSniffsFormats() throws {
    XCTAssertEqual(ImageFormat(sniffing: try fixture("quadrants.png")), .png)
    XCTAssertEqual(ImageFormat(sniffing: try fixture("progressive.jpg")), .jpeg)
    XCTAssertEqual(ImageFormat(sniffing: try fixture("lossless-alpha.webp")), .webp)
    XCTAssertNil(ImageFormat(sniffing: Data("RIFF....WAVE".utf8)))
    XCTAssertNil(ImageFormat(sniffing: Data()))
    XCTAssertThrowsError(try ImageDecoder.decode(Data("GIF89a".utf8))) {
      XCTAssertEqual($0 as? ImageCodecError, .notAnImage("not a PNG, JPEG or WebP image"))
    }
    XCTAssertThrowsError(try ImageDecoder.decode(Data())) {
      XCTAssertEqual($0 as? ImageCodecError, .notAnImage("empty data"))
    }
  }

  /// Every proper prefix of every fixture is refused as not an image: no crash, no half-grey picture. (A PNG
  /// cut only inside its final 12-byte IEND chunk still has every pixel, and libpng accepts it.)
  func testTruncatedDataIsNotAnImage() throws {
    for name in allFixtures {
      let data = try fixture(name)
      let end = name.hasSuffix(".png") ? data.count - 12 : data.count
      for length in 0..<end {
        assertNotAnImage(Data(data.prefix(length)), "\(name) cut to \(length) of \(data.count) bytes")
      }
    }
  }

  /// Random bytes, alone and behind each format's signature, are refused.
  func testRandomBytesAreNotAnImage() throws {
    var generator = SeededGenerator(seed: 0x1A2B_3C4D)
    func randomBytes(_ count: Int) -> Data {
      Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }
    let signatures: [Data] = [
      Data(), Data([137, 80, 78, 71, 13, 10, 26, 10]), Data([0xFF, 0xD8, 0xFF]),
      Data("RIFF\0\0\0\0WEBP".utf8),
      Data("RIFF\u{40}\0\0\0WEBPVP8 ".utf8), Data("RIFF\u{40}\0\0\0WEBPVP8L".utf8),
    ]
    for round in 0..<200 {
      for signature in signatures {
        let data = signature + randomBytes(generator.int(in: 0...300))
        assertNotAnImage(data, "round \(round), signature \(Array(signature))")
      }
    }
  }

  /// Flipped bytes inside real files, or garbage after a real header, may still decode (lossy data has no
  /// checksum, PNG's trailing chunks are not needed), but must never crash nor throw anything but
  /// `ImageCodecError`.
  func testCorruptedBytesNeverCrash() throws {
    var generator = SeededGenerator(seed: 42)
    for name in allFixtures {
      let original = try fixture(name)
      for round in 0..<200 {
        var data = original
        if round.isMultiple(of: 2) {
          for _ in 0..<generator.int(in: 1...4) {
            data[generator.int(in: 0...(data.count - 1))] = UInt8(truncatingIfNeeded: generator.next())
          }
        } else {
          data = data.prefix(generator.int(in: 1...(data.count - 1)))
          data += (0..<generator.int(in: 1...64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
        do {
          let image = try ImageDecoder.decode(data, maximumSide: 1024)
          XCTAssertEqual(image.rgba.count, image.width * image.height * 4)
        } catch {
          XCTAssertNotNil(error as? ImageCodecError, "\(name): \(error)")
        }
      }
    }
  }

  /// Headers claiming huge sizes are refused from the header alone: the files are a few hundred bytes, so
  /// had the decoders allocated and decoded, they would have failed with `notAnImage` (or run out of memory:
  /// 60000×60000 RGBA is 14 GB).
  func testTooLargeHeaderIsRefusedBeforeDecoding() throws {
    var jpeg = try fixture("baseline.jpg")
    let frame = try XCTUnwrap(startOfFrame(jpeg))
    jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: [0xEA, 0x60, 0xEA, 0x60])  // 60000 × 60000
    XCTAssertThrowsError(try ImageDecoder.decode(jpeg)) {
      XCTAssertEqual($0 as? ImageCodecError, .tooLarge(width: 60000, height: 60000, limit: 16_384))
    }

    var png = try fixture("quadrants.png")
    png.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
    XCTAssertThrowsError(try ImageDecoder.decode(png)) {
      XCTAssertEqual($0 as? ImageCodecError, .tooLarge(width: 60000, height: 60000, limit: 16_384))
    }

    // VP8 stores 14-bit sides (at most 16383), so the limit is lowered to show the check.
    var lossy = try fixture("lossy.webp")
    lossy.replaceSubrange(26..<30, with: [0x80, 0x3E, 0x80, 0x3E])  // 16000 × 16000
    XCTAssertThrowsError(try ImageDecoder.decode(lossy, maximumSide: 4096)) {
      XCTAssertEqual($0 as? ImageCodecError, .tooLarge(width: 16000, height: 16000, limit: 4096))
    }

    var lossless = try fixture("lossless-alpha.webp")
    let bits =
      UInt32(lossless[21]) | UInt32(lossless[22]) << 8 | UInt32(lossless[23]) << 16
      | UInt32(lossless[24]) << 24
    let patched = (bits & 0xF000_0000) | UInt32(15999) | UInt32(15999) << 14
    lossless.replaceSubrange(21..<25, with: (0..<4).map { UInt8(truncatingIfNeeded: patched >> ($0 * 8)) })
    XCTAssertThrowsError(try ImageDecoder.decode(lossless, maximumSide: 4096)) {
      XCTAssertEqual($0 as? ImageCodecError, .tooLarge(width: 16000, height: 16000, limit: 4096))
    }

    for name in ["quadrants.png", "progressive.jpg", "lossy-alpha.webp"] {
      XCTAssertThrowsError(try ImageDecoder.decode(fixture(name), maximumSide: 31)) {
        XCTAssertEqual($0 as? ImageCodecError, .tooLarge(width: 32, height: 32, limit: 31), name)
      }
    }
  }

  /// libpng allocates the length a chunk claims before reading it: a 4×4 PNG whose `sPLT` chunk claimed
  /// 2 GB made it allocate 2 GB (found by Fuzz/Harnesses/png.swift). Such a chunk is refused first.
  func testAChunkLongerThanTheFileIsRefusedBeforeLibpngAllocatesIt() throws {
    let png = try fixture("quadrants.png")
    let afterHeader = 8 + 25  // signature, then IHDR (length, type, 13 bytes, CRC)
    var hostile = Data(png[..<afterHeader])
    hostile.append(contentsOf: [0x78, 0, 0, 0] + Array("sPLT".utf8) + [UInt8](repeating: 7, count: 40))
    XCTAssertThrowsError(try PNGCodec.decode(hostile)) {
      XCTAssertEqual(
        $0 as? ImageCodecError,
        .notAnImage("PNG chunk sPLT claims 2013265920 bytes, more than the 40 left in the file"))
    }
    // A chunk that fits is still read (the fixture itself decodes).
    XCTAssertEqual(try PNGCodec.decode(png).width, 32)
  }

  func testTileLoaderReadsJPEGAndWebPTilesFromADirectory() throws {
    let folder = try TemporaryDirectory(prefix: "ImageDecoderTests")
    try folder.write(fixture("tile-256.jpg"), to: "1/0/0.jpg")
    try folder.write(fixture("tile-256.webp"), to: "1/1/0.webp")
    try folder.write(fixture("baseline.jpg"), to: "1/0/1.jpg")
    var truncated = try fixture("tile-256.jpg")
    truncated.removeLast(truncated.count / 2)
    try folder.write(truncated, to: "1/1/1.jpg")
    let source = try DirectoryTileSource(path: folder.path)
    let loaded = try TileLoader(source: source).load([
      tile(1, 0, 0), tile(1, 1, 0), tile(1, 0, 1), tile(1, 1, 1),
    ])
    XCTAssertEqual(Set(loaded.images.keys), [tile(1, 0, 0), tile(1, 1, 0)])
    for key in [tile(1, 0, 0), tile(1, 1, 0)] {
      let image = try XCTUnwrap(loaded.images[key])
      XCTAssertEqual([image.width, image.height], [256, 256])
      assertClose(rgba(image, 128, 128), [120, 170, 90, 255], tolerance: 4, "\(key)")
    }
    let reasons = Dictionary(uniqueKeysWithValues: loaded.failed.map { ($0.tile, $0.reason) })
    XCTAssertEqual(reasons[tile(1, 0, 1)], "tile is 32×32 pixels, expected 256×256")
    XCTAssertEqual(reasons[tile(1, 1, 1)]?.hasPrefix("not a readable image"), true, "\(reasons)")
  }

  // MARK: - Helpers

  private func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: RepositoryPaths.fixture("images/\(name)"))
  }

  /// Checks the size and the centre pixel of each quadrant (red, green, blue, white order).
  private func assertQuadrants(
    _ name: String, _ expected: [[UInt8]], tolerance: Int, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let image = try ImageDecoder.decode(fixture(name))
    XCTAssertEqual([image.width, image.height], [32, 32], name, file: file, line: line)
    for (index, (x, y)) in [(8, 8), (24, 8), (8, 24), (24, 24)].enumerated() {
      assertClose(
        rgba(image, x, y), expected[index], tolerance: tolerance, "\(name) at \(x),\(y)", file, line)
    }
  }

  private func assertClose(
    _ actual: [UInt8], _ expected: [UInt8], tolerance: Int, _ message: String,
    _ file: StaticString = #filePath, _ line: UInt = #line
  ) {
    let close = zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    XCTAssertTrue(
      close, "\(message): \(actual) is not within \(tolerance) of \(expected)", file: file, line: line)
  }

  private func assertNotAnImage(
    _ data: Data, _ message: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    do {
      let image = try ImageDecoder.decode(data)
      XCTFail("\(message): decoded a \(image.width)×\(image.height) image", file: file, line: line)
    } catch let error as ImageCodecError {
      guard case .notAnImage = error else {
        return XCTFail("\(message): \(error)", file: file, line: line)
      }
    } catch {
      XCTFail("\(message): unexpected \(error)", file: file, line: line)
    }
  }

  /// The offset of the first SOF0/SOF2 marker (baseline or progressive frame header).
  private func startOfFrame(_ jpeg: Data) -> Int? {
    let bytes = [UInt8](jpeg)
    return (0..<(bytes.count - 9)).first {
      bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2)
    }
  }
}
