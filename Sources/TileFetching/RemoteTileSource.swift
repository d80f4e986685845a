import Foundation
import MapMath
import Tiles

/// Tiles from a tile server through a local cache: `prepare` fetches what a map needs and the cache lacks,
/// and the tiles are then read from the cache, so a second render of the same map needs no network.
///
/// `@unchecked Sendable`: the settings are set before use, and `openedReader` is touched only while `lock`
/// is held.
public final class RemoteTileSource: PreparedTileSource, @unchecked Sendable {
  public let template: TileURLTemplate
  public let cache: any TileCacheStore
  public let fetcher: TileFetcher
  public let attribution: String?
  public let tileSize: Int
  /// Whether `{r}` asks for `@2x` tiles (then `tileSize` is 512).
  public let retina: Bool
  /// Tile servers do not say which zooms they have; most raster servers stop at 19.
  public let zoomRange: ClosedRange<Int>
  /// Never fetch: use what the cache holds (render --offline).
  public var offline = false
  /// The most tiles one render may fetch.
  public var maximumTiles = 2_000
  /// Flipped on Ctrl-C: no new request starts, the ones in flight finish, and `prepare` throws
  /// `.interrupted`.
  public var cancellation = FetchCancellation()
  /// Told how the download goes (the terminal's progress line).
  public var progress: (@Sendable (TileDownloadProgress) -> Void)?
  private let lock = NSLock()
  private var openedReader: (any TileSource)?

  public init(
    template: TileURLTemplate, cache: any TileCacheStore, fetcher: TileFetcher, attribution: String?,
    retina: Bool = false, zoomRange: ClosedRange<Int> = 0...19
  ) {
    self.template = template
    self.cache = cache
    self.fetcher = fetcher
    self.attribution = attribution
    self.retina = retina
    self.tileSize = retina ? 512 : 256
    self.zoomRange = zoomRange
  }

  public var description: String { template.redacted }
  public var cacheIdentity: String { "remote:" + cache.path }

  public func prepare(_ tiles: [TileID]) throws(TileDownloadError) -> [String] {
    let download = TileDownload(
      template: template, fetcher: fetcher, cache: cache, tileSize: tileSize, retina: retina)
    let pending = try download.pending(tiles)
    guard !offline else {
      let absent = pending.filter { !$0.hasCachedCopy }.count
      guard absent > 0 else { return [] }
      return [
        "\(absent) of \(tiles.count) tiles are not in the tile cache \(cache.path) (--offline);"
          + " \(placeholders(absent))"
      ]
    }
    guard pending.count <= maximumTiles else {
      throw .tooManyTiles(needed: pending.count, limit: maximumTiles)
    }
    guard !pending.isEmpty else { return [] }
    let progress = self.progress
    let stopping = cancellation
    let report: TileDownloadReport
    do {
      report = try FetchCancellation.blocking {
        try await download.run(pending, stopping: stopping, progress: progress)
      }
    } catch let error as TileDownloadError {
      throw error
    } catch {
      throw .cache("\(error)")
    }
    lock.lock()
    openedReader = nil  // the cache has new tiles (and maybe new zoom folders)
    lock.unlock()
    var warnings: [String] = []
    if let summary = report.failureSummary {
      let lost = report.failures.count - report.failedWithCachedCopy
      warnings.append(summary + (lost > 0 ? "; \(placeholders(lost))" : ""))
    }
    if !report.missing.isEmpty {
      warnings.append(
        "\(report.missing.count) of \(tiles.count) tiles are not on the server (HTTP 404);"
          + " \(placeholders(report.missing.count))")
    }
    return warnings
  }

  public func tileData(_ id: TileID) throws -> Data? {
    try reader().tileData(id)
  }

  private func reader() throws -> any TileSource {
    lock.lock()
    defer { lock.unlock() }
    if let openedReader { return openedReader }
    let opened = try cache.tileSource()
    openedReader = opened
    return opened
  }

  /// `1 tile drawn as a placeholder`, `3 tiles drawn as placeholders`.
  private func placeholders(_ number: Int) -> String {
    number == 1 ? "1 tile drawn as a placeholder" : "\(number) tiles drawn as placeholders"
  }
}

/// A tile server's cache read as it is, never written and never fetched into (render --offline, which
/// may run where the cache is read-only). It shows the same zooms, tile size and name as the
/// `RemoteTileSource` that filled it, so a map drawn offline is the map drawn online.
public struct CachedServerTiles: TileSource {
  public let cache: any TileSource
  public let template: TileURLTemplate
  public let attribution: String?
  public let tileSize: Int
  public let zoomRange: ClosedRange<Int>
  private let path: String

  /// Opens the cache at `path` read-only; throws `TileSourceError` when it is missing or unreadable.
  public init(
    path: String, template: TileURLTemplate, attribution: String?, retina: Bool = false,
    zoomRange: ClosedRange<Int> = 0...19
  ) throws {
    cache = try openTileSource(at: path)
    self.path = path
    self.template = template
    self.attribution = attribution ?? cache.attribution
    tileSize = retina ? 512 : 256
    self.zoomRange = zoomRange
  }

  public var description: String { template.redacted }
  public var cacheIdentity: String { "remote:" + path }

  public func tileData(_ id: TileID) throws -> Data? { try cache.tileData(id) }
}

/// The attribution well-known tile servers require, found from a template's host; nil for others.
public func knownAttribution(for template: TileURLTemplate) -> String? {
  let host = template.host
  let osm = "© OpenStreetMap contributors"
  let known: [(suffix: String, attribution: String)] = [
    ("tile.openstreetmap.org", osm),
    ("tile.openstreetmap.fr", osm + ", tiles: OpenStreetMap France"),
    ("opentopomap.org", osm + ", SRTM | style: © OpenTopoMap (CC-BY-SA)"),
    ("basemaps.cartocdn.com", osm + " © CARTO"),
    ("tile.thunderforest.com", "Maps © Thunderforest, Data " + osm),
  ]
  return known.first { host == $0.suffix || host.hasSuffix("." + $0.suffix) }?.attribution
}
