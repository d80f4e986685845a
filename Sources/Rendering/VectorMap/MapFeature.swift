import MapStyle
import VectorTiles

/// One decoded tile layer, shared by reference so that a feature handle stays two words.
final class FeatureLayer {
  let layer: VectorTileLayer
  /// Index of the map tile the layer belongs to.
  let tileIndex: Int

  init(layer: VectorTileLayer, tileIndex: Int) {
    self.layer = layer
    self.tileIndex = tileIndex
  }

  /// For each feature, the number of its kind: features of one kind have the same geometry type and
  /// tags, so a style (unless it reads ids) treats them alike. Worked out once, on first use.
  private(set) lazy var kinds: (ofFeature: [Int32], count: Int) = {
    // Hashed once by a quick mix of its tags: the dictionary's own hashing of every tag was most of
    // the cost (two threads work this out for the layers both read). Equality still compares the tags.
    struct Kind: Hashable {
      let type: VectorTileGeometryType
      let tags: ArraySlice<UInt32>
      let mix: UInt64

      init(type: VectorTileGeometryType, tags: ArraySlice<UInt32>) {
        self.type = type
        self.tags = tags
        var mix: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(tags.count)
        for tag in tags { mix = (mix ^ UInt64(tag)) &* 0x0000_0100_0000_01b3 }
        self.mix = mix
      }

      static func == (a: Kind, b: Kind) -> Bool { a.mix == b.mix && a.type == b.type && a.tags == b.tags }
      func hash(into hasher: inout Hasher) { hasher.combine(mix) }
    }
    var numbers: [Kind: Int32] = [:]
    var kinds: [Int32] = []
    kinds.reserveCapacity(layer.features.count)
    for feature in layer.features {
      let kind = Kind(type: feature.type, tags: feature.tags)
      if let number = numbers[kind] {
        kinds.append(number)
      } else {
        let number = Int32(numbers.count)
        numbers[kind] = number
        kinds.append(number)
      }
    }
    return (kinds, numbers.count)
  }()
}

/// A feature as the style sees it: a layer and an index, small enough that evaluating a style
/// expression on it allocates nothing (MapStyle's evaluator takes features as existentials).
struct MapFeature: StyleFeature {
  let source: FeatureLayer
  let index: Int

  var feature: VectorTileFeature { source.layer.features[index] }

  var geometryType: StyleGeometryType {
    switch source.layer.features[index].type {
    case .point: return .point
    case .lineString: return .lineString
    case .polygon: return .polygon
    }
  }

  var id: StyleValue? {
    source.layer.features[index].id.map { .number(Double($0)) }
  }

  func property(_ key: String) -> StyleValue? {
    guard let value = source.layer.features[index].properties[key] else { return nil }
    return MapFeature.styleValue(value)
  }

  /// A tile value as a style value: every number becomes a `Double`, as in MapLibre.
  static func styleValue(_ value: VectorTileValue) -> StyleValue {
    switch value {
    case .string(let text): return .string(text)
    case .bool(let flag): return .bool(flag)
    case .float(let number): return .number(Double(number))
    case .double(let number): return .number(number)
    case .int(let number): return .number(Double(number))
    case .uint(let number): return .number(Double(number))
    }
  }
}
