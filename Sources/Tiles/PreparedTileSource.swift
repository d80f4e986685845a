import MapMath

/// A tile source that must get tiles ready before a render reads them.
public protocol PreparedTileSource: TileSource {
  /// Makes `tiles` readable (fetches what the cache lacks or holds stale); returns warnings for the user,
  /// which account for every tile that will be missing (the renderer adds none of its own).
  func prepare(_ tiles: [TileID]) throws(TileDownloadError) -> [String]
}

/// Why a download did not run or did not finish. Each `description` is one line for the user.
public enum TileDownloadError: Error, Equatable, CustomStringConvertible {
  /// More tiles need fetching than the limit allows.
  case tooManyTiles(needed: Int, limit: Int)
  /// Ctrl-C (or another cancellation) stopped the download; what was stored so far is kept.
  case interrupted(stored: Int, of: Int)
  /// The cache could not be read or written; the text says why.
  case cache(String)

  public var description: String {
    switch self {
    case .tooManyTiles(let needed, let limit):
      return "this would fetch \(needed) tiles, more than the limit of \(limit) per command (tile servers are"
        + " shared: fetch fewer zooms or a smaller area)"
    case .interrupted(let stored, let total):
      return "interrupted: \(stored) of \(total) tiles were fetched and kept; the cache is consistent"
    case .cache(let reason):
      return reason
    }
  }
}
