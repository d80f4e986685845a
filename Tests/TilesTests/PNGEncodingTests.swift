import Foundation
import Gzip
import Locking
import TestSupport
import XCTest

@testable import ImageCodecs

/// The PNG writer: pixels survive exactly, each image gets the filter that suits it (none for flat map
/// colours, paeth for photographs), the one-piece, pieces-on-all-cores and row-by-row writers agree, and
/// the same pixels give the same bytes.
final class PNGEncodingTests: XCTestCase {
  /// A piece of a real street map (`Tests/Fixtures/images/street-map.png`: 600×160 pixels of the
  /// Helsinki example as `mymap render` draws it), as opaque ARGB32.
  private func streetMapPixels() throws -> (pixels: [UInt32], width: Int, height: Int) {
    let image = try PNGCodec.decode(Data(contentsOf: RepositoryPaths.fixture("images/street-map.png")))
    let pixels = (0..<image.width * image.height).map { index in
      let (r, g, b) = (image.rgba[index * 4], image.rgba[index * 4 + 1], image.rgba[index * 4 + 2])
      return 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
    return (pixels, image.width, image.height)
  }

  /// A photograph in miniature: smooth gradients with seeded noise, some pixels translucent.
  private func photoLikePixels(width: Int, height: Int, alpha: Bool) -> [UInt32] {
    var generator = SeededGenerator(seed: 7)
    return (0..<width * height).map { index in
      let x = UInt32(index % width)
      let y = UInt32(index / width)
      let noise = UInt32.random(in: 0...6, using: &generator)
      let a: UInt32 = alpha && (x + y) % 5 == 0 ? 128 : 255
      let r = ((x * 2 + noise) & 0xFF) * a / 255
      let g = ((y * 3 + noise) & 0xFF) * a / 255
      let b = (((x + y) + noise) & 0xFF) * a / 255
      return a << 24 | r << 16 | g << 8 | b
    }
  }

  /// Noise no deflate can shrink: libdeflate writes it in stored blocks.
  private func noisePixels(width: Int, height: Int) -> [UInt32] {
    var generator = SeededGenerator(seed: 11)
    return (0..<width * height).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
  }

  private func encode(
    _ pixels: [UInt32], width: Int, opaque: Bool, filter: PNGRowFilter = .sampled, bufferedBytes: Int? = nil,
    pieceBytes: Int? = nil
  ) throws -> Data {
    try pixels.withUnsafeBytes {
      try PNGCodec.encodeARGB32(
        $0.baseAddress!, width: width, height: pixels.count / width, stride: width * 4, opaque: opaque,
        filter: filter, bufferedBytes: bufferedBytes ?? PNGCodec.maximumBufferedBytes,
        pieceBytes: pieceBytes ?? PNGCodec.defaultPieceBytes)
    }
  }

  /// The filter byte of every row, read from the inflated image data.
  private func rowFilters(_ png: Data, width: Int, height: Int, channels: Int) throws -> [UInt8] {
    let bytes = [UInt8](png)
    var stream: [UInt8] = []
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == "IDAT" {
        stream += bytes[offset + 8..<offset + 8 + length]
      }
      offset += 12 + length
    }
    let rowBytes = width * channels + 1
    let filtered = try Gzip.inflate(stream, limit: rowBytes * height)
    XCTAssertEqual(filtered.count, rowBytes * height)
    return stride(from: 0, to: filtered.count, by: rowBytes).map { filtered[$0] }
  }

  /// Straight RGBA of premultiplied ARGB, rounded as the writer undoes premultiplication.
  private func straightRGBA(_ pixels: [UInt32]) -> [UInt8] {
    pixels.flatMap { argb -> [UInt8] in
      let a = argb >> 24
      func channel(_ shift: UInt32) -> UInt8 {
        let value = (argb >> shift) & 0xFF
        guard a != 0, a != 255 else { return UInt8(value) }
        return UInt8(min((value * 255 + a / 2) / a, 255))
      }
      return [channel(16), channel(8), channel(0), UInt8(a)]
    }
  }

