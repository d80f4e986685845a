import MapStyle
import VectorTiles

/// Runs a layer's filter and styling over the features of its tile layers.
///
/// A style reads a feature's geometry type and attributes (and rarely its id). Features with the same
/// type and the same tags — most of a city's streets, buildings and paths fall into a few hundred such
/// kinds — get the same answer, so unless the style reads ids, each kind is styled once per tile layer:
/// what made styling the slowest part of a map (every line layer testing every street of four tiles).
enum StyledFeatures {
  /// Calls `body` with each feature of the given types that passes the filter and gets a value from
  /// `style`; `style` is evaluated once per kind of feature when `readsFeatureID` is false.
  static func forEach<Value>(
    of layer: StyleLayer, in sources: [FeatureLayer?], zoom: Double, types: Set<VectorTileGeometryType>,
    readsFeatureID: Bool, style: (MapFeature) -> Value?, each body: (FeatureSlot, MapFeature, Value) -> Void
  ) {
    let shared = !readsFeatureID && !(layer.filter?.readsFeatureID ?? false)
    // By raw value (1…3): a set lookup hashes, once per feature and layer.
    var wanted = [false, false, false, false]
    for type in types { wanted[type.rawValue] = true }
    for source in sources {
      guard let source else { continue }
      let kinds = shared ? source.kinds : (ofFeature: [], count: 0)
      // Per kind: not yet styled (nil), or styled to a value or to nothing.
      var known = [Value??](repeating: nil, count: kinds.count)
      // By index, reading only the type: iterating the features themselves copied each (retaining its
      // geometry and tags) for every layer.
      let features = source.layer.features
      for index in features.indices where wanted[features[index].type.rawValue] {
        let handle = MapFeature(source: source, index: index)
        let value: Value?
        if shared {
          let kind = Int(kinds.ofFeature[index])
          if let found = known[kind] {
            value = found
          } else {
            value = layer.matches(handle, atZoom: zoom) ? style(handle) : nil
            known[kind] = .some(value)
          }
        } else {
          value = layer.matches(handle, atZoom: zoom) ? style(handle) : nil
        }
        guard let value else { continue }
        body(FeatureSlot(tile: Int32(source.tileIndex), feature: Int32(index)), handle, value)
      }
    }
  }
}
