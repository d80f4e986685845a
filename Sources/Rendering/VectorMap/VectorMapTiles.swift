import Dispatch
import Foundation
import Gzip
import Locking
import MapMath
import VectorTiles

/// Why a vector map cannot be drawn at all (a single bad tile is a placeholder and a warning instead).
public enum VectorMapError: Error, Equatable, CustomStringConvertible {
  /// The view needs more tiles than a map may decode: the source's zooms do not suit the camera.
  case tooManyTiles(needed: Int, zoom: Int, limit: Int)

  public var description: String {
    switch self {
    case .tooManyTiles(let needed, let zoom, let limit):
      return
        "this map would need \(needed) vector tiles at zoom \(zoom) (at most \(limit)); the tile source's"
        + " zooms are too deep for so wide a view: zoom in or use a source with lower zooms"
    }
  }
}

/// Which zooms a vector map uses, and which tiles it shows where.
///
/// MapLibre styles count zoom in 512-pixel tiles, mymap in 256-pixel tiles: the style is evaluated at
/// `camera.zoom - 1`, and the data tiles are those of that zoom rounded down (vector tiles are made for
/// display at 512 pixels), kept inside the source's zooms. Past the source's top zoom the top tiles are
/// scaled up (geometry stays crisp); below its bottom zoom the bottom tiles are shrunk.
struct VectorMapTiling {
  /// The most tiles one map decodes.
  static let maximumTiles = 256

  /// One tile where it lands on the image.
  struct Placement {
    let tile: TileID
    /// The tile's square, in points.
    let rect: PixelRect
  }

  /// The zoom the style's filters, stops and layer zoom ranges are evaluated at.
  let styleZoom: Double
  /// The zoom of the tiles drawn.
  let dataZoom: Int
  /// The tiles covering the image, north to south, west to east (a tile can appear once per world copy).
  let placements: [Placement]

  init(camera: Camera, zoomRange: ClosedRange<Int>) throws(VectorMapError) {
    styleZoom = camera.zoom - 1
    let ideal = (styleZoom + 1e-9).rounded(.down)
    let low = Double(zoomRange.lowerBound)
    let high = Double(zoomRange.upperBound)
    dataZoom = Int(ideal.isFinite ? min(max(ideal, low), high) : low)
    let range = camera.tileRange(tileZoom: dataZoom)
    let count = range.columns.count * range.rows.count
    guard count <= Self.maximumTiles else {
      throw .tooManyTiles(needed: count, zoom: dataZoom, limit: Self.maximumTiles)
    }
    placements = range.placements.map { placement in
      Placement(tile: placement.tile, rect: camera.pixelRect(for: placement).scaled(by: 1 / camera.scale))
    }
  }
}

/// One tile of the map as decoded: its layers by name, or why it has none.
final class MapTile: Sendable {
  enum Content: Sendable {
    /// The layers the style draws, by name.
    case layers([String: VectorTileLayer])
    /// The source has no such tile: nothing is drawn there.
    case missing
    /// The tile could not be read or decoded: a placeholder is drawn there.
    case failed(String)
  }

  let tile: TileID
  /// The tile's square, in points.
  let rect: PixelRect
  let content: Content

  init(tile: TileID, rect: PixelRect, content: Content) {
    self.tile = tile
    self.rect = rect
    self.content = content
  }

  /// The decoded layer of that name, if the tile has it.
  func layer(_ name: String) -> VectorTileLayer? {
    if case .layers(let layers) = content { return layers[name] }
    return nil
  }

  /// True when the tile's data is drawn (decoded, possibly with no features).
  var hasData: Bool {
    if case .layers = content { return true }
    return false
  }

  /// Inflated tiles larger than this are refused (a gzip bomb must not take the memory).
  static let maximumInflatedBytes = 32 << 20

  /// Reads and decodes each distinct tile once, in parallel, keeping only the layers the style draws:
  /// first every tile is read, inflated and its layers found, then every layer of every tile is decoded
  /// on any core, the largest first, so that one dense tile's buildings and roads need not wait for each
  /// other (`VectorTileLayerIndex`).
  ///
  /// With a `cache` (and a supply that names its tiles), tiles decoded by an earlier render are taken
  /// from it, and the ones decoded now are kept in it.
  static func load(
    _ placements: [VectorMapTiling.Placement], from supply: any VectorTileSupply, layers: Set<String>,
    cache: VectorTileCache? = nil
  ) -> [MapTile] {
    var seen: Set<TileID> = []
    let distinct = placements.map(\.tile).filter { seen.insert($0).inserted }
    let keys = supply.cacheIdentity.map { identity in
      distinct.map { VectorTileCache.Key(source: identity, tile: $0, layers: layers) }
    }
    // A batch of tiles at a time, as many as there are cores: their inflated bytes are held until their
    // layers are decoded, so memory stays what decoding a tile per core took, however many tiles a view
    // needs and however large each claims to be.
    let batch = max(ProcessInfo.processInfo.activeProcessorCount, 2)
    var contents: [TileID: Content] = [:]
    for start in stride(from: 0, to: distinct.count, by: batch) {
      let range = start..<min(start + batch, distinct.count)
      let decoded = loadBatch(
        Array(distinct[range]), keys: keys.map { Array($0[range]) }, from: supply, layers: layers,
        cache: cache)
      for (tile, content) in zip(distinct[range], decoded) { contents[tile] = content }
    }
    return placements.map { placement in
      MapTile(tile: placement.tile, rect: placement.rect, content: contents[placement.tile] ?? .missing)
    }
  }

