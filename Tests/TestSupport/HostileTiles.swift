import Foundation
import ImageCodecs
import Tiles
import XCTest

/// Tile bytes that lie about themselves, made from real images so that everything but the lie is valid.
public enum HostileTiles {
  /// A valid PNG of `side` × `side` pixels (or `side` × `height`), one colour.
  public static func png(side: Int = 256, height: Int? = nil) throws -> Data {
    try PNGCodec.encode(RasterImage(width: side, height: height ?? side, red: 90, green: 140, blue: 200))
  }

  /// A PNG whose header claims `width` × `height` pixels (its CRC fixed), with the pixels of a `side`-pixel
  /// image (`side` × `realHeight`): a 0×0 tile, or one of 40,000 pixels a side.
  public static func png(claiming width: Int, _ height: Int, side: Int = 256, realHeight: Int? = nil) throws
    -> Data
  {
    var bytes = [UInt8](try png(side: side, height: realHeight))
    // Signature (8), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4), …, CRC after 13.
    write(UInt32(width), into: &bytes, at: 16)
    write(UInt32(height), into: &bytes, at: 20)
    write(crc32(bytes[12..<29]), into: &bytes, at: 29)
    return Data(bytes)
  }

  /// A decompression bomb with a plausible header: a PNG that says `side` × `side` pixels and whose image
  /// data holds `side` × `realHeight` (valid rows, then many more), so that it inflates to
  /// `realHeight / side` times what it should. libpng reads the rows it needs, then inflates all the
  /// rest to check that there is nothing more.
  public static func pngBomb(side: Int = 256, realHeight: Int = 8192) throws -> Data {
    try png(claiming: side, side, side: side, realHeight: realHeight)
  }

  /// The 256-pixel JPEG fixture with a frame header (SOF) that claims `side` × `side` pixels.
  public static func jpeg(claimingSide side: Int) throws -> Data {
    var bytes = [UInt8](try Data(contentsOf: RepositoryPaths.fixture("images/tile-256.jpg")))
    guard let marker = (0..<bytes.count - 9).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    else { throw TestPrerequisiteMissing("the JPEG fixture has no baseline frame header") }
    // FF C0, length (2), precision (1), height (2), width (2).
    for offset in [marker + 5, marker + 7] {
      bytes[offset] = UInt8(side >> 8 & 0xFF)
      bytes[offset + 1] = UInt8(side & 0xFF)
    }
    return Data(bytes)
  }

  /// The 256-pixel lossy WebP fixture with a VP8 frame header that claims `side` × `side` pixels (14 bits
  /// at most: 16383).
  public static func webp(claimingSide side: Int) throws -> Data {
    var bytes = [UInt8](try Data(contentsOf: RepositoryPaths.fixture("images/tile-256.webp")))
    // RIFF header (12), "VP8 " chunk header (8), frame tag (3), start code 9D 01 2A, width, height (LE).
    guard bytes.count > 30, bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else {
      throw TestPrerequisiteMissing("the WebP fixture is not a simple lossy WebP")
    }
    for offset in [26, 28] {
      bytes[offset] = UInt8(side & 0xFF)
      bytes[offset + 1] = UInt8(side >> 8 & 0x3F)
    }
    return Data(bytes)
  }

  /// `X'89504E47…'`: bytes as an SQL blob literal.
  public static func sqlBlob(_ data: Data) -> String {
    "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
  }

  private static func write(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
    for index in 0..<4 { bytes[offset + index] = UInt8(value >> (24 - 8 * UInt32(index)) & 0xFF) }
  }

  /// The CRC-32 of PNG chunks (and zlib, gzip): reflected polynomial 0xEDB88320.
  public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}

/// Makes a named pipe (FIFO) at `path`: reading it would wait for a writer forever.
public func makeNamedPipe(_ path: String) throws {
  guard mkfifo(path, 0o644) == 0 else {
    throw TestPrerequisiteMissing("cannot make a named pipe here (\(String(cString: strerror(errno))))")
  }
}

/// Runs `body` on a thread of its own and waits at most `seconds` for it: a call that blocks (on a named
/// pipe, an endless query) fails the test instead of hanging the run. Returns what `body` returned, or nil
/// when it did not finish in time.
public func finishing<T: Sendable>(
  within seconds: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line,
  _ body: @escaping @Sendable () -> T
) -> T? {
  let done = DispatchSemaphore(value: 0)
  let box = ResultBox<T>()
  Thread.detachNewThread {
    box.value = body()
    done.signal()
  }
  guard done.wait(timeout: .now() + seconds) == .success else {
    XCTFail("\(what) did not finish within \(seconds) s", file: file, line: line)
    return nil
  }
  return box.value
}

/// Holds one result handed from a thread to the one waiting for it.
///
/// `@unchecked Sendable`: written once before the semaphore is signalled, read after it is waited for.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}
