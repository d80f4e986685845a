import Foundation
import MapMath
import SQLite

/// Why the basemap data could not be used, as one line.
public enum BasemapDataError: Error, CustomStringConvertible, Equatable {
  /// No file at the path.
  case notFound(String)
  /// The file exists but is not a basemap data file (not SQLite, or without its tables).
  case notABasemap(String, reason: String)
  /// A basemap data file of a format version this build does not read.
  case unsupportedFormat(String, version: String)
  /// The file could not be opened or read (permissions, I/O errors, a damaged record).
  case unreadable(String, reason: String)

  public var description: String {
    switch self {
    case .notFound(let path):
      return "basemap data not found: \(path)"
    case .notABasemap(let path, let reason):
      return "\(path) is not a mymap basemap file (\(reason))"
    case .unsupportedFormat(let path, let version):
      return
        "\(path) has basemap format version \(version); this mymap reads version \(BasemapFileFormat.version)"
    case .unreadable(let path, let reason):
      return "cannot read basemap data \(path): \(reason)"
    }
  }
}

/// The built-in offline basemap's data: the SQLite file that `basemap-builder` writes (Natural Earth land,
/// lakes, rivers, coastlines and borders, country and city labels), read through its R-tree.
///
/// Safe to use from several threads: queries run one at a time on one read-only connection (the file is
/// opened `immutable`, as it never changes while mymap runs), and geometry is decoded outside the lock.
public final class BasemapData: BasemapSource {
  /// The format version this build reads (`meta.format`).
  public static let formatVersion = BasemapFileFormat.version
  /// The environment variable that names the data file, overriding the search of `locate`.
  public static let environmentVariable = "MYMAP_BASEMAP"
  /// The data file's name in `Data/` and `share/mymap/`.
  public static let fileName = "basemap.sqlite"

  /// The path as given.
  public let path: String
  /// The `meta` table: `format`, `attribution`, the sources and their versions, the build settings.
  public let metadata: [String: String]
  public let attribution: String
  private let database: Connection
  private let layers: [BasemapKind: Int]
  /// True when coastlines are the edges of the land rings (`meta.coastline = land`), not rows of their own.
  private let coastlineFromLand: Bool
  /// The cells per world side of the bands' grids: land ring edges along their lines are cuts, not coast.
  private let grids: [Int]

  /// Opens a basemap data file. Throws `BasemapDataError` when it is missing, not a basemap file, of
  /// another format version, or unreadable.
  public init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw BasemapDataError.notFound(path)
    }
    guard !isDirectory.boolValue else { throw BasemapDataError.notABasemap(path, reason: "a directory") }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw BasemapDataError.unreadable(path, reason: "permission denied")
    }
    let database = try Connection(path: path)
    let metadata = try database.metadata()
    guard let format = metadata["format"] else {
      throw BasemapDataError.notABasemap(path, reason: "no format version in its meta table")
    }
    guard format == String(BasemapFileFormat.version) else {
      throw BasemapDataError.unsupportedFormat(path, version: format)
    }
    guard let layers = metadata["layers"].flatMap(BasemapFileFormat.parseLayers) else {
      throw BasemapDataError.notABasemap(path, reason: "no layer codes in its meta table")
    }
    try database.prepareQuery()
    self.path = path
    self.database = database
    self.metadata = metadata
    self.layers = layers
    coastlineFromLand = metadata["coastline"] == BasemapFileFormat.coastlineFromLand
    grids = Set((metadata["cells_per_side"] ?? "").split(separator: ",").compactMap { Int($0) }).sorted()
    attribution = metadata["attribution"] ?? "Natural Earth · GeoNames"
  }

  public func features(_ kind: BasemapKind, band: Int, from minimum: WorldPoint, to maximum: WorldPoint)
    throws
    -> [BasemapFeature]
  {
    if kind == .coastline, layers[.coastline] == nil, coastlineFromLand {
      return try features(.land, band: band, from: minimum, to: maximum).compactMap { land in
        let parts = BasemapCoastline.lines(ofRings: land.parts, grids: grids)
        return parts.isEmpty ? nil : BasemapFeature(kind: .coastline, parts: parts)
      }
    }
    guard let code = layers[kind],
      minimum.x.isFinite, minimum.y.isFinite, maximum.x.isFinite, maximum.y.isFinite,
      minimum.x <= maximum.x, minimum.y <= maximum.y
    else { return [] }
    let band = min(max(band, 0), BasemapBand.count - 1)
    let lowest = BasemapFileFormat.layer(code: code, band: kind.isPoint ? 0 : band)
    let highest = BasemapFileFormat.layer(code: code, band: band)
    var rows = try database.query(minimum: minimum, maximum: maximum, layers: lowest...highest)
    // The R-tree's order depends on its node layout: id order is the builder's (cities by population).
    rows.sort { $0.id < $1.id }
    return try rows.map { row in
      guard let parts = BasemapGeometry.decode(row.geometry) else {
        throw BasemapDataError.unreadable(path, reason: "feature \(row.id) has a damaged geometry")
      }
      return BasemapFeature(kind: kind, name: row.name, rank: row.rank, parts: parts)
    }
  }

  /// Finds the basemap data file: `$MYMAP_BASEMAP` when set (returned as is, so that a wrong path is
  /// reported rather than silently replaced), else `<executable folder>/../share/mymap/basemap.sqlite`
  /// (an installed mymap), else `Data/basemap.sqlite` in the executable's folder or up to four folders
  /// above it (a build inside the repository, e.g. `.build/release/mymap`). When the executable is a
  /// symbolic link, its target's folder is searched too (after the link's own, for each kind of place).
  /// Nil when none exists.
  public static func locate(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executablePath: String? = Bundle.main.executablePath
  ) -> String? {
    if let override = environment[environmentVariable], !override.isEmpty { return override }
    guard let executablePath, !executablePath.isEmpty else { return nil }
    let executable = URL(fileURLWithPath: executablePath).standardizedFileURL
    var folders = [executable.deletingLastPathComponent()]
    let resolved = executable.resolvingSymlinksInPath().deletingLastPathComponent()
    if resolved != folders[0] { folders.append(resolved) }

    var candidates: [URL] = []
    for folder in folders {
      candidates.append(
        folder.deletingLastPathComponent().appendingPathComponent("share/mymap/\(fileName)"))
    }
    for folder in folders {
      var current = folder
      for _ in 0...4 {
        candidates.append(current.appendingPathComponent("Data/\(fileName)"))
        current = current.deletingLastPathComponent()
      }
    }
    for candidate in candidates {
      var isDirectory: ObjCBool = false
      let candidatePath = candidate.standardizedFileURL.path
      if FileManager.default.fileExists(atPath: candidatePath, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        return candidatePath
      }
    }
    return nil
  }
}

