import Gzip
import JSON
import Locking
import MapMath

/// A PMTiles version 3 archive (a single file of tiles with Hilbert-ordered directories), read in place.
///
/// Opening reads only the header and the root directory, so a 1 GB archive opens in the same time and
/// memory as a small one; each tile costs a directory lookup (leaf directories are read once and kept in
/// a small cache) and one read of its bytes. Safe to use from several threads.
public final class PMTilesArchive: Sendable, CustomStringConvertible {
  public let header: PMTilesHeader
  /// The path or name the archive was opened as.
  public let description: String
  private let source: any PMTilesByteSource
  private let root: PMTilesDirectory
  private let leaves = Locked(PMTilesLeafCache())

  /// Opens a local archive.
  public convenience init(path: String) throws(PMTilesError) {
    try self.init(source: try PMTilesFile(path: path), name: path)
  }

  /// Reads the header and root directory from `source`; refuses compressions other than none and gzip.
  public init(source: any PMTilesByteSource, name: String) throws(PMTilesError) {
    guard source.size >= UInt64(PMTilesHeader.size) else { throw .notPMTiles }
    let header = try PMTilesHeader(parsing: try source.read(offset: 0, length: PMTilesHeader.size))
    try header.checkSections(fileSize: source.size)
    for (compression, part) in [
      (header.internalCompression, PMTilesCompressedPart.directories), (header.tileCompression, .tiles),
    ] where compression != .none && compression != .gzip {
      throw .unsupportedCompression(compression, of: part)
    }
    self.header = header
    self.source = source
    self.description = name
    self.root = try Self.readDirectory(
      source, header, at: header.rootDirectory.offset, header.rootDirectory.length)
  }

  /// The tile's bytes as stored (compressed as `header.tileCompression` says), or nil when the archive
  /// does not have it.
  public func tileData(_ tile: TileID) throws(PMTilesError) -> [UInt8]? {
    guard let entry = try entry(for: tile.pmtilesID) else { return nil }
    guard entry.length <= PMTilesLimits.maximumTileBytes else {
      throw .tooLarge(.tiles, length: UInt64(entry.length), limit: PMTilesLimits.maximumTileBytes)
    }
    return try source.read(offset: header.tileData.offset + entry.offset, length: Int(entry.length))
  }

  /// The tile's bytes uncompressed (inflated into at most `limit` bytes), or nil when the archive does
  /// not have it.
  public func tile(_ tile: TileID, limit: Int = PMTilesLimits.maximumTileBytes) throws(PMTilesError)
    -> [UInt8]?
  {
    guard let stored = try tileData(tile) else { return nil }
    guard header.tileCompression == .gzip else { return stored }
    return try Self.inflate(stored, limit: limit, part: .tiles)
  }

  /// The JSON metadata as written (inflated); empty when the archive has none.
  public func metadataBytes() throws(PMTilesError) -> [UInt8] {
    let stored = try source.read(offset: header.metadata.offset, length: Int(header.metadata.length))
    guard header.internalCompression == .gzip, !stored.isEmpty else { return stored }
    return try Self.inflate(stored, limit: PMTilesLimits.maximumMetadataBytes, part: .metadata)
  }

  /// The JSON metadata object (`name`, `attribution`, `vector_layers`, …); an empty object when the
  /// archive has none.
  public func metadata() throws(PMTilesError) -> JSONValue {
    let bytes = try metadataBytes()
    guard !bytes.isEmpty else { return .object([]) }
    let value: JSONValue
    do throws(JSONSyntaxError) {
      value = try JSONParser.parse(bytes)
    } catch {
      throw .badMetadata(error.description)
    }
    guard case .object = value else { throw .badMetadata("\(value.summary) instead of an object") }
    return value
  }

  /// The entry holding `tileID`, descending through leaf directories; nil when the tile is absent.
  func entry(for tileID: UInt64) throws(PMTilesError) -> PMTilesEntry? {
    var directory = root
    var visited: [UInt64] = []
    while true {
      guard let entry = directory.entry(for: tileID) else { return nil }
      guard entry.isLeaf else { return entry }
      guard visited.count < PMTilesLimits.maximumLeafDepth else {
        throw .leafDirectoriesTooDeep(limit: PMTilesLimits.maximumLeafDepth)
      }
      // Directory decoding checked that the entry lies inside the leaf section, itself inside the file.
      let offset = header.leafDirectories.offset + entry.offset
      guard !visited.contains(offset) else { throw .leafDirectoryCycle(fileOffset: offset) }
      visited.append(offset)
      directory = try leaf(at: offset, length: UInt64(entry.length))
    }
  }

  /// How many leaf directories are cached (for tests of the cache's bounds).
  var cachedLeafCount: Int { leaves.withLock { $0.count } }

  private func leaf(at offset: UInt64, length: UInt64) throws(PMTilesError) -> PMTilesDirectory {
    if let cached = leaves.withLock({ $0.directory(at: offset) }) { return cached }
    let directory = try Self.readDirectory(source, header, at: offset, length)
    leaves.withLock { $0.insert(directory, at: offset) }
    return directory
  }

  private static func readDirectory(
    _ source: any PMTilesByteSource, _ header: PMTilesHeader, at offset: UInt64, _ length: UInt64
  ) throws(PMTilesError) -> PMTilesDirectory {
    guard length <= UInt64(PMTilesLimits.maximumDirectoryBytes) else {
      throw .tooLarge(.directories, length: length, limit: PMTilesLimits.maximumDirectoryBytes)
    }
    var bytes = try source.read(offset: offset, length: Int(length))
    if header.internalCompression == .gzip {
      bytes = try inflate(bytes, limit: PMTilesLimits.maximumDirectoryBytes, part: .directories)
    }
    do throws(PMTilesDirectoryProblem) {
      return try PMTilesDirectory(
        decoding: bytes, tileDataLength: header.tileData.length,
        leafDirectoriesLength: header.leafDirectories.length)
    } catch {
      throw .damagedDirectory(fileOffset: offset, error)
    }
  }

  private static func inflate(_ bytes: [UInt8], limit: Int, part: PMTilesCompressedPart) throws(PMTilesError)
    -> [UInt8]
  {
    do throws(GzipError) {
      return try Gzip.inflate(bytes, limit: limit)
    } catch {
      throw .inflateFailed(part, error)
    }
  }
}