  func testAMapIsWrittenUnfilteredAndReadsBackExactly() throws {
    let map = try streetMapPixels()
    let png = try encode(map.pixels, width: map.width, opaque: true)
    XCTAssertEqual(
      try rowFilters(png, width: map.width, height: map.height, channels: 3),
      Array(repeating: 0, count: map.height))
    XCTAssertEqual(try PNGCodec.decode(png).rgba, straightRGBA(map.pixels))
  }

  func testAPhotographIsWrittenWithPaethAndReadsBackExactly() throws {
    let pixels = photoLikePixels(width: 200, height: 90, alpha: true)
    let png = try encode(pixels, width: 200, opaque: false)
    XCTAssertEqual(try rowFilters(png, width: 200, height: 90, channels: 4), Array(repeating: 4, count: 90))
    XCTAssertEqual(try PNGCodec.decode(png).rgba, straightRGBA(pixels))
  }

  /// A filter the caller names is every row's, whichever the sample would choose, whole or row by row.
  func testAToldFilterIsEveryRowsFilter() throws {
    let map = try streetMapPixels()
    let photo = photoLikePixels(width: 300, height: 120, alpha: true)
    for (pixels, width, opaque, filter, type) in [
      (map.pixels, map.width, true, PNGRowFilter.paeth, UInt8(4)), (photo, 300, false, .none, 0),
      (photo, 300, false, .paeth, 4),
    ] {
      let height = pixels.count / width
      for buffered in [nil, 0] {
        let png = try encode(pixels, width: width, opaque: opaque, filter: filter, bufferedBytes: buffered)
        XCTAssertEqual(
          try rowFilters(png, width: width, height: height, channels: opaque ? 3 : 4),
          Array(repeating: type, count: height), "\(filter), buffered \(buffered ?? -1)")
        XCTAssertEqual(try PNGCodec.decode(png).rgba, straightRGBA(pixels))
      }
    }
  }

  func testTheRowByRowWriterGivesTheSamePixelsAndFilters() throws {
    let map = try streetMapPixels()
    for (pixels, width, opaque) in [
      (map.pixels, map.width, true), (photoLikePixels(width: 300, height: 120, alpha: true), 300, false),
    ] {
      let whole = try encode(pixels, width: width, opaque: opaque)
      let streamed = try encode(pixels, width: width, opaque: opaque, bufferedBytes: 0)
      XCTAssertEqual(try PNGCodec.decode(streamed).rgba, try PNGCodec.decode(whole).rgba)
      let (height, channels) = (pixels.count / width, opaque ? 3 : 4)
      XCTAssertEqual(
        try rowFilters(streamed, width: width, height: height, channels: channels),
        try rowFilters(whole, width: width, height: height, channels: channels))
    }
  }

  /// Above the buffered size, bands of about a mebibyte of rows are deflated on all cores and laid end to
  /// end as one zlib stream: several bands here, each primed with the rows above it.
  func testALargeImageDeflatedInBandsReadsBackExactly() throws {
    for (pixels, width, opaque) in [
      (photoLikePixels(width: 1500, height: 700, alpha: true), 1500, false),
      (photoLikePixels(width: 2000, height: 900, alpha: false), 2000, true),
    ] {
      let banded = try encode(pixels, width: width, opaque: opaque, bufferedBytes: 0)
      XCTAssertEqual(try encode(pixels, width: width, opaque: opaque, bufferedBytes: 0), banded)
      XCTAssertEqual(try PNGCodec.decode(banded).rgba, straightRGBA(pixels))
      let (height, channels) = (pixels.count / width, opaque ? 3 : 4)
      XCTAssertGreaterThan((width * channels + 1) * height, 3 << 20, "at least three bands")
      XCTAssertEqual(
        try rowFilters(banded, width: width, height: height, channels: channels),
        Array(repeating: 4, count: height))
    }
  }

