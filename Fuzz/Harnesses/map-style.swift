import FuzzSupport
import MapStyle

// MapLibre style JSON (`MapStyle(bytes:)`): a style, or a MapStyleError quoting little of the input. What
// reads is evaluated the way a render does: each layer's filter and paint at a few zooms, for a feature
// with a few properties.
struct Feature: StyleFeature {
  var geometryType: StyleGeometryType
  var id: StyleValue? { .number(7) }

  func property(_ key: String) -> StyleValue? {
    switch key {
    case "class": return .string("primary")
    case "name": return .string("Mannerheimintie")
    case "rank", "admin_level": return .number(2)
    case "brunnel": return .null
    default: return nil
    }
  }
}

let features = [
  Feature(geometryType: .point), Feature(geometryType: .lineString), Feature(geometryType: .polygon),
]
let zooms = [0, 7.5, 14, 22, -1, 1e9]

Fuzz.run { input in
  let style: MapStyle
  do {
    style = try MapStyle(bytes: input.buffer)
  } catch {
    requireShortMessage("\(error)")
    return
  }
  require(style.layers.count <= StyleLimits.maximumLayers, "\(style.layers.count) layers")
  for layer in style.layers {
    for zoom in zooms {
      _ = layer.isShown(atZoom: zoom)
      for feature in features {
        _ = layer.matches(feature, atZoom: zoom)
        switch layer.kind {
        case .background(let paint): _ = (paint.color.value(atZoom: zoom), paint.opacity.value(atZoom: zoom))
        case .fill(let paint):
          _ = (paint.color.value(atZoom: zoom, for: feature), paint.opacity.value(atZoom: zoom))
        case .line(let paint):
          _ = (paint.color.value(atZoom: zoom, for: feature), paint.width.value(atZoom: zoom, for: feature))
          _ = paint.dashArray.value(atZoom: zoom, for: feature)
        case .symbol(let paint): _ = paint.spacing.value(atZoom: zoom, for: feature)
        case .unsupported: break
        }
      }
    }
  }
}
