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
    }
  }
}
