import Foundation
import MapMath
import Tiles

/// A tile a download will ask the server for, with the cached record to revalidate, if any.
public struct PendingTile: Sendable, Equatable {
  public let tile: TileID
  /// The cache's record of an older copy; its validators make the request conditional.
  public let cached: TileFreshness?
  /// Whether an older copy of the tile is in the cache (it stays usable if the request fails).
  public let hasCachedCopy: Bool

  public init(tile: TileID, cached: TileFreshness?, hasCachedCopy: Bool) {
    self.tile = tile
    self.cached = cached
    self.hasCachedCopy = hasCachedCopy
  }
}

/// Where a download is: shown as the terminal's progress line.
public struct TileDownloadProgress: Sendable, Equatable {
  /// Tiles answered so far (fetched, confirmed unchanged, missing or failed).
  public var done: Int
  public var total: Int
  /// Bytes of tile data received.
  public var bytes: Int
  /// Seconds since the download started.
  public var elapsed: Double

  public init(done: Int, total: Int, bytes: Int, elapsed: Double) {
    self.done = done
    self.total = total
    self.bytes = bytes
    self.elapsed = elapsed
  }

  /// `tiles 120/400  30%  2.3 MB  35 tiles/s  ETA 0:08`: one line, no wider than 60 characters.
  public var line: String {
    let percent = total > 0 ? done * 100 / total : 100
    var text = "tiles \(done)/\(total)  \(percent)%  \(Self.byteText(bytes))"
    if elapsed > 0.2, done > 0 {
      let rate = Double(done) / elapsed
      text += "  " + String(format: rate < 10 ? "%.1f" : "%.0f", rate) + " tiles/s"
      if done < total {
        text += "  ETA " + Self.clock(Double(total - done) / rate)
      }
    }
    return text
  }

  /// `812 B`, `14.2 kB`, `2.3 MB`, `1.05 GB` (powers of 1000, as download tools show them).
  public static func byteText(_ bytes: Int) -> String {
    let value = Double(bytes)
    if bytes < 1000 { return "\(bytes) B" }
    // The unit follows the rounded figure: 999,999 bytes are "1.0 MB", not "1000.0 kB".
    if value < 999_950 { return String(format: "%.1f kB", value / 1e3) }
    if value < 999_950_000 { return String(format: "%.1f MB", value / 1e6) }
    return String(format: "%.2f GB", value / 1e9)
  }

  /// `0:08`, `12:30`, `1:02:03`.
  static func clock(_ seconds: Double) -> String {
    let total = seconds.isFinite ? max(0, Int(seconds.rounded(.up))) : 0
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
    let tail = String(format: "%02d", secs)
    return hours > 0 ? "\(hours):" + String(format: "%02d", minutes) + ":" + tail : "\(minutes):" + tail
  }
}

/// What a download did.
public struct TileDownloadReport: Sendable, Equatable {
  /// Tiles the download asked the server for.
  public var requested = 0
  /// New or changed tiles stored in the cache.
  public var stored = 0
  /// Cached tiles the server confirmed unchanged (HTTP 304).
  public var confirmed = 0
  /// Tiles the server does not have (HTTP 404), sorted.
  public var missing: [TileID] = []
  /// Tiles that could not be fetched, sorted by tile.
  public var failures: [TileFetchError] = []
  /// How many of the failed tiles have an older copy in the cache, which stays in use.
  public var failedWithCachedCopy = 0
  /// Bytes of tile data received.
  public var bytes = 0

  public init() {}

