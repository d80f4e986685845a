import Tiles

/// Why a map could not be made.
public enum RenderError: Error, Equatable, CustomStringConvertible {
  /// The image size, scale or padding is out of range; the text says which and why.
  case invalidSize(String)
  /// A coordinate, zoom, span or accuracy of the request is not a number or out of range.
  case invalidValue(String)
  /// No places, no user position and no centre: nothing to draw a map around.
  case nothingToShow
  /// With `requireAllTiles`: `missing` of the `needed` tiles are not in the source.
  case incompleteBasemap(missing: Int, needed: Int, source: String)
  /// With `requireAllTiles`: tiles the source has cannot be drawn (corrupt, or of the wrong size); the
  /// first of them, how many, how many others are missing, of how many needed.
  case unusableTiles(first: TileFailure, unusable: Int, missing: Int, needed: Int, source: String)
  /// The tile source cannot be read, or its zooms and tile size do not suit the map.
  case tileSource(String)
  /// The tile source holds vector tiles, and the request has no map style to draw them with.
  case noMapStyle(source: String)
  /// Fetching the tiles from a tile server was refused, interrupted or could not write the cache.
  case tileDownload(TileDownloadError)
  /// The image could not be drawn or encoded (a Cairo failure, or a basemap over Cairo's size limit).
  case drawing(String)
  /// The render was cancelled (`RenderCancellation`, or the task of `MapSnapshotter.snapshot()`) before
  /// it finished; nothing was made.
  case cancelled

  public var description: String {
    switch self {
    case .invalidSize(let reason), .invalidValue(let reason): return reason
    case .nothingToShow:
      return "nothing to show: no places, no user position and no centre to draw a map around"
    case .incompleteBasemap(let missing, let needed, let source):
      return "\(missing) of \(needed) tiles are missing from \(source), and every tile is required"
    case .unusableTiles(let first, let unusable, let missing, let needed, let source):
      var text = "tile \(first.tile) of \(source) cannot be drawn: \(first.reason)"
      if unusable > 1 { text += " (and \(unusable - 1) more of \(needed) tiles)" }
      if missing > 0 { text += "; \(missing) of \(needed) tiles are missing" }
      return text + "; nothing was written"
    case .tileSource(let reason): return reason
    case .noMapStyle(let source):
      return "\(source) holds vector tiles (Mapbox Vector Tiles), which need a map style to be drawn"
    case .tileDownload(let error): return error.description
    case .drawing(let reason): return reason
    case .cancelled: return "the map was cancelled before it was finished"
    }
  }
}
