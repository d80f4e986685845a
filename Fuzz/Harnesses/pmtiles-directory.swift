import FuzzSupport
import Tiles

// A PMTiles directory as decoded after inflating (spec §4.2's columns of varints): entries in strictly
// ascending order, each inside its section, each found again by its own tile id.
let tileDataLength: UInt64 = 1 << 30
let leafDirectoriesLength: UInt64 = 1 << 20

Fuzz.run { input in
  let directory: PMTilesDirectory
  do {
    directory = try PMTilesDirectory(
      decoding: input.bytes, tileDataLength: tileDataLength, leafDirectoriesLength: leafDirectoriesLength)
  } catch {
    requireShortMessage("\(error)")
    return
  }
  let entries = directory.entries
  require(
    !entries.isEmpty && entries.count <= PMTilesLimits.maximumDirectoryEntries, "\(entries.count) entries")
  for (index, entry) in entries.enumerated() {
    require(index == 0 || entries[index - 1].tileID < entry.tileID, "entry \(index) out of order")
    let section = entry.isLeaf ? leafDirectoriesLength : tileDataLength
    require(
      entry.offset <= section && UInt64(entry.length) <= section - entry.offset, "entry \(index) outside")
    if index < 64 { require(directory.entry(for: entry.tileID) == entry, "entry \(index) not found again") }
  }
}
