import JSON

/// One layer of a style, compiled. Zooms are style zooms (mymap zoom − 1).
public struct StyleLayer: Sendable {
  /// What the layer draws, with its typed properties.
  public enum Kind: Sendable {
    case background(BackgroundStyle)
    case fill(FillStyle)
    case line(LineStyle)
    case symbol(SymbolStyle)
    /// A layer type mymap does not draw (`raster`, `circle`, `fill-extrusion`, `heatmap`, `hillshade`…).
    case unsupported(type: String)
  }

  /// The layer's `id`.
  public var id: String
  /// What it draws, with its properties.
  public var kind: Kind
  /// The source it draws from (nil for `background`).
  public var source: String?
  /// The vector tile layer it draws (`source-layer`).
  public var sourceLayer: String?
  /// The layer shows from this style zoom on (inclusive).
  public var minZoom: Double?
  /// The layer hides from this style zoom on (exclusive).
  public var maxZoom: Double?
  /// Nil when the layer has no filter (every feature passes).
  public var filter: StyleFilter?
  /// False when `layout.visibility` is `none`, or when the layer is painted with a sprite pattern (sprites
  /// are not read).
  public var isVisible: Bool

  /// Whether the layer draws at a style zoom: visible, at or above `minZoom`, below `maxZoom`.
  public func isShown(atZoom zoom: Double) -> Bool {
    isVisible && zoom >= (minZoom ?? -.infinity) && zoom < (maxZoom ?? .infinity)
  }

  /// Whether a feature passes the layer's filter at a style zoom.
  @inlinable
  public func matches<F: StyleFeature>(_ feature: F, atZoom zoom: Double) -> Bool {
    filter?.matches(feature, atZoom: zoom) ?? true
  }
}

/// What reading one layer found besides the layer itself.
struct LayerReport {
  var layer: StyleLayer
  /// Properties set but not supported (icon properties excluded).
  var ignored: [String] = []
  var usesIcons = false
}

extension StyleLayer {
  private static let drawnTypes: Set<String> = ["background", "fill", "line", "symbol"]

  /// Reads one layer object; `earlier` holds the layers before it, for legacy `ref` layers.
  static func read(_ json: JSONValue, index: Int, earlier: [String: JSONValue]) throws(MapStyleError)
    -> LayerReport
  {
    let path = "layers[\(index)]"
    guard case .object = json else { throw .invalidStyle(path: path, message: "a layer must be an object") }
    guard case .string(let id)? = json["id"] else {
      throw .invalidStyle(path: path, message: "a layer needs a string \"id\"")
    }
    let merged = try resolvingReference(json, id: id, earlier: earlier)
    guard case .string(let type)? = merged["type"] else {
      throw MapStyleError.invalidLayer(
        layer: id, property: "type", message: "a layer needs a string \"type\"")
    }
    let layout = try member(merged["layout"], .object, \.objectMembers, layer: id, name: "layout") ?? []
    let paint = try member(merged["paint"], .object, \.objectMembers, layer: id, name: "paint") ?? []
    var isVisible = true
    if let visibility = layout.first(where: { $0.name == "visibility" })?.value {
      guard case .string(let word) = visibility, word == "visible" || word == "none" else {
        throw MapStyleError.invalidLayer(
          layer: id, property: "visibility", message: "must be \"visible\" or \"none\"")
      }
      isVisible = word == "visible"
    }
    var layer = StyleLayer(
      id: id, kind: .unsupported(type: type),
      source: try member(merged["source"], .string, \.stringValue, layer: id, name: "source"),
      sourceLayer: try member(
        merged["source-layer"], .string, \.stringValue, layer: id, name: "source-layer"),
      minZoom: try member(merged["minzoom"], .number, \.numberValue, layer: id, name: "minzoom"),
      maxZoom: try member(merged["maxzoom"], .number, \.numberValue, layer: id, name: "maxzoom"), filter: nil,
      isVisible: isVisible)
    // Layers that are not drawn are not compiled either: their expressions cannot stop the style.
    guard drawnTypes.contains(type) else { return LayerReport(layer: layer) }
    if let filter = merged["filter"] {
      layer.filter = StyleFilter(try ExpressionCompiler(layer: id, property: "filter").compileFilter(filter))
    }
    // A fill, line or background painted with a sprite pattern draws nothing without the sprite (as in
    // MapLibre when the image is missing), not a black area in the default colour.
    if paint.contains(where: { $0.name == "\(type)-pattern" }) { layer.isVisible = false }
    var reader = PropertyReader(layer: id, layout: layout, paint: paint)
    switch type {
    case "background": layer.kind = .background(try reader.backgroundStyle())
    case "fill": layer.kind = .fill(try reader.fillStyle())
    case "line": layer.kind = .line(try reader.lineStyle())
    default: layer.kind = .symbol(try reader.symbolStyle())
    }
    var report = LayerReport(layer: layer)
    for name in reader.unread where !PropertyCatalog.withoutEffect.contains(name) {
      if PropertyCatalog.isIconProperty(name) {
        report.usesIcons = true
      } else if !report.ignored.contains(name) {
        report.ignored.append(name)
      }
    }
    return report
  }

  /// A legacy `ref` layer takes type, source, source-layer, zooms, filter and layout from the layer it
  /// names; its own id and paint stay.
  private static func resolvingReference(_ json: JSONValue, id: String, earlier: [String: JSONValue])
    throws(MapStyleError) -> JSONValue
  {
    guard let reference = json["ref"] else { return json }
    guard case .string(let name) = reference, let base = earlier[name] else {
      throw MapStyleError.invalidLayer(layer: id, property: "ref", message: "names no earlier layer")
    }
    let inherited: Set<String> = ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"]
    guard case .object(let own) = json, case .object(let baseMembers) = base else { return json }
    return .object(
      own.filter { !inherited.contains($0.name) } + baseMembers.filter { inherited.contains($0.name) })
  }

  private static func member<Value>(
    _ json: JSONValue?, _ kind: MemberKind, _ extract: (JSONValue) -> Value?, layer: String, name: String
  ) throws(MapStyleError) -> Value? {
    try optionalMember(json, kind, extract) { .invalidLayer(layer: layer, property: name, message: $0) }
  }
}