  /// An image deflated in pieces (each by libdeflate, which always ends its stream, then continued) is one
  /// zlib stream that both decoders read back exactly: dynamic-code blocks (a map, a photograph), stored
  /// blocks (noise), and pieces of a row each, small enough for fixed-code blocks.
  func testPiecesDeflatedOnAllCoresReadBackExactly() throws {
    let map = try streetMapPixels()
    for (name, pixels, width, opaque, pieceBytes) in [
      ("map", map.pixels, map.width, true, 16 << 10),
      ("photograph", photoLikePixels(width: 300, height: 120, alpha: true), 300, false, 8 << 10),
      ("noise", noisePixels(width: 256, height: 64), 256, true, 4 << 10),
      ("a row a piece", photoLikePixels(width: 40, height: 30, alpha: false), 40, true, 1),
      ("map, a row a piece", Array(map.pixels.prefix(map.width * 80)), map.width, true, 1),
    ] {
      let pieces = try encode(pixels, width: width, opaque: opaque, pieceBytes: pieceBytes)
      XCTAssertEqual(try PNGCodec.decode(pieces).rgba, straightRGBA(pixels), name)
      XCTAssertEqual(
        try PNGCodec.decode(pieces, maximumSide: 4096, decoder: .libpng).rgba, straightRGBA(pixels), name)
      let (height, channels) = (pixels.count / width, opaque ? 3 : 4)
      let whole = try encode(pixels, width: width, opaque: opaque, pieceBytes: 0)
      XCTAssertEqual(
        try rowFilters(pieces, width: width, height: height, channels: channels),
        try rowFilters(whole, width: width, height: height, channels: channels), name)
      XCTAssertNotEqual(pieces, whole, "\(name): made in pieces")
      XCTAssertEqual(try encode(pixels, width: width, opaque: opaque, pieceBytes: pieceBytes), pieces, name)
    }
  }