  /// The contents of `distinct` tiles (with their cache keys, if the supply names its tiles).
  private static func loadBatch(
    _ distinct: [TileID], keys: [VectorTileCache.Key]?, from supply: any VectorTileSupply,
    layers: Set<String>,
    cache: VectorTileCache?
  ) -> [Content] {
    let read = Locked([Int: Reading]())
    DispatchQueue.concurrentPerform(iterations: distinct.count) { index in
      let reading: Reading
      if let keys, let kept = cache?.layers(keys[index]) {
        reading = .kept(kept)
      } else {
        reading = Self.read(distinct[index], from: supply, layers: layers)
      }
      read.withLock { $0[index] = reading }
    }
    let readings = read.withLock { $0 }
    var sized: [(job: DecodeJob, bytes: Int)] = []
    for tile in distinct.indices {
      guard case .found(let index) = readings[tile] else { continue }
      if index.layersAreIndependent {
        sized += (0..<index.layerCount).map {
          (DecodeJob(tile: tile, layer: $0), index.byteCount(ofLayer: $0))
        }
      } else {
        sized.append((DecodeJob(tile: tile, layer: nil), .max))
      }
    }
    // Largest first, so that the last job to finish is a small one.
    let jobs = sized.sorted { $0.bytes > $1.bytes }.map(\.job)
    let decoded = Locked([DecodeJob: Decoded]())
    DispatchQueue.concurrentPerform(iterations: jobs.count) { number in
      let job = jobs[number]
      guard case .found(let index) = readings[job.tile] else { return }
      let result: Decoded
      if let layer = job.layer {
        result = .layer(Result { () throws(VectorTileError) in try index.layer(layer) })
      } else {
        result = .tile(Result { () throws(VectorTileError) in try index.decodeAll() })
      }
      decoded.withLock { $0[job] = result }
    }
    let results = decoded.withLock { $0 }
    return distinct.indices.map { number in
      let content = Self.content(of: readings[number], tile: number, decoded: results)
      if let keys, case .found = readings[number], case .layers(let decoded) = content {
        cache?.insert(decoded, for: keys[number])
      }
      return content
    }
  }

  /// A tile read and its layers found, or why not.
  private enum Reading {
    case found(VectorTileLayerIndex)
    /// Decoded by an earlier render (`VectorTileCache`).
    case kept([String: VectorTileLayer])
    case missing
    case failed(String)
  }

  /// One layer of a tile to decode, or (`layer` nil) a whole tile whose layers decode in order.
  private struct DecodeJob: Hashable {
    let tile: Int
    let layer: Int?
  }

  private enum Decoded {
    case layer(Result<VectorTileLayer, VectorTileError>)
    case tile(Result<VectorTile, VectorTileError>)
  }

  private static func read(_ tile: TileID, from supply: any VectorTileSupply, layers: Set<String>) -> Reading
  {
    do {
      guard let found = try supply.vectorTileBytes(tile) else { return .missing }
      let bytes = try Gzip.inflateIfCompressed(found, limit: maximumInflatedBytes)
      return .found(try VectorTileLayerIndex(bytes, layers: layers))
    } catch {
      return .failed("\(error)")
    }
  }

  /// Tile number `tile`'s content from its reading and the decoded jobs.
  private static func content(of reading: Reading?, tile: Int, decoded: [DecodeJob: Decoded]) -> Content {
    let index: VectorTileLayerIndex
    switch reading {
    case .found(let found): index = found
    case .kept(let layers): return .layers(layers)
    case .missing, nil: return .missing
    case .failed(let reason): return .failed(reason)
    }
    do {
      let whole: VectorTile
      if index.layersAreIndependent {
        let layers = (0..<index.layerCount).map { layer in
          guard case .layer(let result) = decoded[DecodeJob(tile: tile, layer: layer)] else {
            preconditionFailure("every layer was decoded")
          }
          return result
        }
        whole = try index.tile(from: layers)
      } else {
        guard case .tile(let result) = decoded[DecodeJob(tile: tile, layer: nil)] else {
          preconditionFailure("every tile was decoded")
        }
        whole = try result.get()
      }
      var byName: [String: VectorTileLayer] = [:]
      // A (broken) tile may repeat a layer name; the first one counts, as `VectorTile[layer:]` has it.
      for layer in whole.layers where byName[layer.name] == nil { byName[layer.name] = layer }
      return .layers(byName)
    } catch {
      return .failed("\(error)")
    }
  }
}
