import Foundation
import Locking
import Places
import Rendering
import Tiles

/// What the maps of one `render` process share, each opened once: the built-in basemap, local tile
/// sources, styles and (read-only) stores; decoded raster tiles go through `TileImageCache.shared`, decoded
/// vector tiles through `VectorTileCache.shared`. A
/// batch's maps are drawn on several threads at once, so everything here is `Sendable`: the basemap,
/// the tile sources and `LocationStore` are safe to share (they serialize their own reads), and each
/// table below opens a thing under its lock, so two maps never open it twice.
///
/// A failure to open is not kept: the next map tries again and reports its own error.
final class RenderResources: Sendable {
  /// Whether stores are kept open between maps. A watch opens the store again for each redraw, since a
  /// store replaced by a rename would otherwise be read from the old file.
  let sharesStores: Bool
  /// The decoded-tile caches of the maps, or nil for a single map (which reads each tile once anyway).
  let tileCache: TileImageCache?
  let vectorTileCache: VectorTileCache?
  private let basemaps = OpenedOnce<any BasemapSource>()
  private let tileSources = OpenedOnce<any TileSource>()
  private let styles = OpenedOnce<Style>()
  private let stores = OpenedOnce<LocationStore>()

  /// `sharing` false opens everything anew for each map (a single map: nothing to share).
  init(sharing: Bool, sharesStores: Bool = true) {
    self.sharesStores = sharing && sharesStores
    tileCache = sharing ? TileImageCache.shared : nil
    vectorTileCache = sharing ? VectorTileCache.shared : nil
    if !sharing {
      basemaps.disable()
      tileSources.disable()
      styles.disable()
      stores.disable()
    }
    if !self.sharesStores { stores.disable() }
  }

  func basemap() throws(CLIError) -> any BasemapSource {
    try basemaps.value(for: "") { () throws(CLIError) in try BuiltinBasemap.open() }
  }

  /// A tile folder, MBTiles or PMTiles file; its errors are bad input (exit 3).
  func tileSource(at path: String) throws(CLIError) -> any TileSource {
    try tileSources.value(for: path) { () throws(CLIError) in
      do {
        return try openTileSource(at: path)
      } catch {
        throw .badInput("\(error)")
      }
    }
  }

  func style(_ value: String) throws(CLIError) -> Style {
    try styles.value(for: value) { () throws(CLIError) in try StyleResolver.resolve(value) }
  }

  /// The store at `path`, opened by `open` the first time.
  func store(at path: String, open: () throws(CLIError) -> LocationStore) throws(CLIError) -> LocationStore {
    try stores.value(for: path, open: open)
  }
}

/// Things opened by a key, at most once while enabled; each open runs under the lock.
private final class OpenedOnce<Value: Sendable>: Sendable {
  private struct State {
    var values: [String: Value] = [:]
    var enabled = true
  }

  private let state = Locked(State())

  /// Opens every time from now on, keeping nothing.
  func disable() {
    state.withLock { $0.enabled = false }
  }

  func value(for key: String, open: () throws(CLIError) -> Value) throws(CLIError) -> Value {
    try state.withLock { (state: inout State) throws(CLIError) -> Value in
      if let value = state.values[key] { return value }
      let value = try open()
      if state.enabled { state.values[key] = value }
      return value
    }
  }
}
