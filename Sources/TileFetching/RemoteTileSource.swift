import Foundation
import Locking
import MapMath
import Tiles

/// Tiles from a tile server through a local cache: `prepare` fetches what a map needs and the cache lacks,
/// and the tiles are then read from the cache, so a second render of the same map needs no network.
/// Images or vector tiles, as the template's extension says (`TileURLTemplate.content`).
public final class RemoteTileSource: PreparedTileSource, Sendable {
  /// How a render may fetch, fixed when the source is made.
  public struct Settings: Sendable {
    /// Never fetch: use what the cache holds.
    public var offline: Bool
    /// The most tiles one render may fetch.
    public var maximumTiles: Int
    /// Flipped on Ctrl-C: no new request starts, the ones in flight finish, and `prepare` throws
    /// `.interrupted`.
    public var cancellation: FetchCancellation
    /// Told how the download goes (the terminal's progress line).
    public var progress: (@Sendable (TileDownloadProgress) -> Void)?

    public init(
      offline: Bool = false, maximumTiles: Int = 2_000, cancellation: FetchCancellation = FetchCancellation(),
      progress: (@Sendable (TileDownloadProgress) -> Void)? = nil
    ) {
      self.offline = offline
      self.maximumTiles = maximumTiles
      self.cancellation = cancellation
      self.progress = progress
    }
  }

  public let template: TileURLTemplate
  public let cache: any TileCacheStore
  public let fetcher: TileFetcher
  public let attribution: String?
  public let tileSize: Int
  /// Whether `{r}` asks for `@2x` tiles (then `tileSize` is 512).
  public let retina: Bool
  /// Tile servers do not say which zooms they have; most raster servers stop at 19, most vector servers at 14.
  public let zoomRange: ClosedRange<Int>
  public let settings: Settings
  /// The cache as a tile source, opened on first read and again after a download added tiles.
  private let openedReader = Locked<(any TileSource)?>(nil)

  public init(
    template: TileURLTemplate, cache: any TileCacheStore, fetcher: TileFetcher, attribution: String?,
    retina: Bool = false, zoomRange: ClosedRange<Int>? = nil, settings: Settings = Settings()
  ) {
    self.template = template
    self.cache = cache
    self.fetcher = fetcher
    self.attribution = attribution
    self.retina = retina
    self.tileSize = template.tileSize(retina: retina)
    self.zoomRange = zoomRange ?? (template.content == .vector ? 0...14 : 0...19)
    self.settings = settings
  }

  public var description: String { template.redacted }
  public var cacheIdentity: String { "remote:" + cache.path }
  public var content: TileContent { template.content }
  public var offline: Bool { settings.offline }
  public var maximumTiles: Int { settings.maximumTiles }
  public var cancellation: FetchCancellation { settings.cancellation }

  public func prepare(_ tiles: [TileID]) throws(TileDownloadError) -> [String] {
    let download = TileDownload(
      template: template, fetcher: fetcher, cache: cache, tileSize: tileSize, retina: retina)
    let pending = try download.pending(tiles)
    guard !settings.offline else {
      let absent = pending.filter { !$0.hasCachedCopy }.count
      guard absent > 0 else { return [] }
      return [
        "\(absent) of \(tiles.count) tiles are not in the tile cache \(cache.path), and the render may not"
          + " fetch; \(placeholders(absent))"
      ]
    }
    guard pending.count <= settings.maximumTiles else {
      throw .tooManyTiles(needed: pending.count, limit: settings.maximumTiles)
    }
    guard !pending.isEmpty else { return [] }
    let progress = settings.progress
    let stopping = settings.cancellation
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
    openedReader.withLock { $0 = nil }  // the cache has new tiles (and maybe new zoom folders)
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

  public func vectorTileBytes(_ id: TileID) throws -> [UInt8]? {
    try reader().vectorTileBytes(id)
  }

  private func reader() throws -> any TileSource {
    if let opened = openedReader.withLock({ $0 }) { return opened }
    let opened = try cache.tileSource()
    openedReader.withLock { $0 = opened }
    return opened
  }

  /// `1 tile drawn as a placeholder`, `3 tiles drawn as placeholders`; a street map has no placeholder
  /// for a vector tile it lacks, only its background: `3 tiles left empty`.
  private func placeholders(_ number: Int) -> String {
    let tiles = number == 1 ? "1 tile" : "\(number) tiles"
    if content == .vector { return tiles + " left empty" }
    return number == 1 ? "1 tile drawn as a placeholder" : "\(number) tiles drawn as placeholders"
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
    zoomRange: ClosedRange<Int>? = nil
  ) throws {
    cache = try openTileSource(at: path)
    self.path = path
    self.template = template
    self.attribution = attribution ?? cache.attribution
    tileSize = template.tileSize(retina: retina)
    self.zoomRange = zoomRange ?? (template.content == .vector ? 0...14 : 0...19)
  }

  public var description: String { template.redacted }
  public var cacheIdentity: String { "remote:" + path }

  public func tileData(_ id: TileID) throws -> Data? { try cache.tileData(id) }
  public var content: TileContent { template.content }
  public func vectorTileBytes(_ id: TileID) throws -> [UInt8]? { try cache.vectorTileBytes(id) }
}

/// The attribution well-known tile servers require, found from a template's host; nil for others.
public func knownAttribution(for template: TileURLTemplate) -> String? {
  KnownTileCredits.credit(forHost: template.host)
}
