import CZlib
import Foundation
import ImageCodecs
import MapMath
import Places
import Rendering
import TestSupport
import Tiles
import XCTest

/// How a map's PNG is deflated: fast and unfiltered for a map drawn from vectors alone (mymap's own encoder,
/// cpng_fast_deflate.c), which still comes out smaller than libpng would write it (adaptive filters, zlib
/// level 6, issue 13's bar); the default for a map over raster tiles.
final class MapPNGCompressionTests: XCTestCase {
  private func render(_ places: String, tiles: String?, size: PixelSize) throws -> [UInt8] {
    let set = try LocationsFile.read(path: RepositoryPaths.examples.appendingPathComponent(places).path)
    var request = RenderRequest(annotations: set.locations, user: set.user)
    request.size = size
    if let tiles {
      request.tiles = try openTileSource(at: RepositoryPaths.examples.appendingPathComponent(tiles).path)
      if request.tiles?.content == .vector { request.mapStyle = try VectorMapFixtures.style("light") }
    }
    return try Snapshotter.render(request).data
  }

  /// The PNG's pixels encoded again by mymap's encoder as `compression` says.
  private func encodeAgain(_ png: [UInt8], _ compression: PNGCompression) throws
    -> (data: Data, image: RasterImage)
  {
    let image = try PNGCodec.decode(Data(png))
    let argb = (0..<image.width * image.height).map { index in
      0xFF00_0000 | UInt32(image.rgba[index * 4]) << 16 | UInt32(image.rgba[index * 4 + 1]) << 8
        | UInt32(image.rgba[index * 4 + 2])
    }
    let data = try argb.withUnsafeBytes {
      try PNGCodec.encodeARGB32(
        $0.baseAddress!, width: image.width, height: image.height, stride: image.width * 4, opaque: true,
        compressionLevel: compression.level, filter: compression.filter)
    }
    return (data, image)
  }

  func testAStreetMapIsDeflatedFastAndStaysSmallerThanLibpngsZlib6() throws {
    let png = try render(
      "helsinki.json", tiles: "tiles/helsinki.pmtiles", size: PixelSize(width: 600, height: 400))
    let fast = try encodeAgain(png, .vectorDrawing)
    XCTAssertEqual(PNGCompression.vectorDrawing, PNGCompression(level: 1, filter: .none))
    XCTAssertTrue(Data(png) == fast.data, "written at the fast level")
    let reference = LibpngDefaultEncoding.compressedSize(of: fast.image)
    XCTAssertLessThan(png.count, reference, "libpng at zlib level 6 would write \(reference) bytes")
    XCTAssertLessThan(try encodeAgain(png, .standard).data.count, png.count)
  }

  func testTheBuiltInBasemapIsDeflatedFastAndStaysSmallerThanLibpngsZlib6() throws {
    let png = try render("world-trip.json", tiles: nil, size: PixelSize(width: 600, height: 350))
    let fast = try encodeAgain(png, .vectorDrawing)
    XCTAssertTrue(Data(png) == fast.data, "written at the fast level")
    XCTAssertLessThan(png.count, LibpngDefaultEncoding.compressedSize(of: fast.image))
  }

  func testAMapOverRasterTilesKeepsTheDefaultLevel() throws {
    let png = try render(
      "europe-trip.json", tiles: "tiles/osm-europe.mbtiles", size: PixelSize(width: 640, height: 480))
    XCTAssertTrue(Data(png) == (try encodeAgain(png, .standard).data))
    XCTAssertFalse(Data(png) == (try encodeAgain(png, .vectorDrawing).data))
  }

  /// The reference itself: Benchmarks/png_floor.c's `reencode` (libpng 1.6 with zlib level 6) writes the
  /// pixels of the street-map fixture (600×160) in a file of 82,708 bytes.
  func testTheReferenceIsWhatLibpngWrites() throws {
    let image = try PNGCodec.decode(Data(contentsOf: RepositoryPaths.fixture("images/street-map.png")))
    XCTAssertEqual(LibpngDefaultEncoding.compressedSize(of: image), 82_708)
  }
}

/// What libpng 1.6 writes for an opaque 8-bit RGB image by default: each row with the filter whose bytes,
/// read as signed, have the smallest sum of magnitudes, deflated by zlib at level 6 with the filtered-data
/// strategy; the size of the file's signature, chunks and stream.
enum LibpngDefaultEncoding {
  static func compressedSize(of image: RasterImage) -> Int {
    let rowBytes = image.width * 3
    var rgb = [UInt8](repeating: 0, count: rowBytes * image.height)
    for index in 0..<image.width * image.height {
      for channel in 0..<3 { rgb[index * 3 + channel] = image.rgba[index * 4 + channel] }
    }
    var filtered: [UInt8] = []
    filtered.reserveCapacity((rowBytes + 1) * image.height)
    let zero = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<image.height {
      let row = Array(rgb[y * rowBytes..<(y + 1) * rowBytes])
      let above = y == 0 ? zero : Array(rgb[(y - 1) * rowBytes..<y * rowBytes])
      var best: [UInt8] = []
      var bestSum = Int.max
      for filter in 0..<5 {
        var candidate = [UInt8(filter)]
        candidate.reserveCapacity(rowBytes + 1)
        var sum = 0
        for i in 0..<rowBytes {
          let left = i >= 3 ? Int(row[i - 3]) : 0
          let up = Int(above[i])
          let upLeft = i >= 3 ? Int(above[i - 3]) : 0
          let predictor: Int
          switch filter {
          case 0: predictor = 0
          case 1: predictor = left
          case 2: predictor = up
          case 3: predictor = (left + up) / 2
          default:
            let p = left + up - upLeft
            let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
            predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
          }
          let byte = UInt8(truncatingIfNeeded: Int(row[i]) - predictor)
          candidate.append(byte)
          sum += byte < 128 ? Int(byte) : 256 - Int(byte)
        }
        if sum < bestSum { (best, bestSum) = (candidate, sum) }
      }
      filtered += best
    }
    // Signature, IHDR, one IDAT per 8 KiB of stream (libpng's buffer), IEND.
    let stream = deflate(filtered)
    return 8 + 25 + stream + 12 * ((stream + 8191) / 8192) + 12
  }

  private static func deflate(_ input: [UInt8]) -> Int {
    var stream = z_stream()
    guard
      deflateInit2_(
        &stream, 6, Z_DEFLATED, 15, 8, Z_FILTERED, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { return 0 }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))))
    var input = input
    return input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        stream.next_in = source.baseAddress
        stream.avail_in = UInt32(source.count)
        stream.next_out = target.baseAddress
        stream.avail_out = UInt32(target.count)
        return CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END ? Int(stream.total_out) : 0
      }
    }
  }
}
