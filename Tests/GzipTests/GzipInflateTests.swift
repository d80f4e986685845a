import Gzip
import TestSupport
import XCTest

final class GzipInflateTests: XCTestCase {
  /// `gzip.compress(b"mymap vector tiles\n", mtime=0)` and `zlib.compress(…)` from Python 3.11: streams
  /// written by another encoder than the one under test.
  static let pythonGzip: [UInt8] = [
    31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 173, 204, 77, 44, 80, 40, 75, 77, 46, 201, 47, 82, 40, 201, 204, 73,
    45, 230, 2, 0, 153, 81, 82, 107, 19, 0, 0, 0,
  ]
  static let pythonZlib: [UInt8] = [
    120, 156, 203, 173, 204, 77, 44, 80, 40, 75, 77, 46, 201, 47, 82, 40, 201, 204, 73, 45, 230, 2, 0, 74,
    183,
    7, 35,
  ]
  static let pythonText = Array("mymap vector tiles\n".utf8)

  func testInflatesGzipAndZlibWrittenByPython() throws {
    XCTAssertEqual(try Gzip.inflate(Self.pythonGzip, limit: 100), Self.pythonText)
    XCTAssertEqual(try Gzip.inflate(Self.pythonZlib, limit: 100), Self.pythonText)
    XCTAssertEqual(Gzip.wrapper(of: Self.pythonGzip), .gzip)
    XCTAssertEqual(Gzip.wrapper(of: Self.pythonZlib), .zlib)
  }

  func testRoundTripsEmptySmallRandomAndRepetitiveData() throws {
    var random = SeededGenerator(seed: 7)
    let noise = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let text = Array(String(repeating: "Senaatintori, Aleksanterinkatu 22; ", count: 30_000).utf8)
    for original in [[], [0x42], noise, text] as [[UInt8]] {
      for wrapper in [Gzip.Wrapper.gzip, .zlib] {
        for level in [0, 1, 6, 9] {
          let packed = try Gzip.deflate(original, level: level, wrapper: wrapper)
          XCTAssertEqual(Gzip.wrapper(of: packed), wrapper)
          XCTAssertEqual(try Gzip.inflate(packed, limit: original.count), original)
          XCTAssertEqual(try Gzip.inflate(packed[...], limit: original.count), original, "slices work too")
        }
      }
    }
    XCTAssertLessThan(try Gzip.deflate(text).count, text.count / 100, "repetitive text compresses")
  }

  func testLimitIsInclusiveAndOneByteLessFails() throws {
    let original = [UInt8](repeating: 7, count: 1000)
    let packed = try Gzip.deflate(original)
    XCTAssertEqual(try Gzip.inflate(packed, limit: 1000).count, 1000)
    XCTAssertThrowsError(try Gzip.inflate(packed, limit: 999)) {
      XCTAssertEqual($0 as? GzipError, .tooLarge(limit: 999))
    }
    XCTAssertThrowsError(try Gzip.inflate(packed, limit: -5)) {
      XCTAssertEqual($0 as? GzipError, .tooLarge(limit: 0))
    }
  }

  func testBombOf64MegabytesStopsAtTheLimit() throws {
    let bomb = try Gzip.deflate([UInt8](repeating: 0, count: 64 << 20), level: 9)
    XCTAssertLessThan(bomb.count, 128 << 10, "64 MB of zeros deflate to about 64 KB")
    XCTAssertThrowsError(try Gzip.inflate(bomb, limit: 8 << 20)) {
      XCTAssertEqual($0 as? GzipError, .tooLarge(limit: 8 << 20))
    }
  }

  func testConcatenatedMembersClaimingOneGigabyteStopAtTheLimit() throws {
    let member = try Gzip.deflate([UInt8](repeating: 0, count: 1 << 20), level: 9)
    var bomb: [UInt8] = []
    for _ in 0..<1024 { bomb += member }
    XCTAssertLessThan(bomb.count, 2 << 20)
    XCTAssertThrowsError(try Gzip.inflate(bomb, limit: 16 << 20)) {
      XCTAssertEqual($0 as? GzipError, .tooLarge(limit: 16 << 20))
    }
  }

  /// A one-member gzip is inflated in one call into the size its trailer states (`WholeGzipInflater`);
  /// a trailer that lies about the size must still be caught, whichever way it lies.
  func testATrailerThatMisstatesTheSizeIsRefused() throws {
    let original = Array(String(repeating: "Pohjoisesplanadi 33, ", count: 200).utf8)
    let packed = try Gzip.deflate(original)
    XCTAssertEqual(try Gzip.inflate(packed, limit: original.count), original)
    for stated in [0, 1, original.count - 1, original.count + 1, 1 << 20] {
      var lying = packed
      for byte in 0..<4 { lying[lying.count - 4 + byte] = UInt8(truncatingIfNeeded: stated >> (8 * byte)) }
      XCTAssertThrowsError(try Gzip.inflate(lying, limit: 2 << 20), "a trailer stating \(stated) bytes") {
        XCTAssertEqual($0 as? GzipError, .corrupt(offset: packed.count, reason: "incorrect length check"))
      }
    }
  }

