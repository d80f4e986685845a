import Dispatch
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

  /// Reads and decodes each distinct tile once, in parallel, keeping only the layers the style draws.
  static func load(
    _ placements: [VectorMapTiling.Placement], from supply: any VectorTileSupply, layers: Set<String>
  ) -> [MapTile] {
    var seen: Set<TileID> = []
    let distinct = placements.map(\.tile).filter { seen.insert($0).inserted }
    let results = Locked([TileID: Content]())
    DispatchQueue.concurrentPerform(iterations: distinct.count) { index in
      let content = decode(distinct[index], from: supply, layers: layers)
      results.withLock { $0[distinct[index]] = content }
    }
    let contents = results.withLock { $0 }
    return placements.map { placement in
      MapTile(tile: placement.tile, rect: placement.rect, content: contents[placement.tile] ?? .missing)
    }
  }

  private static func decode(_ tile: TileID, from supply: any VectorTileSupply, layers: Set<String>)
    -> Content
  {
    let bytes: [UInt8]
    do {
      guard let found = try supply.vectorTileBytes(tile) else { return .missing }
      bytes = try Gzip.inflateIfCompressed(found, limit: maximumInflatedBytes)
    } catch {
      return .failed("\(error)")
    }
    do {
      let decoded = try VectorTile(decoding: bytes, layers: layers)
      var byName: [String: VectorTileLayer] = [:]
      // A (broken) tile may repeat a layer name; the first one counts, as `VectorTile[layer:]` has it.
      for layer in decoded.layers where byName[layer.name] == nil { byName[layer.name] = layer }
      return .layers(byName)
    } catch {
      return .failed("\(error)")
    }
  }
}
