import MapMath

/// Why a tile source cannot be used. Each `description` is one line for the user.
public enum TileSourceError: Error, Equatable, CustomStringConvertible {
  /// Nothing exists at the path.
  case notFound(String)
  /// The path is neither a directory nor an MBTiles file.
  case notATileSource(String)
  /// The file is not an SQLite database, so it cannot be an MBTiles file.
  case notAnSQLiteDatabase(String)
  /// The SQLite database has no `tiles` table.
  case noTilesTable(String)
  /// The source could not be read; the second value says why.
  case unreadable(String, String)
  /// A tile directory's `metadata.json` is malformed; the second value says why.
  case badMetadata(String, String)
  /// Tile URL templates (`http(s)://…/{z}/{x}/{y}.png`) are not supported yet.
  case urlTemplateNotSupported(String)
  /// The path is not a regular file or a tile folder: it is a named pipe, a device, a socket, or a
  /// folder named like an MBTiles file. The second value says what it is ("a named pipe (FIFO)").
  case notAFile(String, kind: String)
  /// The source declares a tile size that cannot be drawn (`TileLimits.tileSizes`): the source, where it
  /// says so (`tileSize in metadata.json`), and the value as written.
  case badTileSize(String, declaredIn: String, value: String)
  /// A query over the SQLite file did not finish within its budget of steps (`TileLimits`): a `tiles`
  /// view that never ends, or one that multiplies rows without bound.
  case queryTooLong(String, steps: Int)
  /// The source's tiles are of a format mymap cannot draw; the second value names it (`avif`, `mlt`).
  case unsupportedTiles(String, format: String)
  /// The path is a tile source, but not a tile cache (a PMTiles archive is written once, by other tools);
  /// the second value says what it is.
  case notACache(String, kind: String)
  /// One tile of the source cannot be used (its data is too large, or its file is not a regular file),
  /// while the others may be: drawn as a placeholder.
  case badTile(String, TileID, reason: String)

  public var description: String {
    switch self {
    case .notFound(let path):
      return "tile source \(path) does not exist"
    case .notATileSource(let path):
      return "\(path) is not a tile source (expected a tile directory {z}/{x}/{y}.png or an .mbtiles file)"
    case .notAnSQLiteDatabase(let path):
      return "\(path) is not an MBTiles file (it is not an SQLite database)"
    case .noTilesTable(let path):
      return "\(path) is not an MBTiles file (the SQLite database has no 'tiles' table)"
    case .unreadable(let path, let reason):
      return "cannot read tile source \(path): \(reason)"
    case .badMetadata(let path, let reason):
      return "bad tile metadata in \(path): \(reason)"
    case .urlTemplateNotSupported(let template):
      return
        "tile URL templates are not supported yet (\(template)); use a tile directory or an .mbtiles file"
    case .notAFile(let path, let kind):
      let expected =
        path.lowercased().hasSuffix(".mbtiles") ? "an MBTiles file" : "a tile folder or an MBTiles file"
      return "\(path) is \(kind), not \(expected)"
    case .badTileSize(let path, let place, let value):
      return
        "tile source \(path) declares tiles of \(Self.excerpt(value)) pixels (\(place)); tiles must be"
        + " \(TileLimits.tileSizes.lowerBound) to \(TileLimits.tileSizes.upperBound) pixels a side"
    case .queryTooLong(let path, let steps):
      return
        "cannot read tile source \(path): reading its tiles did not finish within \(steps) SQLite steps"
        + " (is its 'tiles' table a view that never ends?)"
    case .unsupportedTiles(let path, let format):
      return
        "\(path) holds \(format) tiles, which mymap cannot draw (it draws PNG, JPEG and WebP images and"
        + " Mapbox Vector Tiles)"
    case .notACache(let path, let kind):
      return
        "\(path) is \(kind), not a tile cache (a tile folder or an MBTiles file) that mymap lists and prunes"
    case .badTile(let path, let tile, let reason):
      return "tile \(tile) of \(path): \(reason)"
    }
  }

  /// At most 40 characters of a value read from a file, for a message.
  static func excerpt(_ text: String) -> String {
    inputExcerpt(text, limit: 40)
  }
}

/// At most `limit` characters of a value from an input, with control characters replaced, and "…" when
/// cut: what a one-line message quotes of it.
public func inputExcerpt(_ text: String, limit: Int) -> String {
  let scalars = text.unicodeScalars.prefix(limit + 1).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }
  let clean = String(String.UnicodeScalarView(scalars))
  return clean.count > limit ? String(clean.prefix(limit)) + "…" : clean
}