  /// Level 1 (a map drawn from vectors) is deflated by mymap's own encoder (cpng_fast_deflate.c): every
  /// kind of image, in one piece, in pieces and a row a piece, must read back exactly through both
  /// decoders and give the same bytes twice. Rows longer than the 32 KiB window, one-pixel images and
  /// noise (stored blocks) go through its checked paths.
  func testTheFastLevelsEncoderReadsBackExactly() throws {
    let map = try streetMapPixels()
    var generator = SeededGenerator(seed: 5)
    let flat = [UInt32](repeating: 0xFF33_6699, count: 700 * 300)
    let stripes = (0..<500 * 200).map { index -> UInt32 in
      (index / 500) % 7 < 3 ? 0xFF10_2030 : index % 13 == 0 ? 0xFFFF_FFFF : 0xFF80_8080
    }
    // Shapes and text-like speckles on flat colour: matches a pixel back, a row up and far away.
    let speckled = (0..<640 * 240).map { index -> UInt32 in
      let (x, y) = (index % 640, index / 640)
      if (x / 37 + y / 23) % 5 == 0 { return 0xFFE0_D8C8 }
      return UInt32.random(in: 0..<40, using: &generator) == 0
        ? 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator) : 0xFFF2_EFE9
    }
    let wide = (0..<11_000 * 6).map { index -> UInt32 in
      (index % 11_000) / 50 % 2 == 0 ? 0xFF20_4060 : 0xFF60_4020
    }
    for (name, pixels, width, opaque) in [
      ("map", map.pixels, map.width, true),
      ("photograph, translucent", photoLikePixels(width: 300, height: 120, alpha: true), 300, false),
      ("noise", noisePixels(width: 256, height: 64), 256, true),
      ("one colour", flat, 700, true),
      ("stripes", stripes, 500, true),
      ("speckled", speckled, 640, true),
      ("rows longer than the window", wide, 11_000, true),
      ("one pixel", [0xFF12_3456], 1, true),
      ("one column", Array(map.pixels.prefix(90)), 1, true),
      ("two rows", Array(map.pixels.prefix(2 * map.width)), map.width, false),
    ] {
      for pieceBytes in [PNGCodec.defaultPieceBytes, 1, 0] {
        let png = try pixels.withUnsafeBytes {
          try PNGCodec.encodeARGB32(
            $0.baseAddress!, width: width, height: pixels.count / width, stride: width * 4, opaque: opaque,
            compressionLevel: 1, filter: .none, pieceBytes: pieceBytes)
        }
        let expected = straightRGBA(pixels)
        XCTAssertEqual(try PNGCodec.decode(png, maximumSide: 20_000).rgba, expected, "\(name), \(pieceBytes)")
        XCTAssertEqual(
          try PNGCodec.decode(png, maximumSide: 20_000, decoder: .libpng).rgba, expected,
          "\(name), \(pieceBytes)")
        let again = try pixels.withUnsafeBytes {
          try PNGCodec.encodeARGB32(
            $0.baseAddress!, width: width, height: pixels.count / width, stride: width * 4, opaque: opaque,
            compressionLevel: 1, filter: .none, pieceBytes: pieceBytes)
        }
        XCTAssertEqual(again, png, "\(name), \(pieceBytes): the same bytes")
      }
    }
  }

  /// `PNGPieceEncoder` writes `encodeARGB32`'s bytes whatever the order and the threads its pieces are
  /// deflated on: one piece, many, opaque or not, unfiltered or paeth.
  func testPiecesDeflatedInAnyOrderGiveTheWholeEncodersBytes() throws {
    let map = try streetMapPixels()
    for (name, pixels, width, opaque, filter, pieceBytes) in [
      ("map", map.pixels, map.width, true, PNGRowFilter.none, 16 << 10),
      ("map in one piece", map.pixels, map.width, true, PNGRowFilter.none, 1 << 30),
      ("photograph", photoLikePixels(width: 300, height: 120, alpha: true), 300, false, .paeth, 8 << 10),
      ("noise", noisePixels(width: 256, height: 64), 256, true, .none, 4 << 10),
      ("a row a piece", photoLikePixels(width: 40, height: 30, alpha: false), 40, true, .paeth, 1),
    ] {
      let expected = try encode(pixels, width: width, opaque: opaque, filter: filter, pieceBytes: pieceBytes)
      for order in ["backwards", "side by side"] {
        let encoder = try PNGPieceEncoder(
          width: width, height: pixels.count / width, opaque: opaque,
          compression: PNGCompression(level: PNGCodec.defaultCompressionLevel, filter: filter),
          pieceBytes: pieceBytes)
        XCTAssertEqual(encoder.pieces.first?.lowerBound, 0, name)
        XCTAssertEqual(encoder.pieces.last?.upperBound, pixels.count / width, name)
        XCTAssertEqual(pieceBytes == 1 << 30, encoder.pieces.count == 1, name)
        try pixels.withUnsafeBytes { raw in
          if order == "backwards" {
            for piece in encoder.pieces.indices.reversed() {
              try encoder.deflate(piece: piece, of: raw.baseAddress!, stride: width * 4)
            }
          } else {
            let failures = Locked(0)
            let base = UInt(bitPattern: raw.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: encoder.pieces.count) { piece in
              let pointer = UnsafeRawPointer(bitPattern: base)!
              if (try? encoder.deflate(piece: piece, of: pointer, stride: width * 4)) == nil {
                failures.withLock { $0 += 1 }
              }
            }
            XCTAssertEqual(failures.withLock { $0 }, 0, name)
          }
        }
        XCTAssertEqual(try encoder.finish(), expected, "\(name), \(order)")
      }
    }
  }

  /// A piece deflated twice, a PNG finished with a piece missing or twice, and a filter left to a sample
  /// are refused with an error, never a broken file.
  func testThePieceEncoderRefusesWhatWouldBreakTheFile() throws {
    let pixels = photoLikePixels(width: 40, height: 30, alpha: false)
    let compression = PNGCompression(level: 1, filter: .none)
    XCTAssertThrowsError(
      try PNGPieceEncoder(
        width: 40, height: 30, opaque: true, compression: PNGCompression(level: 1, filter: .sampled)))
    XCTAssertThrowsError(try PNGPieceEncoder(width: 0, height: 30, opaque: true, compression: compression))
    let encoder = try PNGPieceEncoder(
      width: 40, height: 30, opaque: true, compression: compression, pieceBytes: 1)
    XCTAssertEqual(encoder.pieces.count, 30)
    try pixels.withUnsafeBytes { raw in
      try encoder.deflate(piece: 3, of: raw.baseAddress!, stride: 160)
      XCTAssertThrowsError(try encoder.deflate(piece: 3, of: raw.baseAddress!, stride: 160))
      XCTAssertThrowsError(try encoder.deflate(piece: 30, of: raw.baseAddress!, stride: 160))
      XCTAssertThrowsError(try encoder.deflate(piece: 4, of: raw.baseAddress!, stride: 100))
    }
    XCTAssertThrowsError(try encoder.finish()) { error in
      XCTAssertTrue("\(error)".contains("a piece is missing"), "\(error)")
    }
    XCTAssertThrowsError(try encoder.finish()) { error in
      XCTAssertTrue("\(error)".contains("already finished"), "\(error)")
    }
  }

  /// The pieces cost little: each starts with an empty window, so a map (the fixture four times over, in
  /// four or five pieces of the default size) comes out at most 3 % larger than in one piece.
  func testPiecesCostLittleSize() throws {
    let map = try streetMapPixels()
    let tall = Array([[UInt32]](repeating: map.pixels, count: 4).joined())
    let whole = try encode(tall, width: map.width, opaque: true, pieceBytes: 0)
    let pieces = try encode(tall, width: map.width, opaque: true)
    XCTAssertNotEqual(pieces, whole)
    XCTAssertLessThan(Double(pieces.count), Double(whole.count) * 1.03)
  }

  /// Encodes running side by side share the memory kept between encodes without mixing it up: images of
  /// several sizes on four threads, over and over, each reads back as its own pixels, with its own
  /// bytes, and what is kept afterwards stays within its bound.
  func testEncodesSideBySideReuseKeptMemoryCleanly() throws {
    let map = try streetMapPixels()
    let images: [(pixels: [UInt32], width: Int, opaque: Bool)] = [
      (map.pixels, map.width, true),
      (photoLikePixels(width: 300, height: 120, alpha: true), 300, false),
      (noisePixels(width: 256, height: 64), 256, true),
      (Array(map.pixels.prefix(map.width * 40)), map.width, true),
    ]
    let expected = try images.map {
      try encode($0.pixels, width: $0.width, opaque: $0.opaque, pieceBytes: 8 << 10)
    }
    let expectedPixels = images.map { straightRGBA($0.pixels) }
    let failures = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for round in 0..<12 {
        let index = (thread + round) % images.count
        let image = images[index]
        do {
          let png = try image.pixels.withUnsafeBytes {
            try PNGCodec.encodeARGB32(
              $0.baseAddress!, width: image.width, height: image.pixels.count / image.width,
              stride: image.width * 4, opaque: image.opaque, pieceBytes: 8 << 10)
          }
          if png != expected[index] {
            failures.withLock { $0.append("image \(index), round \(round): bytes") }
          }
          if try PNGCodec.decode(png).rgba != expectedPixels[index] {
            failures.withLock { $0.append("image \(index), round \(round): pixels") }
          }
        } catch {
          failures.withLock { $0.append("image \(index), round \(round): \(error)") }
        }
      }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    XCTAssertGreaterThan(PNGCodec.keptScratchBytes, 0, "memory is kept for the next encode")
    XCTAssertLessThanOrEqual(PNGCodec.keptScratchBytes, 48 << 20)
  }

  func testTheSamePixelsGiveTheSameBytes() throws {
    let pixels = photoLikePixels(width: 64, height: 1, alpha: false)
    XCTAssertEqual(try encode(pixels, width: 64, opaque: true), try encode(pixels, width: 64, opaque: true))
    // One row, one column: the filter sample is smaller than its usual four runs of eight rows.
    let column = try encode([0xFF12_3456], width: 1, opaque: true)
    XCTAssertEqual(try PNGCodec.decode(column).rgba, [0x12, 0x34, 0x56, 0xFF])
  }

  func testAMapIsSmallerThanAtTheFastestLevel() throws {
    let map = try streetMapPixels()
    let fastest = try map.pixels.withUnsafeBytes {
      try PNGCodec.encodeARGB32(
        $0.baseAddress!, width: map.width, height: map.height, stride: map.width * 4, opaque: true,
        compressionLevel: 1)
    }
    XCTAssertLessThan(try encode(map.pixels, width: map.width, opaque: true).count, fastest.count)
  }

  func testImpossibleSizesAreRefused() throws {
    let pixels = [UInt32](repeating: 0, count: 16)
    try pixels.withUnsafeBytes { raw in
      for (width, height, stride) in [(0, 4, 16), (4, 0, 16), (4, 4, 12), (-1, 4, 16)] {
        XCTAssertThrowsError(
          try PNGCodec.encodeARGB32(
            raw.baseAddress!, width: width, height: height, stride: stride, opaque: true)
        ) {
          XCTAssertEqual(
            $0 as? ImageCodecError, .encodingFailed("cannot encode a \(width)×\(height) image"))
        }
      }
    }
  }

  /// The row-by-row writer gives the same bytes however the rows are handed in (one at a time, in uneven
  /// bands, all at once), and they are the bytes the whole-image encoder writes above its buffered size.
  func testRowsHandedInAnyWayGiveTheSameBytes() throws {
    let (width, height) = (700, 1500)
    let pixels = photoLikePixels(width: width, height: height, alpha: false)
    let whole = try encode(pixels, width: width, opaque: true, bufferedBytes: 0)
    for bands in [[height], Array(repeating: 1, count: height), [1, 299, 512, 3, 685]] {
      let writer = try PNGRowWriter(width: width, height: height, opaque: true)
      var row = 0
      try pixels.withUnsafeBytes { bytes in
        for count in bands {
          try writer.write(bytes.baseAddress! + row * width * 4, rows: count, stride: width * 4)
          row += count
        }
      }
      XCTAssertTrue(try writer.finish() == whole, "bands \(bands.prefix(5))")
    }
    XCTAssertEqual(try PNGCodec.decode(whole).rgba, straightRGBA(pixels))
  }

  func testTheRowByRowWriterRefusesTooManyRowsAndAnEarlyEnd() throws {
    let pixels = [UInt32](repeating: 0xFF11_2233, count: 40 * 10)
    let writer = try PNGRowWriter(width: 40, height: 10, opaque: true)
    try pixels.withUnsafeBytes { bytes in
      try writer.write(bytes.baseAddress!, rows: 6, stride: 160)
      XCTAssertThrowsError(try writer.write(bytes.baseAddress!, rows: 5, stride: 160))
    }
    XCTAssertThrowsError(try writer.finish()) {
      XCTAssertEqual(
        $0 as? ImageCodecError, .encodingFailed("the PNG stream ended before its last row"))
    }
    XCTAssertThrowsError(try writer.finish())
    XCTAssertThrowsError(try PNGRowWriter(width: 0, height: 10, opaque: true))
  }
}
