import JSON

/// A MapLibre style (style specification version 8), read and compiled for drawing.
///
/// **Zoom convention.** A MapLibre style counts zoom in 512-pixel tiles; mymap counts in 256-pixel
/// tiles. Everything in this module — layer `minZoom`/`maxZoom`, stops, `["zoom"]`, the `atZoom:`
/// parameters — works in *style* zoom, so a caller passes `mymapZoom - 1`.
///
/// Reading a style compiles every filter and property of the drawn layer types once; what the module
/// does not draw (other layer types, icons, unsupported properties) becomes `warnings`, each said once.
/// A style it cannot use (bad JSON, a version other than 8, an unknown expression operator, a colour
/// that does not parse) is a `MapStyleError`.
public struct MapStyle: Sendable {
  /// The style's `name`.
  public var name: String?
  /// Sources in the order the style declares them; never fetched.
  public var sources: [StyleSource]
  /// The glyph URL template, recorded but not used (mymap draws text with system fonts).
  public var glyphs: String?
  /// The sprite URL (the first, when the style lists several), recorded but not used.
  public var sprite: String?
  /// Layers in drawing order, bottom first.
  public var layers: [StyleLayer]
  /// What the style uses that is not drawn, in the order first met.
  public var warnings: [StyleWarning]

  /// Reads a style file's bytes.
  public init(bytes: some Collection<UInt8>) throws(MapStyleError) {
    guard bytes.count <= StyleLimits.maximumBytes else {
      throw .tooLarge(bytes: bytes.count, limit: StyleLimits.maximumBytes)
    }
    let json: JSONValue
    do {
      // Deep enough for any real style: root, layers, layer, paint, then expression nesting.
      json = try JSONParser.parse(bytes, maximumDepth: StyleLimits.maximumExpressionDepth + 8)
    } catch {
      throw .syntax(error)
    }
    try self.init(json: json)
  }

  /// Reads an already parsed style.
  public init(json: JSONValue) throws(MapStyleError) {
    guard case .object = json else {
      throw .invalidStyle(path: "(top level)", message: "a style must be a JSON object")
    }
    switch json["version"] {
    case .number(8)?: break
    case nil: throw .unsupportedVersion(found: "no \"version\"")
    case let other?: throw .unsupportedVersion(found: other.summary)
    }
    name = try optionalMember(json["name"], .string, \.stringValue) {
      .invalidStyle(path: "name", message: $0)
    }
    glyphs = try optionalMember(json["glyphs"], .string, \.stringValue) {
      .invalidStyle(path: "glyphs", message: $0)
    }
    switch json["sprite"] {
    case .string(let url)?: sprite = url
    case .array(let entries)?: if case .string(let url)? = entries.first?["url"] { sprite = url }
    default: sprite = nil
    }
    sources = try Self.readSources(json["sources"])
    var warnings = WarningCollector()
    layers = try Self.readLayers(json["layers"], sources: Set(sources.map(\.id)), warnings: &warnings)
    self.warnings = warnings.list
  }

  /// The source with this id.
  public func source(named id: String) -> StyleSource? {
    sources.first { $0.id == id }
  }

  private static func readSources(_ json: JSONValue?) throws(MapStyleError) -> [StyleSource] {
    guard let json else { return [] }
    guard case .object(let members) = json else {
      throw .invalidStyle(path: "sources", message: "must be an object")
    }
    guard members.count <= StyleLimits.maximumLayers else {
      throw .limitExceeded(layer: nil, what: "the number of sources", limit: StyleLimits.maximumLayers)
    }
    var sources: [StyleSource] = []
    for member in members { sources.append(try StyleSource(id: member.name, json: member.value)) }
    return sources
  }

  private static func readLayers(_ json: JSONValue?, sources: Set<String>, warnings: inout WarningCollector)
    throws(MapStyleError) -> [StyleLayer]
  {
    guard case .array(let elements)? = json else {
      throw .invalidStyle(path: "layers", message: "a style needs a \"layers\" array")
    }
    guard elements.count <= StyleLimits.maximumLayers else {
      throw .limitExceeded(layer: nil, what: "the number of layers", limit: StyleLimits.maximumLayers)
    }
    var layers: [StyleLayer] = []
    var earlier: [String: JSONValue] = [:]
    for (index, element) in elements.enumerated() {
      let report = try StyleLayer.read(element, index: index, earlier: earlier)
      let layer = report.layer
      guard earlier.updateValue(element, forKey: layer.id) == nil else {
        throw .invalidLayer(layer: layer.id, property: "id", message: "another layer has the same id")
      }
      if case .unsupported(let type) = layer.kind {
        warnings.add(.unsupportedLayerType(layer: layer.id, type: type))
      } else if let source = layer.source, !sources.contains(source) {
        warnings.add(.unknownSource(layer: layer.id, source: source))
      }
      for property in report.ignored { warnings.ignore(property, in: layer.id) }
      if report.usesIcons { warnings.addOnce(.iconsIgnored) }
      layers.append(layer)
    }
    return layers
  }
}

/// Collects warnings in the order first met, counting repeats of an ignored property instead of
/// repeating the warning.
private struct WarningCollector {
  var list: [StyleWarning] = []
  private var ignoredAt: [String: Int] = [:]

  mutating func add(_ warning: StyleWarning) { list.append(warning) }

  mutating func addOnce(_ warning: StyleWarning) {
    if !list.contains(warning) { list.append(warning) }
  }

  mutating func ignore(_ property: String, in layer: String) {
    guard let index = ignoredAt[property] else {
      ignoredAt[property] = list.count
      list.append(.ignoredProperty(layer: layer, property: property, otherLayers: 0))
      return
    }
    if case .ignoredProperty(let first, _, let others) = list[index] {
      list[index] = .ignoredProperty(layer: first, property: property, otherLayers: others + 1)
    }
  }
}
