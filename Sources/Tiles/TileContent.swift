import Foundation
import Gzip
import MapMath

/// What a tile source's tiles hold, which decides how they are drawn.
public enum TileContent: String, Sendable, Equatable {
  /// Images (PNG, JPEG, WebP), drawn as they are.
  case raster
  /// Mapbox Vector Tiles (protobuf, usually gzip-compressed), drawn with a map style.
  case vector

  /// The content a format name announces (MBTiles and `metadata.json` `format`, a file extension): nil
  /// when it names nothing; throws `unsupportedTiles` for a format mymap cannot draw (`avif`, `mlt`, …).
  static func named(_ format: String?, source: String) throws(TileSourceError) -> TileContent? {
    guard let format = format?.trimmingCharacters(in: .whitespaces).lowercased(), !format.isEmpty else {
      return nil
    }
    switch format {
    case "png", "jpg", "jpeg", "webp", "image/png", "image/jpeg", "image/webp": return .raster
    case "pbf", "mvt", "application/x-protobuf", "application/vnd.mapbox-vector-tile": return .vector
    default: throw .unsupportedTiles(source, format: TileSourceError.excerpt(format))
    }
  }
}

extension TileLimits {
  /// The largest vector tile once inflated: 16 MiB, ten times the densest real tile; a gzip bomb stops
  /// there.
  public static let maximumInflatedVectorTileBytes = 16 * 1024 * 1024
}

extension TileSource {
  public var content: TileContent { .raster }

  /// A vector tile's protobuf bytes, inflated when the source stores them compressed (as MBTiles and tile
  /// folders do by convention); nil when the source does not have the tile.
  public func vectorTileBytes(_ id: TileID) throws -> [UInt8]? {
    guard let data = try tileData(id) else { return nil }
    do throws(GzipError) {
      return try Gzip.inflateIfCompressed(data, limit: TileLimits.maximumInflatedVectorTileBytes)
    } catch {
      throw TileSourceError.badTile("\(self)", id, reason: "its data cannot be inflated (\(error))")
    }
  }
}
