import Foundation
import JSON
import MapMath

/// Tiles from a PMTiles v3 archive on disk: vector tiles (MVT) or images (PNG, JPEG, WebP), read in place
/// (a 1 GB archive opens in constant time and memory). Safe to read from several threads.
public final class PMTilesSource: TileSource {
  /// The path as given.
  public let path: String
  public let archive: PMTilesArchive
  public let attribution: String?
  public let zoomRange: ClosedRange<Int>
  public let tileSize: Int
  public let content: TileContent
  /// The header's bounds, unless they cover no area.
  public let bounds: GeoBox?

  public var description: String { path }
  public var cacheIdentity: String { "pmtiles:" + URL(fileURLWithPath: path).standardizedFileURL.path }

  /// Opens an archive. Throws `TileSourceError` when it cannot be read, is damaged, compresses its tiles
  /// in a way mymap does not read (brotli, zstd), or holds tiles of a kind mymap cannot draw (AVIF, MLT).
  public init(path: String) throws {
    let archive: PMTilesArchive
    do throws(PMTilesError) {
      archive = try PMTilesArchive(path: path)
    } catch {
      throw TileSourceError.unreadable(path, "\(error)")
    }
    let header = archive.header
    switch header.tileType {
    case .mvt: content = .vector
    case .png, .jpeg, .webp: content = .raster
    default: throw TileSourceError.unsupportedTiles(path, format: "\(header.tileType)")
    }
    self.path = path
    self.archive = archive
    let box = header.bounds
    bounds = box.north > box.south && box.east != box.west ? box : nil
    let low = min(max(Int(header.minZoom), 0), 30)
    zoomRange = low...min(max(Int(header.maxZoom), low), 30)
    // Vector tiles are made to be drawn 512 points wide; images carry their own size (256 unless said).
    let metadata = try? archive.metadata()
    tileSize = content == .vector ? 512 : Self.declaredTileSize(metadata) ?? 256
    attribution = metadata?["attribution"].flatMap { value in
      if case .string(let text) = value { return plainAttribution(text) }
      return nil
    }
  }

  public func tileData(_ id: TileID) throws -> Data? {
    do throws(PMTilesError) {
      return try archive.tileData(id).map { Data($0) }
    } catch {
      throw TileSourceError.badTile(path, id, reason: "\(error)")
    }
  }

  /// The tile inflated as the archive's header says its tiles are compressed.
  public func vectorTileBytes(_ id: TileID) throws -> [UInt8]? {
    do throws(PMTilesError) {
      return try archive.tile(id, limit: TileLimits.maximumInflatedVectorTileBytes)
    } catch {
      throw TileSourceError.badTile(path, id, reason: "\(error)")
    }
  }

  private static func declaredTileSize(_ metadata: JSONValue?) -> Int? {
    guard case .number(let size)? = metadata?["tileSize"] ?? metadata?["tilesize"],
      let whole = Int(exactly: size), TileLimits.isUsableTileSize(whole)
    else { return nil }
    return whole
  }
}
