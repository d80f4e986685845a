import Foundation
import Gzip
import TestSupport
import XCTest

@testable import ImageCodecs

/// The libdeflate path of the PNG decoder (plain PNGs: 8 bits, not interlaced, no gamma) against libpng,
/// the reference: PNGs of every colour type and depth it takes, every filter, the image data in one or
/// several chunks, and files it must leave to libpng, decode to the same pixels or fail with the same
/// message. The PNGs are made here byte by byte, so each case says exactly what the file holds.
final class PNGPlainDecodingTests: XCTestCase {
  func testKnownPixelsOfAPaletteImageWithTransparency() throws {
    // 2-bit indexes 0, 1, 2, 1 / 2, 0, 1, 2: red, green (half transparent), blue.
    var png = HandMadePNG(width: 4, height: 2, depth: 2, colour: 3)
    png.palette = [255, 0, 0, 0, 255, 0, 0, 0, 255]
    png.alphas = [255, 128]
    png.rows = [[0b0001_1001], [0b1000_0110]]
    png.filters = [0, 2]
    let image = try PNGCodec.decode(try png.bytes(), maximumSide: 64, decoder: .automatic)
    let red: [UInt8] = [255, 0, 0, 255]
    let green: [UInt8] = [0, 255, 0, 128]
    let blue: [UInt8] = [0, 0, 255, 255]
    XCTAssertEqual(image.rgba, red + green + blue + green + blue + red + green + blue)
  }

  func testEveryColourTypeDepthAndFilterDecodesAsLibpngDoes() throws {
    var generator = SeededGenerator(seed: 0x504E_47)
    let kinds: [(colour: UInt8, depth: Int)] = [
      (0, 8), (2, 8), (3, 1), (3, 2), (3, 4), (3, 8), (4, 8), (6, 8),
    ]
    var compared = 0
    for kind in kinds {
      for width in [1, 3, 17, 64] {
        for filter in [0, 1, 2, 3, 4, 5] as [UInt8] {
          let height = 1 + Int(generator.next() % 9)
          var png = HandMadePNG.random(
            width: width, height: height, depth: kind.depth, colour: kind.colour, using: &generator)
          // 5: a random filter per row.
          png.filters = (0..<height).map { _ in filter < 5 ? filter : UInt8(generator.next() % 5) }
          png.idatPieces = 1 + Int(generator.next() % 3)
          try assertSameAsLibpng(png, expectSuccess: true)
          compared += 1
        }
      }
    }
    XCTAssertEqual(compared, kinds.count * 4 * 6)
  }

  func testFilesLeftToLibpngDecodeAsLibpngDecodesThem() throws {
    var generator = SeededGenerator(seed: 7)
    func base(colour: UInt8 = 2, depth: Int = 8) -> HandMadePNG {
      var png = HandMadePNG.random(width: 9, height: 5, depth: depth, colour: colour, using: &generator)
      png.filters = (0..<5).map { UInt8($0 % 5) }
      return png
    }
    var gamma = base()
    gamma.chunksBeforeData = [("gAMA", [0, 0, 0x9C, 0x40])]  // 0.4: libpng converts it to sRGB
    try assertSameAsLibpng(gamma, expectSuccess: true)
    var sixteen = base(colour: 2, depth: 16)
    sixteen.filters = [0, 1, 2, 3, 4]
    try assertSameAsLibpng(sixteen, expectSuccess: true)
    var keyed = base()
    keyed.chunksBeforeData = [("tRNS", [0, 1, 0, 2, 0, 3])]  // a transparent colour of an RGB image
    try assertSameAsLibpng(keyed, expectSuccess: true)
    var greyFour = base(colour: 0, depth: 4)
    greyFour.filters = [4, 3, 2, 1, 0]
    try assertSameAsLibpng(greyFour, expectSuccess: true)
    var greyWithPalette = base(colour: 0)
    greyWithPalette.chunksBeforeData = [("PLTE", [1, 2, 3, 4, 5, 6])]  // a palette a grey image may not have
    try assertSameAsLibpng(greyWithPalette, expectSuccess: true)
    var suggested = base()
    suggested.chunksBeforeData = [("PLTE", [9, 8, 7])]  // a colour image's suggested palette: ignored
    try assertSameAsLibpng(suggested, expectSuccess: true)
    var interlaced = base()
    interlaced.interlace = 1  // Adam7: the data, written row by row, does not fit its passes
    try assertSameAsLibpng(interlaced, expectSuccess: false)
    var private_ = base()
    private_.chunksBeforeData = [("prVt", [1, 2, 3])]  // an ancillary chunk: ignored by both
    try assertSameAsLibpng(private_, expectSuccess: true)
  }

