import Dispatch
import Foundation
import ImageCodecs
import Locking
import MapMath

/// The outcome of loading a set of tiles: the decoded ones, the ones the source does not have, and the
/// ones that could not be used (with the reason).
public struct LoadedTiles: Sendable {
  public var images: [TileID: RasterImage]
  /// Tiles the source does not have, sorted.
  public var missing: [TileID]
  /// Tiles whose bytes are not a usable image, sorted by tile.
  public var failed: [TileFailure]
  /// Decoded tiles that `load`'s `handOver` took as they came (they are not in `images`), sorted.
  public var handedOver: [TileID] = []

  public init(
    images: [TileID: RasterImage], missing: [TileID], failed: [TileFailure], handedOver: [TileID] = []
  ) {
    self.images = images
    self.missing = missing
    self.failed = failed
    self.handedOver = handedOver
  }
}

/// A tile that the source has but that cannot be drawn.
public struct TileFailure: Hashable, Sendable, CustomStringConvertible {
  public let tile: TileID
  /// Why, in words (e.g. "not a readable image (…)", "tile is 300×300 pixels, expected 256×256").
  public let reason: String

  public var description: String { "tile \(tile): \(reason)" }
}

/// Fetches tiles from a source and decodes them on a few threads at once (no more than the cores).
public struct TileLoader: Sendable {
  public let source: any TileSource
  /// Where decoded tiles are kept between loads; nil for no caching.
  public let cache: TileImageCache?
  /// The most tiles fetched and decoded at the same time.
  public let maximumConcurrency: Int

  public init(
    source: any TileSource, cache: TileImageCache? = nil,
    maximumConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.source = source
    self.cache = cache
    self.maximumConcurrency = max(1, maximumConcurrency)
  }

  /// Loads every tile (duplicates once). Throws `TileSourceError` only when the source itself fails, or
  /// when its tile size cannot be drawn (`TileLimits.tileSizes`).
  ///
  /// `handOver` is given each decoded tile on the thread that decoded it, several at once: when it returns
  /// true it has used the tile (drawn it into the image), which is then not kept, so a large map never
  /// holds all its decoded tiles at once.
  public func load(_ tiles: [TileID], handOver: (@Sendable (TileID, RasterImage) -> Bool)? = nil) throws
    -> LoadedTiles
  {
    guard TileLimits.isUsableTileSize(source.tileSize) else {
      throw TileSourceError.badTileSize(
        source.description, declaredIn: "its tile size", value: String(source.tileSize))
    }
    var seen = Set<TileID>()
    let unique = tiles.filter { seen.insert($0).inserted }
    let collector = OutcomeCollector(count: unique.count)
    let workers = min(maximumConcurrency, unique.count)
    let work = { @Sendable () in
      while let index = collector.nextIndex() {
        do {
          let outcome = try self.loadTile(unique[index])
          if case .image(let image) = outcome, let handOver, handOver(unique[index], image) {
            collector.recordHandedOver(at: index)
          } else {
            collector.record(outcome, at: index)
          }
        } catch {
          collector.stop(with: error)
        }
      }
    }
    if workers <= 1 {
      work()
    } else {
      DispatchQueue.concurrentPerform(iterations: workers) { _ in work() }
    }
    return try collector.result(for: unique)
  }

  /// What became of one tile.
  public enum Outcome: Sendable {
    case image(RasterImage)
    case missing
    case failed(String)
  }

  /// Fetches and decodes one tile on the calling thread. A tile whose header gives another size than the
  /// source's (0×0, or 40,000 pixels a side) fails before its pixels are decoded.
  public func loadTile(_ tile: TileID) throws -> Outcome {
    let identity = source.cacheIdentity
    if let cached = cache?.image(source: identity, tile: tile) { return .image(cached) }
    let fetched: Data?
    do {
      fetched = try source.tileData(tile)
    } catch TileSourceError.badTile(_, _, let reason) {
      return .failed(reason)
    }
    guard let data = fetched else { return .missing }
    let size = source.tileSize
    if data.isEmpty { return .failed("empty tile data") }
    let image: RasterImage
    do {
      image = try ImageDecoder.decode(data, maximumSide: size)
    } catch ImageCodecError.tooLarge(let width, let height, _), ImageCodecError.empty(let width, let height) {
      return .failed(Self.wrongSize(width, height, expected: size))
    } catch {
      return .failed("\(error)")
    }
    guard image.width == size, image.height == size else {
      return .failed(Self.wrongSize(image.width, image.height, expected: size))
    }
    cache?.insert(image, source: identity, tile: tile)
    return .image(image)
  }
}

extension TileLoader {
  /// `tile is 0×0 pixels, expected 256×256`.
  static func wrongSize(_ width: Int, _ height: Int, expected size: Int) -> String {
    "tile is \(width)×\(height) pixels, expected \(size)×\(size)"
  }
}

/// Hands out tile indices to the workers and gathers what they produce; its state lives in a `Mutex`.
private final class OutcomeCollector: Sendable {
  private struct State {
    var next = 0
    var outcomes: [TileLoader.Outcome?]
    var handedOver: Set<Int> = []
    var firstError: (any Error)?
  }

  private let state: Locked<State>

  init(count: Int) {
    state = Locked(State(outcomes: Array(repeating: nil, count: count)))
  }

  /// The next index to work on; nil when all are handed out or a worker hit a source error.
  func nextIndex() -> Int? {
    state.withLock { state in
      guard state.firstError == nil, state.next < state.outcomes.count else { return nil }
      state.next += 1
      return state.next - 1
    }
  }

  func record(_ outcome: TileLoader.Outcome, at index: Int) {
    state.withLock { $0.outcomes[index] = outcome }
  }

  func recordHandedOver(at index: Int) {
    state.withLock { _ = $0.handedOver.insert(index) }
  }

  func stop(with error: any Error) {
    state.withLock { state in
      if state.firstError == nil { state.firstError = error }
    }
  }

  func result(for tiles: [TileID]) throws -> LoadedTiles {
    let (outcomes, handedOver, firstError) = state.withLock { ($0.outcomes, $0.handedOver, $0.firstError) }
    if let firstError { throw firstError }
    var loaded = LoadedTiles(images: [:], missing: [], failed: [])
    for (index, (tile, outcome)) in zip(tiles, outcomes).enumerated() {
      if handedOver.contains(index) {
        loaded.handedOver.append(tile)
        continue
      }
      switch outcome {
      case .image(let image): loaded.images[tile] = image
      case .missing, nil: loaded.missing.append(tile)
      case .failed(let reason): loaded.failed.append(TileFailure(tile: tile, reason: reason))
      }
    }
    loaded.missing.sort()
    loaded.handedOver.sort()
    loaded.failed.sort { $0.tile < $1.tile }
    return loaded
  }
}
