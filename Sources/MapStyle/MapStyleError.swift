import JSON

/// Why a style cannot be used. Every message names what to fix; the messages never name
/// command-line flags (the caller adds those).
public enum MapStyleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file is not valid JSON.
  case syntax(JSONSyntaxError)
  /// The file is larger than the limit, in bytes.
  case tooLarge(bytes: Int, limit: Int)
  /// `version` is missing or not 8; `found` is how the file wrote it.
  case unsupportedVersion(found: String)
  /// The style's top level is malformed: `path` is where (`layers`, `sources.osm`).
  case invalidStyle(path: String, message: String)
  /// A layer is malformed, or one of its values is: `property` is `filter`, `fill-color`, `id`…
  case invalidLayer(layer: String, property: String, message: String)
  /// An expression uses an operator this module cannot evaluate.
  case unknownOperator(layer: String, property: String, operator: String)
  /// A colour that does not parse.
  case invalidColor(layer: String, property: String, text: String)
  /// A count or depth beyond what any real style needs.
  case limitExceeded(layer: String?, what: String, limit: Int)

  /// The message for the user.
  public var description: String {
    switch self {
    case .syntax(let error):
      return "style is not valid JSON: \(error.description)"
    case .tooLarge(let bytes, let limit):
      return "style is \(bytes) bytes; styles larger than \(limit) bytes are refused"
    case .unsupportedVersion(let found):
      return "style version must be 8 (MapLibre style specification v8), found \(found)"
    case .invalidStyle(let path, let message):
      return "style: \(path): \(message)"
    case .invalidLayer(let layer, let property, let message):
      return "style layer \(JSONWriter.quoted(layer)): \(property): \(message)"
    case .unknownOperator(let layer, _, let name):
      return "style layer \(JSONWriter.quoted(layer)): unknown expression operator \(JSONWriter.quoted(name))"
    case .invalidColor(let layer, let property, let text):
      return
        "style layer \(JSONWriter.quoted(layer)): \(property): \(JSONWriter.quoted(text)) is not a colour"
    case .limitExceeded(let layer, let what, let limit):
      let prefix = layer.map { "style layer \(JSONWriter.quoted($0))" } ?? "style"
      return "\(prefix): \(what) exceeds the limit of \(limit)"
    }
  }
}

/// Something in a style that this module reads but does not draw. The style still works; the caller
/// shows each warning once.
public enum StyleWarning: Hashable, Sendable, CustomStringConvertible {
  /// A property outside the supported subset; `otherLayers` counts further layers that use it.
  case ignoredProperty(layer: String, property: String, otherLayers: Int)
  /// A layer whose type is not drawn (raster, circle, fill-extrusion, heatmap, hillshade, sky…).
  case unsupportedLayerType(layer: String, type: String)
  /// Icons, sprites and patterns appear somewhere in the style; said once for the whole style.
  case iconsIgnored
  /// A layer names a source the style does not declare.
  case unknownSource(layer: String, source: String)

  /// The message for the user.
  public var description: String {
    switch self {
    case .ignoredProperty(let layer, let property, let otherLayers):
      let more =
        switch otherLayers {
        case 0: ""
        case 1: " (and in 1 more layer)"
        default: " (and in \(otherLayers) more layers)"
        }
      return "style layer \(JSONWriter.quoted(layer)): \(property) ignored\(more)"
    case .unsupportedLayerType(let layer, let type):
      return "style layer \(JSONWriter.quoted(layer)): layer type \(JSONWriter.quoted(type)) is not drawn"
    case .iconsIgnored:
      return "style: icons and sprites are ignored"
    case .unknownSource(let layer, let source):
      return "style layer \(JSONWriter.quoted(layer)): source \(JSONWriter.quoted(source)) is not declared"
    }
  }
}
