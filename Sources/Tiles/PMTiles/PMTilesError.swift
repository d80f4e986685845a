import Gzip

/// Why a PMTiles archive, or a part of it, cannot be read. Each `description` is one line for the user.
public enum PMTilesError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be opened or read; `reason` is the system's word for it.
  case unreadable(path: String, reason: String)
  /// The file does not start with the `PMTiles` magic number (or is shorter than a header).
  case notPMTiles
  /// A PMTiles archive of another version than 3.
  case unsupportedVersion(Int)
  /// The archive compresses its directories or tiles in a way mymap cannot read (only none and gzip).
  case unsupportedCompression(PMTilesCompression, of: PMTilesCompressedPart)
  /// A header section that does not lie inside the file (or is too large to be read).
  case sectionOutOfBounds(PMTilesSectionName, offset: UInt64, length: UInt64, fileSize: UInt64)
  /// A directory (root or leaf, at this file offset) that cannot be decoded.
  case damagedDirectory(fileOffset: UInt64, PMTilesDirectoryProblem)
  /// Leaf directories nested deeper than `PMTilesLimits.maximumLeafDepth`.
  case leafDirectoriesTooDeep(limit: Int)
  /// A leaf directory that leads back to one already visited for the same tile.
  case leafDirectoryCycle(fileOffset: UInt64)
  /// A tile or leaf directory whose stored length passes the reader's limit.
  case tooLarge(PMTilesCompressedPart, length: UInt64, limit: Int)
  /// Compressed directories, metadata or a tile that do not inflate.
  case inflateFailed(PMTilesCompressedPart, GzipError)
  /// The JSON metadata is not a JSON object; `reason` says why.
  case badMetadata(String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "cannot read \(path): \(reason)"
    case .notPMTiles:
      return "not a PMTiles archive (no PMTiles header)"
    case .unsupportedVersion(let version):
      return "PMTiles version \(version) is not supported (only version 3)"
    case .unsupportedCompression(let compression, let part):
      return "PMTiles \(part.rawValue) compressed with \(compression) are not supported (only none and gzip)"
    case .sectionOutOfBounds(let section, let offset, let length, let fileSize):
      return "PMTiles \(section.rawValue) at byte \(offset) (\(length) bytes) lies outside the "
        + "\(fileSize)-byte file or is too large"
    case .damagedDirectory(let offset, let problem):
      return "damaged PMTiles directory at byte \(offset): \(problem)"
    case .leafDirectoriesTooDeep(let limit):
      return "PMTiles leaf directories nest deeper than \(limit) levels"
    case .leafDirectoryCycle(let offset):
      return "PMTiles leaf directory at byte \(offset) points back to itself"
    case .tooLarge(let part, let length, let limit):
      return "PMTiles \(part.rawValue) of \(length) bytes exceed the limit of \(limit) bytes"
    case .inflateFailed(let part, let error):
      return "cannot inflate PMTiles \(part.rawValue): \(error)"
    case .badMetadata(let reason):
      return "bad PMTiles metadata: \(reason)"
    }
  }
}

/// The parts of an archive that the header's two compression fields cover.
public enum PMTilesCompressedPart: String, Sendable {
  case directories
  case metadata
  case tiles
}

/// The sections a PMTiles header points to.
public enum PMTilesSectionName: String, Sendable {
  case rootDirectory = "root directory"
  case metadata = "metadata"
  case leafDirectories = "leaf directories"
  case tileData = "tile data"
}

/// What is wrong inside a directory.
public enum PMTilesDirectoryProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The directory has no entries (the spec requires at least one).
  case empty
  /// The directory ends inside an entry.
  case truncated
  /// A varint longer than 10 bytes.
  case malformedVarint
  /// More entries than `PMTilesLimits.maximumDirectoryEntries`.
  case tooManyEntries(UInt64)
  /// Entry `index` does not come after the previous one (tile ids ascending, runs not overlapping).
  case outOfOrder(entry: Int)
  /// Entry `index` has length 0, or a length or run wider than 32 bits.
  case badLength(entry: Int)
  /// The first entry says "right after the previous entry", and there is none.
  case missingOffset
  /// Entry `index` points outside its section (tile data or leaf directories).
  case outOfBounds(entry: Int)
  /// Bytes follow the last entry.
  case trailingBytes

  public var description: String {
    switch self {
    case .empty: return "no entries"
    case .truncated: return "it ends inside an entry"
    case .malformedVarint: return "malformed varint"
    case .tooManyEntries(let count):
      return "\(count) entries, more than \(PMTilesLimits.maximumDirectoryEntries)"
    case .outOfOrder(let entry): return "entry \(entry) is out of order"
    case .badLength(let entry): return "entry \(entry) has an impossible length or run"
    case .missingOffset: return "the first entry has no offset"
    case .outOfBounds(let entry): return "entry \(entry) points outside its section"
    case .trailingBytes: return "bytes after the last entry"
    }
  }
}
