import Foundation
import Gzip
import Locking
import Tiles

/// PMTiles archives written by hand from the spec, for archives no writer would make.
struct PMTilesArchiveBuilder {
  var rootEntries: [PMTilesEntry]
  var leafDirectories: [UInt8] = []
  var tileData: [UInt8] = []
  var metadata: [UInt8] = Array(#"{"name":"hand"}"#.utf8)
  /// Header compression codes: 1 none, 2 gzip, 3 brotli, 4 zstd.
  var internalCompression: UInt8 = 1
  var tileCompression: UInt8 = 1

  /// An archive whose tiles are `tiles` (tile id and bytes), one entry each, in one root directory.
  init(tiles: [(UInt64, [UInt8])]) {
    rootEntries = []
    for (id, bytes) in tiles {
      rootEntries.append(
        PMTilesEntry(tileID: id, offset: UInt64(tileData.count), length: UInt32(bytes.count), runLength: 1))
      tileData += bytes
    }
  }

  init(rootEntries: [PMTilesEntry]) {
    self.rootEntries = rootEntries
  }

  /// The columnar varint encoding of spec §4.2.
  static func directory(_ entries: [PMTilesEntry]) -> [UInt8] {
    var out: [UInt8] = []
    func varint(_ value: UInt64) {
      var rest = value
      while rest >= 0x80 {
        out.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
      }
      out.append(UInt8(rest))
    }
    varint(UInt64(entries.count))
    var last: UInt64 = 0
    for entry in entries {
      varint(entry.tileID - last)
      last = entry.tileID
    }
    for entry in entries { varint(UInt64(entry.runLength)) }
    for entry in entries { varint(UInt64(entry.length)) }
    for (index, entry) in entries.enumerated() {
      let previous = index > 0 ? entries[index - 1] : nil
      varint(previous.map { $0.offset + UInt64($0.length) == entry.offset } == true ? 0 : entry.offset + 1)
    }
    return out
  }

  func compressedIfGzip(_ bytes: [UInt8]) -> [UInt8] {
    internalCompression == 2 ? (try? Gzip.deflate(bytes)) ?? [] : bytes
  }

  /// Header, root directory, metadata, leaf directories, tile data.
  func build() -> [UInt8] {
    let root = compressedIfGzip(Self.directory(rootEntries))
    let meta = compressedIfGzip(metadata)
    let rootOffset = UInt64(PMTilesHeader.size)
    let metadataOffset = rootOffset + UInt64(root.count)
    let leavesOffset = metadataOffset + UInt64(meta.count)
    let tilesOffset = leavesOffset + UInt64(leafDirectories.count)
    return Self.header(
      root: (rootOffset, UInt64(root.count)), metadata: (metadataOffset, UInt64(meta.count)),
      leaves: (leavesOffset, UInt64(leafDirectories.count)), tiles: (tilesOffset, UInt64(tileData.count)),
      internalCompression: internalCompression, tileCompression: tileCompression)
      + root + meta + leafDirectories + tileData
  }

  typealias Section = (offset: UInt64, length: UInt64)

  static func header(
    root: Section, metadata: Section, leaves: Section, tiles: Section, internalCompression: UInt8 = 1,
    tileCompression: UInt8 = 1
  ) -> [UInt8] {
    var out = Array("PMTiles".utf8) + [3]
    func u64(_ value: UInt64) { out += withUnsafeBytes(of: value.littleEndian, Array.init) }
    func i32(_ value: Int32) { out += withUnsafeBytes(of: value.littleEndian, Array.init) }
    for section in [root, metadata, leaves, tiles] {
      u64(section.offset)
      u64(section.length)
    }
    u64(0)
    u64(0)
    u64(0)
    out += [1, internalCompression, tileCompression, 1, 0, 14]
    i32(-1_800_000_000)
    i32(-850_000_000)
    i32(1_800_000_000)
    i32(850_000_000)
    out.append(0)
    i32(0)
    i32(0)
    return out
  }
}

/// Archive bytes in memory that record every read, to show what a lookup touches.
final class RecordingSource: PMTilesByteSource {
  let base: any PMTilesByteSource
  private let reads = Locked<[(offset: UInt64, length: Int)]>([])

  init(_ base: any PMTilesByteSource) {
    self.base = base
  }

  convenience init(_ bytes: [UInt8]) {
    self.init(MemorySource(bytes))
  }

  var size: UInt64 { base.size }

  func read(offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
    reads.withLock { $0.append((offset, length)) }
    return try base.read(offset: offset, length: length)
  }

  /// Bytes read so far, and then forgets them.
  func takeBytesRead() -> Int {
    reads.withLock { reads in
      defer { reads.removeAll() }
      return reads.map(\.length).reduce(0, +)
    }
  }
}

struct MemorySource: PMTilesByteSource {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var size: UInt64 { UInt64(bytes.count) }

  func read(offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
    guard offset <= UInt64(bytes.count), length <= bytes.count - Int(offset) else {
      throw .unreadable(path: "memory", reason: "read past the end")
    }
    return Array(bytes[Int(offset)..<Int(offset) + length])
  }
}