  func testBrokenFilesFailAsLibpngFails() throws {
    var generator = SeededGenerator(seed: 11)
    func base() -> HandMadePNG {
      var png = HandMadePNG.random(width: 8, height: 6, depth: 8, colour: 6, using: &generator)
      png.filters = [4, 4, 1, 2, 3, 0]
      return png
    }
    var badFilter = base()
    badFilter.filters[2] = 7
    try assertSameAsLibpng(badFilter, expectSuccess: false)
    var short = base()
    short.dataCut = 9  // the stream stops short of the image
    try assertSameAsLibpng(short, expectSuccess: false)
    var badCRC = base()
    badCRC.corruptDataCRC = true
    try assertSameAsLibpng(badCRC, expectSuccess: false)
    // libpng reads no further than the image data, so a file without its end decodes.
    var noEnd = base()
    noEnd.omitEnd = true
    try assertSameAsLibpng(noEnd, expectSuccess: true)
    var pastPalette = HandMadePNG(width: 2, height: 1, depth: 8, colour: 3)
    pastPalette.palette = [1, 2, 3]
    pastPalette.rows = [[0, 5]]  // index 5 of a palette of one
    pastPalette.filters = [0]
    let reference = Result { try PNGCodec.decode(try pastPalette.bytes(), maximumSide: 64, decoder: .libpng) }
    let plain = Result { try PNGCodec.decode(try pastPalette.bytes(), maximumSide: 64, decoder: .automatic) }
    XCTAssertEqual(try? plain.get().rgba, try? reference.get().rgba)
  }

  func testABombStopsAtTheImagesSize() throws {
    // 256 × 256 claimed, 256 × 8192 rows of data: refused with the same message as before.
    let bomb = try HostileTiles.pngBomb(side: 256, realHeight: 8192)
    XCTAssertThrowsError(try PNGCodec.decode(bomb, maximumSide: 256, decoder: .automatic)) { error in
      XCTAssertTrue("\(error)".contains("decompression bomb"), "\(error)")
    }
  }

  private func assertSameAsLibpng(
    _ png: HandMadePNG, expectSuccess: Bool, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let bytes = try png.bytes()
    let what = "colour \(png.colour), depth \(png.depth), \(png.width)×\(png.height), filters \(png.filters)"
    let reference = Result { try PNGCodec.decode(bytes, maximumSide: 1024, decoder: .libpng) }
    let plain = Result { try PNGCodec.decode(bytes, maximumSide: 1024, decoder: .automatic) }
    switch (reference, plain) {
    case (.success(let expected), .success(let decoded)):
      XCTAssertTrue(expectSuccess, "libpng decoded a file meant to fail: \(what)", file: file, line: line)
      XCTAssertEqual(decoded.width, expected.width, what, file: file, line: line)
      XCTAssertEqual(decoded.height, expected.height, what, file: file, line: line)
      XCTAssertEqual(decoded.rgba, expected.rgba, what, file: file, line: line)
    case (.failure(let expected), .failure(let failed)):
      XCTAssertFalse(expectSuccess, "libpng failed: \(expected) (\(what))", file: file, line: line)
      XCTAssertEqual("\(failed)", "\(expected)", what, file: file, line: line)
    default:
      XCTFail("libpng: \(reference), libdeflate path: \(plain) (\(what))", file: file, line: line)
    }
  }
}

/// A PNG made byte by byte: its rows of packed samples, a filter per row (applied here), the image data
/// deflated into one or more IDAT chunks, and what else a case needs.
private struct HandMadePNG {
  var width: Int
  var height: Int
  var depth: Int
  var colour: UInt8
  var rows: [[UInt8]] = []
  var filters: [UInt8] = []
  var palette: [UInt8] = []
  var alphas: [UInt8]?
  var chunksBeforeData: [(String, [UInt8])] = []
  var idatPieces = 1
  var interlace: UInt8 = 0
  /// Bytes left off the end of the deflated data.
  var dataCut = 0
  var corruptDataCRC = false
  var omitEnd = false

