import MapMath

/// The 127-byte header at the start of a PMTiles version 3 archive (little-endian throughout).
public struct PMTilesHeader: Equatable, Sendable {
  /// A byte range of the archive that the header points to.
  public struct Section: Equatable, Sendable {
    public var offset: UInt64
    public var length: UInt64

    public init(offset: UInt64, length: UInt64) {
      self.offset = offset
      self.length = length
    }
  }

  public static let size = 127
  static let magic = Array("PMTiles".utf8)

  public var rootDirectory: Section
  public var metadata: Section
  public var leafDirectories: Section
  public var tileData: Section
  /// Tiles addressed, entries with tiles, and distinct tile blobs; 0 when the writer did not count.
  public var addressedTileCount: UInt64
  public var tileEntryCount: UInt64
  public var tileContentCount: UInt64
  /// True when tile data is ordered by tile id.
  public var isClustered: Bool
  /// How the directories and metadata are compressed.
  public var internalCompression: PMTilesCompression
  /// How each tile is compressed.
  public var tileCompression: PMTilesCompression
  public var tileType: PMTilesTileType
  public var minZoom: Int
  public var maxZoom: Int
  /// The area the tiles cover.
  public var bounds: GeoBox
  public var centerZoom: Int
  public var center: Coordinate

  /// Reads a header from the first 127 bytes of an archive.
  public init(parsing bytes: some Collection<UInt8>) throws(PMTilesError) {
    let header = Array(bytes.prefix(Self.size))
    guard header.count == Self.size, header.starts(with: Self.magic) else { throw .notPMTiles }
    guard header[7] == 3 else { throw .unsupportedVersion(Int(header[7])) }
    func u64(_ at: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(header[at + $1]) << (8 * UInt64($1)) }
    }
    func degrees(_ at: Int) -> Double {
      let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(header[at + $1]) << (8 * UInt32($1)) }
      return Double(Int32(bitPattern: raw)) / 10_000_000
    }
    rootDirectory = Section(offset: u64(8), length: u64(16))
    metadata = Section(offset: u64(24), length: u64(32))
    leafDirectories = Section(offset: u64(40), length: u64(48))
    tileData = Section(offset: u64(56), length: u64(64))
    addressedTileCount = u64(72)
    tileEntryCount = u64(80)
    tileContentCount = u64(88)
    isClustered = header[96] == 1
    internalCompression = PMTilesCompression(code: header[97])
    tileCompression = PMTilesCompression(code: header[98])
    tileType = PMTilesTileType(code: header[99])
    minZoom = Int(header[100])
    maxZoom = Int(header[101])
    bounds = GeoBox(north: degrees(114), south: degrees(106), west: degrees(102), east: degrees(110))
    centerZoom = Int(header[118])
    center = Coordinate(latitude: degrees(123), longitude: degrees(119))
  }

  /// Throws unless every section lies inside a file of `fileSize` bytes; directories and metadata must
  /// also fit the reader's limits.
  func checkSections(fileSize: UInt64) throws(PMTilesError) {
    let sections: [(PMTilesSectionName, Section, UInt64)] = [
      (.rootDirectory, rootDirectory, UInt64(PMTilesLimits.maximumDirectoryBytes)),
      (.metadata, metadata, UInt64(PMTilesLimits.maximumMetadataBytes)),
      (.leafDirectories, leafDirectories, .max),
      (.tileData, tileData, .max),
    ]
    for (name, section, limit) in sections {
      let (end, overflow) = section.offset.addingReportingOverflow(section.length)
      guard !overflow, end <= fileSize, section.length <= limit else {
        throw .sectionOutOfBounds(name, offset: section.offset, length: section.length, fileSize: fileSize)
      }
    }
  }
}

/// The compression enum of the header (spec §3.3).
public enum PMTilesCompression: Equatable, Sendable, CustomStringConvertible {
  case unknown
  case none
  case gzip
  case brotli
  case zstd
  /// A value the spec does not define.
  case other(UInt8)

  init(code: UInt8) {
    switch code {
    case 0: self = .unknown
    case 1: self = .none
    case 2: self = .gzip
    case 3: self = .brotli
    case 4: self = .zstd
    default: self = .other(code)
    }
  }

  public var description: String {
    switch self {
    case .unknown: return "unknown compression"
    case .none: return "no compression"
    case .gzip: return "gzip"
    case .brotli: return "brotli"
    case .zstd: return "zstd"
    case .other(let code): return "compression \(code)"
    }
  }
}

/// What the tiles are (spec §3.2, tile type).
public enum PMTilesTileType: Equatable, Sendable, CustomStringConvertible {
  case unknown
  /// Mapbox Vector Tiles.
  case mvt
  case png
  case jpeg
  case webp
  case avif
  /// MapLibre Tiles (a newer vector format mymap does not read).
  case mlt
  case other(UInt8)

  init(code: UInt8) {
    switch code {
    case 0: self = .unknown
    case 1: self = .mvt
    case 2: self = .png
    case 3: self = .jpeg
    case 4: self = .webp
    case 5: self = .avif
    case 6: self = .mlt
    default: self = .other(code)
    }
  }

  public var description: String {
    switch self {
    case .unknown: return "unknown"
    case .mvt: return "mvt"
    case .png: return "png"
    case .jpeg: return "jpeg"
    case .webp: return "webp"
    case .avif: return "avif"
    case .mlt: return "mlt"
    case .other(let code): return "type \(code)"
    }
  }
}