  func testAGzipWithANameAndAnExtraFieldInflates() throws {
    // FEXTRA and FNAME set: the header grows by the extra field and the name before the deflate data.
    let plain = try Gzip.deflate(Self.pythonText)
    let header: [UInt8] =
      [31, 139, 8, 0x04 | 0x08, 0, 0, 0, 0, 0, 3, 4, 0, 1, 2, 3, 4] + Array("tile.pbf".utf8) + [0]
    let named = header + plain[10...]
    XCTAssertEqual(try Gzip.inflate(named, limit: 100), Self.pythonText)
  }

  func testConcatenatedMembersInflateToTheirConcatenation() throws {
    let joined = try Gzip.deflate(Array("Kauppatori ".utf8)) + Gzip.deflate(Array("Esplanadi".utf8))
    XCTAssertEqual(try Gzip.inflate(joined, limit: 100), Array("Kauppatori Esplanadi".utf8))
  }

  func testTruncationAtEveryByteIsReportedAsTruncated() throws {
    for stream in [Self.pythonGzip, Self.pythonZlib, try Gzip.deflate(Array(0..<255) + Array(0..<255))] {
      for length in 0..<stream.count {
        XCTAssertThrowsError(try Gzip.inflate(stream[..<length], limit: 1 << 20), "prefix \(length)") {
          guard let error = $0 as? GzipError else { return XCTFail("untyped error \($0)") }
          if length < 2 {
            XCTAssertEqual(error, .notCompressed)
          } else if case .truncated = error {
          } else {
            XCTFail("prefix \(length) of \(stream.count): \(error)")
          }
        }
      }
    }
  }

  func testTrailingGarbageIsReportedWithItsOffset() throws {
    XCTAssertThrowsError(try Gzip.inflate(Self.pythonGzip + [0, 1, 2], limit: 100)) {
      XCTAssertEqual($0 as? GzipError, .trailingBytes(offset: Self.pythonGzip.count))
    }
    XCTAssertThrowsError(try Gzip.inflate(Self.pythonZlib + [0x1F, 0x8B], limit: 100)) {
      XCTAssertEqual($0 as? GzipError, .truncated(inflatedBytes: Self.pythonText.count))
    }
  }

  func testEveryFlippedByteEitherFailsOrChangesNothing() throws {
    for stream in [Self.pythonGzip, Self.pythonZlib] {
      for index in stream.indices {
        for bit in 0..<8 {
          var damaged = stream
          damaged[index] ^= 1 << bit
          do {
            let inflated = try Gzip.inflate(damaged, limit: 1 << 16)
            // Only header fields that carry no data (mtime, OS, extra flags) may change unnoticed.
            XCTAssertEqual(inflated, Self.pythonText, "byte \(index) bit \(bit)")
          } catch {
            // Typed throws: only a GzipError can arrive here, and a crash would have stopped the test.
          }
        }
      }
    }
  }

  func testRandomBytesBehindAGzipHeaderFail() {
    var random = SeededGenerator(seed: 42)
    for _ in 0..<500 {
      let length = random.int(in: 0...300)
      let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      XCTAssertThrowsError(try Gzip.inflate([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + body, limit: 1 << 16)) {
        XCTAssertNotNil($0 as? GzipError)
      }
      XCTAssertThrowsError(try Gzip.inflate([0x78, 0x9C] + body, limit: 1 << 16)) {
        XCTAssertNotNil($0 as? GzipError)
      }
    }
  }

  func testUncompressedBytesAreRecognised() throws {
    let rawTile: [UInt8] = [0x1A, 0x05, 0x78, 0x02, 0x0A, 0x01, 0x61]
    XCTAssertNil(Gzip.wrapper(of: rawTile))
    XCTAssertNil(Gzip.wrapper(of: [UInt8]()))
    XCTAssertNil(Gzip.wrapper(of: [0x1F]))
    XCTAssertFalse(Gzip.isCompressed(rawTile))
    XCTAssertThrowsError(try Gzip.inflate(rawTile, limit: 100)) {
      XCTAssertEqual($0 as? GzipError, .notCompressed)
    }
    XCTAssertEqual(try Gzip.inflateIfCompressed(rawTile, limit: 100), rawTile)
    XCTAssertEqual(try Gzip.inflateIfCompressed(Self.pythonGzip, limit: 100), Self.pythonText)
    XCTAssertThrowsError(try Gzip.inflateIfCompressed(rawTile, limit: 6)) {
      XCTAssertEqual($0 as? GzipError, .tooLarge(limit: 6))
    }
  }

  func testZlibHeadersOfEveryLevelAreRecognised() throws {
    for level in 0...9 {
      XCTAssertEqual(Gzip.wrapper(of: try Gzip.deflate([1, 2, 3], level: level, wrapper: .zlib)), .zlib)
    }
  }

  func testErrorsSayWhatHappened() {
    XCTAssertEqual(
      GzipError.tooLarge(limit: 8_388_608).description,
      "the compressed data inflates to more than 8388608 bytes")
    XCTAssertEqual(
      GzipError.truncated(inflatedBytes: 12).description,
      "the compressed data ends early (after 12 inflated bytes)")
    XCTAssertEqual(
      GzipError.corrupt(offset: 10, reason: "invalid block type").description,
      "the compressed data is damaged at byte 10: invalid block type")
  }
}