  /// `12 of 40 tiles could not be fetched: 10 × HTTP 503, 2 × not an image`, or nil when none failed.
  /// When the server could not be reached or asked mymap to back off, the later tiles were not asked for:
  /// the line says so and shows the first such error, which names the server and the reason.
  public var failureSummary: String? {
    guard !failures.isEmpty else { return nil }
    var counts: [String: Int] = [:]
    for failure in failures { counts[failure.summaryKind, default: 0] += 1 }
    let kinds = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    var text = "\(failures.count) of \(requested) tiles could not be fetched: "
    text += kinds.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
    if failedWithCachedCopy > 0 {
      text += " (older cached copies are used for \(failedWithCachedCopy) of them)"
    }
    let notAsked = failures.filter { $0.attempts == 0 }.count
    if notAsked > 0, let first = failures.first(where: { $0.attempts > 0 && TileDownload.stopsHost($0) }) {
      text += "; \(notAsked) of them were not asked for after: \(first)"
    }
    // A redirect away from http(s) is the server's doing, not the network's: say where it pointed.
    if let redirect = failures.first(where: {
      if case .redirectNotFollowed = $0.reason { return true }
      return false
    }) {
      text += "; the first: \(redirect)"
    }
    return text
  }
}

/// Fills a tile cache from a tile server: asks only for the tiles the cache lacks or holds stale, a few at
/// a time, stores each one atomically once it has been checked to be an image of the right size, and
/// stops asking a host that cannot be reached or that asks it to back off (HTTP 429 or 503 even after
/// the fetcher's retries, or a `Retry-After` longer than it waits).
public struct TileDownload: Sendable {
  public let template: TileURLTemplate
  public let fetcher: TileFetcher
  public let cache: any TileCacheStore
  /// Pixel size of the tiles asked for: 256, or 512 for `@2x` tiles.
  public let tileSize: Int
  /// Whether `{r}` in the template asks for `@2x` tiles.
  public let retina: Bool
  /// Requests in flight at once; the fetcher allows at most two per host besides.
  public let concurrency: Int

  /// Freshness is judged by the fetcher's clock, which also stamps what it fetches.
  public init(
    template: TileURLTemplate, fetcher: TileFetcher, cache: any TileCacheStore, tileSize: Int = 256,
    retina: Bool = false, concurrency: Int = 2
  ) {
    self.template = template
    self.fetcher = fetcher
    self.cache = cache
    self.tileSize = tileSize
    self.retina = retina
    self.concurrency = max(1, concurrency)
  }

  /// The tiles of `tiles` that need a request: not in the cache, or there but stale. Fresh tiles are
  /// left alone (the usage policy asks clients to honour the server's expiry).
  public func pending(_ tiles: [TileID]) throws(TileDownloadError) -> [PendingTile] {
    let instant = fetcher.clock.now()
    var result: [PendingTile] = []
    for tile in tiles {
      let entry: CachedTileEntry?
      do {
        entry = try cache.entry(for: tile)
      } catch {
        throw .cache("\(error)")
      }
      guard let entry, entry.isPresent else {
        result.append(PendingTile(tile: tile, cached: nil, hasCachedCopy: false))
        continue
      }
      if let record = entry.freshness, record.isFresh(at: instant) { continue }
      result.append(PendingTile(tile: tile, cached: entry.freshness, hasCachedCopy: true))
    }
    return result
  }

