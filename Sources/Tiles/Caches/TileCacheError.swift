/// Why a tile cache could not be opened or changed. Each `description` is one line for the user; those
/// about opening a cache say what to do ("choose another cache"), in words free of any command's options.
public enum TileCacheError: Error, Equatable, CustomStringConvertible {
  /// The MBTiles file has no fetch dates (no `mymap_freshness` table: it was not written by
  /// `mymap tiles fetch`), so it cannot be pruned.
  case pruneNotSupported(String)
  /// A tile file could not be removed; the second value says why.
  case cannotRemove(String, String)
  /// The cache cannot be changed to prune it (read-only file or folder); the second value says why.
  case cannotPrune(String, String)
  /// The folder holds files but is not a mymap tile cache (it has no `metadata.json` written by mymap).
  case foreignFolder(String)
  /// The MBTiles file was not made by mymap (its metadata names no `mymap_source`).
  case foreignMBTiles(String)
  /// The cache holds tiles of another source: path, the cache's source, the source asked for.
  case otherSource(String, cached: String, requested: String)
  /// The cache holds tiles of another pixel size: path, the cache's size, the size asked for.
  case otherTileSize(String, cached: Int, requested: Int)
  /// The file is not an MBTiles file; the second value says why ("it is not an SQLite database").
  case notAnMBTilesFile(String, String)
  /// The path is a file that is neither a folder nor an MBTiles file.
  case notAFolder(String)
  /// The cache cannot be created or written; the second value says why.
  case notWritable(String, String)
  /// A tile or the cache's metadata could not be written (disk full, …); the second value says why.
  case writeFailed(String, String)
  /// The cache's SQLite database failed (locked too long, damaged); the second value says why.
  case databaseFailed(String, String)
  /// The bytes given for a tile are not a PNG, JPEG or WebP image or a vector tile.
  case notAnImage(String)

  public var description: String {
    switch self {
    case .pruneNotSupported(let path):
      return
        "cannot prune \(path): the MBTiles file has no fetch dates "
        + "(it was not written by 'mymap tiles fetch')"
    case .cannotRemove(let path, let reason):
      return "cannot remove tile \(path): \(reason)"
    case .cannotPrune(let path, let reason):
      return "cannot prune \(path): \(reason)"
    case .foreignFolder(let path):
      return
        "\(path) is not empty and is not a mymap tile cache (it has no metadata.json written by mymap); "
        + "choose an empty or new folder"
    case .foreignMBTiles(let path):
      return "\(path) is an MBTiles file not made by mymap; choose a new .mbtiles file"
    case .otherSource(let path, let cached, let requested):
      return "\(path) holds tiles from \(cached), not \(requested); choose another cache"
    case .otherTileSize(let path, let cached, let requested):
      return "\(path) holds \(cached)-pixel tiles, not \(requested)-pixel ones; choose another cache"
    case .notAnMBTilesFile(let path, let reason):
      return "\(path) is not an MBTiles file (\(reason)); choose another cache"
    case .notAFolder(let path):
      return "\(path) is a file, neither a folder nor an .mbtiles file; choose another cache"
    case .notWritable(let path, let reason):
      return "cannot write to tile cache \(path) (\(reason)); check its permissions or choose another cache"
    case .writeFailed(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .databaseFailed(let path, let reason):
      return "tile cache database \(path) failed: \(reason)"
    case .notAnImage(let tile):
      return "cannot cache tile \(tile): its bytes are not a PNG, JPEG or WebP image or a vector tile"
    }
  }

}
