import FuzzSupport
import MapMath
import Tiles

// A whole PMTiles v3 archive from memory: header, root and leaf directories (raw or gzip), metadata and a
// few tiles. Whatever the header claims, reading stays within `PMTilesLimits` and the bytes given.
struct MemoryArchive: PMTilesByteSource {
  let bytes: [UInt8]
  var size: UInt64 { UInt64(bytes.count) }

  func read(offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
    require(length >= 0 && offset <= size && UInt64(length) <= size - offset, "read past the archive")
    return Array(bytes[Int(offset)..<Int(offset) + length])
  }
}

let tiles =
  (0..<24).compactMap { TileID(pmtilesID: UInt64($0)) } + [TileID(z: 14, x: 9326, y: 4742)].compactMap { $0 }

Fuzz.run { input in
  let archive: PMTilesArchive
  do {
    archive = try PMTilesArchive(source: MemoryArchive(bytes: input.bytes), name: "fuzz.pmtiles")
  } catch {
    requireShortMessage("\(error)")
    return
  }
  _ = try? archive.metadata()
  for tile in tiles {
    guard let data = try? archive.tile(tile) else { continue }
    require(data.count <= PMTilesLimits.maximumTileBytes, "a tile of \(data.count) bytes")
  }
}