  /// Fetches every pending tile into the cache and commits it; failures of single tiles are in the
  /// report. Throws `.cache` when the cache cannot be written, and `.interrupted` when stopped, with
  /// everything stored until then committed: flipping `stopping` starts no new request but lets the ones
  /// in flight finish (Ctrl-C), cancelling the task abandons them too.
  public func run(
    _ pending: [PendingTile], stopping: FetchCancellation? = nil,
    progress: (@Sendable (TileDownloadProgress) -> Void)? = nil
  ) async throws(TileDownloadError) -> TileDownloadReport {
    let start = DispatchTime.now().uptimeNanoseconds
    let stoppedHosts = StoppedHosts()
    var report = TileDownloadReport()
    report.requested = pending.count
    var cacheFailure: String?
    var interrupted = false
    var stopped = false
    var done = 0
    await withTaskGroup(of: (Int, TileOutcome).self) { group in
      var next = 0
      func startNext() {
        guard next < pending.count else { return }
        guard stopping?.isCancelled != true else {
          stopped = true
          return
        }
        let index = next
        next += 1
        group.addTask {
          (index, await self.fetch(pending[index], stoppedHosts: stoppedHosts, stopping: stopping))
        }
      }
      for _ in 0..<min(concurrency, pending.count) { startNext() }
      while let (index, outcome) = await group.next() {
        switch outcome {
        case .stored(let bytes):
          report.stored += 1
          report.bytes += bytes
        case .confirmed:
          report.confirmed += 1
        case .missing:
          report.missing.append(pending[index].tile)
        case .failed(let error):
          report.failures.append(error)
          if pending[index].hasCachedCopy { report.failedWithCachedCopy += 1 }
        case .cancelled:
          interrupted = true
        case .cacheFailed(let reason):
          cacheFailure = cacheFailure ?? reason
        }
        done += 1
        if cacheFailure != nil || interrupted || Task.isCancelled {
          interrupted = interrupted || Task.isCancelled
          group.cancelAll()
          continue
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        progress?(
          TileDownloadProgress(done: done, total: pending.count, bytes: report.bytes, elapsed: elapsed))
        startNext()
      }
    }
    do {
      try cache.commit()
    } catch {
      cacheFailure = cacheFailure ?? "\(error)"
    }
    if let cacheFailure { throw .cache(cacheFailure) }
    if interrupted || stopped { throw .interrupted(stored: report.stored, of: pending.count) }
    report.missing.sort()
    report.failures.sort { $0.tile < $1.tile }
    return report
  }

  /// Whether a failure means the host should not be asked for more tiles in this download: it cannot be
  /// reached, it did not answer in time even after the retries, it refuses mymap (401, 403: a wrong key
  /// would fail every tile), or it still says "too many requests" / "busy" after the retries (the usage
  /// policies ask clients to back off then, not to try the next tile).
  static func stopsHost(_ error: TileFetchError) -> Bool {
    switch error.reason {
    case .cannotConnect, .timedOut: return true
    case .httpStatus(let status, _): return [401, 403, 429, 503].contains(status)
    default: return false
    }
  }

  /// What became of one tile.
  private enum TileOutcome: Sendable {
    case stored(bytes: Int)
    case confirmed
    case missing
    case failed(TileFetchError)
    case cancelled
    case cacheFailed(String)
  }

  private func fetch(_ pending: PendingTile, stoppedHosts: StoppedHosts, stopping: FetchCancellation?)
    async -> TileOutcome
  {
    // `{s}` spreads tiles over several hosts; one that could not be reached a moment ago is not asked
    // again for every tile.
    let host = URL(string: template.url(for: pending.tile, retina: retina))?.host ?? ""
    if let known = stoppedHosts.error(for: host) {
      return .failed(
        TileFetchError(tile: pending.tile, source: known.source, reason: known.reason, attempts: 0))
    }
    let fetched: FetchedTile
    do {
      fetched = try await fetcher.fetch(
        pending.tile, from: template, expectedSize: tileSize, content: template.content, retina: retina,
        revalidating: pending.cached,
        stopping: stopping)
    } catch let error as TileFetchError {
      if Self.stopsHost(error) { stoppedHosts.record(error, for: host) }
      return .failed(error)
    } catch {
      return .cancelled
    }
    do {
      switch fetched {
      case .image(let data, _, let freshness), .vectorTile(let data, let freshness):
        try cache.store(pending.tile, data: data, freshness: freshness)
        return .stored(bytes: data.count)
      case .notModified(let freshness):
        try cache.refresh(pending.tile, freshness: freshness)
        return .confirmed
      case .missing:
        return .missing
      }
    } catch {
      return .cacheFailed("\(error)")
    }
  }
}

/// The first failure of each host that stops the download from asking it again, shared by the tasks.
///
/// `@unchecked Sendable`: `failures` is touched only while `lock` is held.
private final class StoppedHosts: @unchecked Sendable {
  private let lock = NSLock()
  private var failures: [String: TileFetchError] = [:]

  func error(for host: String) -> TileFetchError? {
    lock.lock()
    defer { lock.unlock() }
    return failures[host]
  }

  func record(_ error: TileFetchError, for host: String) {
    lock.lock()
    if failures[host] == nil { failures[host] = error }
    lock.unlock()
  }
}
