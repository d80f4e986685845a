import CSQLite
import Foundation
import MapMath

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
/// lakes, coastlines and borders, country and city labels), read through its R-tree.
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
        let parts = BasemapShaping.coastline(ofRings: land.parts, grids: grids)
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

/// The read-only connection and its one prepared query.
///
/// `@unchecked Sendable`: the handle and the statement are used only while `lock` is held (the connection is
/// opened with `SQLITE_OPEN_NOMUTEX`, so this lock is the only one).
private final class Connection: @unchecked Sendable {
  struct Row {
    var id: Int64
    var name: String?
    var rank: Double
    var geometry: [UInt8]
  }

  let path: String
  private let lock = NSLock()
  private let handle: OpaquePointer
  private var query: OpaquePointer?

  init(path: String) throws {
    self.path = path
    var opened: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(Self.uri(path), &opened, flags, nil)
    guard status == SQLITE_OK, let opened else {
      let reason =
        opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(opened)
      throw BasemapDataError.unreadable(path, reason: reason)
    }
    handle = opened
  }

  deinit {
    sqlite3_finalize(query)
    sqlite3_close(handle)
  }

  /// A `file:` URI for the path with `immutable=1`: no locks, no journal, no change checks.
  static func uri(_ path: String) -> String {
    let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
    var escaped = ""
    for byte in path.utf8 {
      if plain.contains(byte) {
        escaped.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return "file:\(escaped)?immutable=1"
  }

  /// The `meta` table; `notABasemap` when the file is not SQLite or has no such table.
  func metadata() throws -> [String: String] {
    lock.lock()
    defer { lock.unlock() }
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, "SELECT key, value FROM meta", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    guard status == SQLITE_OK, let statement else {
      if status & 0xFF == SQLITE_NOTADB {
        throw BasemapDataError.notABasemap(path, reason: "not an SQLite database")
      }
      let message = String(cString: sqlite3_errmsg(handle))
      if message.hasPrefix("no such table") {
        throw BasemapDataError.notABasemap(path, reason: "no meta table")
      }
      throw BasemapDataError.unreadable(path, reason: message)
    }
    var result: [String: String] = [:]
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { break }
      guard step == SQLITE_ROW else { throw failure(step) }
      if let key = sqlite3_column_text(statement, 0), let value = sqlite3_column_text(statement, 1) {
        result[String(cString: key)] = String(cString: value)
      }
    }
    return result
  }

  func prepareQuery() throws {
    lock.lock()
    defer { lock.unlock() }
    let sql = """
      SELECT f.id, f.name, f.rank, f.geometry FROM feature_box AS b JOIN feature AS f ON f.id = b.id
      WHERE b.max_x >= ?1 AND b.min_x <= ?2 AND b.max_y >= ?3 AND b.min_y <= ?4
        AND b.max_layer >= ?5 AND b.min_layer <= ?6
      """
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      let message = String(cString: sqlite3_errmsg(handle))
      sqlite3_finalize(statement)
      throw BasemapDataError.notABasemap(path, reason: message)
    }
    query = statement
  }

  func query(minimum: WorldPoint, maximum: WorldPoint, layers: ClosedRange<Int>) throws -> [Row] {
    lock.lock()
    defer { lock.unlock() }
    guard let query else { return [] }
    defer {
      sqlite3_reset(query)
      sqlite3_clear_bindings(query)
    }
    sqlite3_bind_double(query, 1, minimum.x)
    sqlite3_bind_double(query, 2, maximum.x)
    sqlite3_bind_double(query, 3, minimum.y)
    sqlite3_bind_double(query, 4, maximum.y)
    sqlite3_bind_int64(query, 5, Int64(layers.lowerBound))
    sqlite3_bind_int64(query, 6, Int64(layers.upperBound))
    var rows: [Row] = []
    while true {
      let status = sqlite3_step(query)
      if status == SQLITE_DONE { break }
      guard status == SQLITE_ROW else { throw failure(status) }
      let count = Int(sqlite3_column_bytes(query, 3))
      var geometry: [UInt8] = []
      if count > 0, let bytes = sqlite3_column_blob(query, 3) {
        geometry = [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
      }
      rows.append(
        Row(
          id: sqlite3_column_int64(query, 0),
          name: sqlite3_column_text(query, 1).map { String(cString: $0) },
          rank: sqlite3_column_double(query, 2), geometry: geometry))
    }
    return rows
  }

  private func failure(_ status: Int32) -> BasemapDataError {
    if status & 0xFF == SQLITE_NOTADB || status & 0xFF == SQLITE_CORRUPT {
      return .notABasemap(path, reason: String(cString: sqlite3_errmsg(handle)))
    }
    return .unreadable(path, reason: String(cString: sqlite3_errmsg(handle)))
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    count >= length ? self : String(repeating: "0", count: length - count) + self
  }
}