  init(width: Int, height: Int, depth: Int, colour: UInt8) {
    self.width = width
    self.height = height
    self.depth = depth
    self.colour = colour
  }

  var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colour]! }
  var rowBytes: Int { (width * channels * depth + 7) / 8 }
  var step: Int { max(1, channels * depth / 8) }

  /// Random samples; a palette image gets a palette of 2^depth entries (at most 200) and transparency
  /// for some of them, and indexes inside it.
  static func random(
    width: Int, height: Int, depth: Int, colour: UInt8, using generator: inout SeededGenerator
  ) -> HandMadePNG {
    var png = HandMadePNG(width: width, height: height, depth: depth, colour: colour)
    let entries = min(1 << depth, 200)
    if colour == 3 {
      png.palette = (0..<entries * 3).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      png.alphas = (0..<entries / 2).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }
    png.rows = (0..<height).map { _ in
      if colour == 3 {
        var row = [UInt8](repeating: 0, count: png.rowBytes)
        for x in 0..<width {
          let index = Int(generator.next() % UInt64(entries))
          let bit = x * depth
          row[bit / 8] |= UInt8(index << (8 - depth - bit % 8))
        }
        return row
      }
      // Runs of repeated bytes as well as noise, so every filter has something to do.
      return (0..<png.rowBytes).map { index in
        generator.next() % 3 == 0 ? UInt8(index % 7 * 30) : UInt8(truncatingIfNeeded: generator.next())
      }
    }
    return png
  }

  func bytes() throws -> Data {
    var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    var header = be32(width) + be32(height)
    header += [UInt8(depth), colour, 0, 0, interlace]
    chunk("IHDR", header, into: &out)
    if !palette.isEmpty { chunk("PLTE", palette, into: &out) }
    if let alphas { chunk("tRNS", alphas, into: &out) }
    for (type, data) in chunksBeforeData { chunk(type, data, into: &out) }
    var filtered: [UInt8] = []
    for (y, row) in rows.enumerated() {
      filtered.append(filters[y])
      filtered += Self.filter(row, above: y > 0 ? rows[y - 1] : nil, with: filters[y], step: step)
    }
    var stream = try Gzip.deflate(filtered, level: 6, wrapper: .zlib)
    stream.removeLast(min(dataCut, stream.count))
    let pieceSize = max(1, (stream.count + idatPieces - 1) / idatPieces)
    var start = 0
    while start < stream.count {
      let end = min(start + pieceSize, stream.count)
      chunk("IDAT", Array(stream[start..<end]), into: &out, corrupt: corruptDataCRC)
      start = end
    }
    if !omitEnd { chunk("IEND", [], into: &out) }
    return Data(out)
  }

  private func be32(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  private func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8], corrupt: Bool = false) {
    out += be32(data.count)
    let typed = Array(type.utf8) + data
    out += typed
    out += be32(Int(HostileTiles.crc32(typed[...]) ^ (corrupt ? 1 : 0)))
  }

  /// The PNG filters (9.2), forward; an unknown filter type leaves the row as it is.
  static func filter(_ row: [UInt8], above: [UInt8]?, with type: UInt8, step: Int) -> [UInt8] {
    let up = above ?? [UInt8](repeating: 0, count: row.count)
    return row.indices.map { index in
      let left = index >= step ? Int(row[index - step]) : 0
      let corner = index >= step ? Int(up[index - step]) : 0
      let predictor: Int
      switch type {
      case 1: predictor = left
      case 2: predictor = Int(up[index])
      case 3: predictor = (left + Int(up[index])) / 2
      case 4:
        let estimate = left + Int(up[index]) - corner
        let (a, b, c) = (abs(estimate - left), abs(estimate - Int(up[index])), abs(estimate - corner))
        predictor = a <= b && a <= c ? left : b <= c ? Int(up[index]) : corner
      default: predictor = 0
      }
      return UInt8(truncatingIfNeeded: Int(row[index]) - predictor)
    }
  }
}