/// The read-only connection and its one query, shared by the threads that draw.
private final class Connection: Sendable {
  struct Row: Sendable {
    var id: Int64
    var name: String?
    var rank: Double
    var geometry: [UInt8]
  }

  static let querySQL = """
    SELECT f.id, f.name, f.rank, f.geometry FROM feature_box AS b JOIN feature AS f ON f.id = b.id
    WHERE b.max_x >= ?1 AND b.min_x <= ?2 AND b.max_y >= ?3 AND b.min_y <= ?4
      AND b.max_layer >= ?5 AND b.min_layer <= ?6
    """

  let path: String
  private let shared: SharedSQLiteConnection

  /// Opens the file `immutable`: it never changes while mymap runs, so no locks, journal or change checks.
  init(path: String) throws {
    self.path = path
    var options = SQLiteOptions(access: .readOnly)
    options.immutable = true
    options.probe = false
    do throws(SQLiteError) {
      shared = SharedSQLiteConnection(try SQLiteConnection(path: path, options: options))
    } catch {
      throw BasemapDataError.unreadable(path, reason: error.message)
    }
  }

  /// The `meta` table; `notABasemap` when the file is not SQLite or has no such table.
  func metadata() throws -> [String: String] {
    let path = path
    do throws(SQLiteError) {
      return try shared.withConnection { connection throws(SQLiteError) in
        var result: [String: String] = [:]
        for row in try connection.rows("SELECT key, value FROM meta") {
          if let key = row[0].text, let value = row[1].text { result[key] = value }
        }
        return result
      }
    } catch {
      if error.kind == .notADatabase {
        throw BasemapDataError.notABasemap(path, reason: "not an SQLite database")
      }
      if error.message.hasPrefix("no such table") {
        throw BasemapDataError.notABasemap(path, reason: "no meta table")
      }
      throw BasemapDataError.unreadable(path, reason: error.message)
    }
  }

  /// Prepares the query once, so that a file without the feature tables is refused at open.
  func prepareQuery() throws {
    do throws(SQLiteError) {
      try shared.withConnection { connection throws(SQLiteError) in _ = try connection.cached(Self.querySQL) }
    } catch {
      throw BasemapDataError.notABasemap(path, reason: error.message)
    }
  }

  func query(minimum: WorldPoint, maximum: WorldPoint, layers: ClosedRange<Int>) throws -> [Row] {
    do throws(SQLiteError) {
      return try shared.withConnection { connection throws(SQLiteError) in
        let query = try connection.cached(Self.querySQL)
        defer { query.reset() }
        try query.bind([
          .real(minimum.x), .real(maximum.x), .real(minimum.y), .real(maximum.y),
          .integer(layers.lowerBound), .integer(layers.upperBound),
        ])
        var rows: [Row] = []
        while try query.step() {
          let geometry = query.withBlob(3) { [UInt8]($0) }
          rows.append(
            Row(
              id: Int64(query.integer(0)), name: query.optionalString(1), rank: query.double(2),
              geometry: geometry))
        }
        return rows
      }
    } catch {
      if error.kind == .notADatabase || error.kind == .corrupt {
        throw BasemapDataError.notABasemap(path, reason: error.message)
      }
      throw BasemapDataError.unreadable(path, reason: error.message)
    }
  }
}
