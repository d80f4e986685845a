import JSON

/// A source a style declares, recorded as written. Nothing is fetched: the caller supplies tiles.
public struct StyleSource: Hashable, Sendable {
  /// The source's name in `sources`.
  public var id: String
  /// `vector`, `raster`, `raster-dem`, `geojson`, `image`, `video`…
  public var type: String
  /// A TileJSON URL or a local archive (`mbtiles://…`, `pmtiles://…`).
  public var url: String?
  /// Tile URL templates.
  public var tiles: [String]
  /// The source's `minzoom`.
  public var minZoom: Double?
  /// The source's `maxzoom` (where its data stops).
  public var maxZoom: Double?
  /// The source's `attribution`, as written.
  public var attribution: String?

  /// A local tile archive the source's `url` names.
  public struct Archive: Hashable, Sendable {
    /// The archive format the URL scheme names.
    public enum Kind: String, Hashable, Sendable {
      case mbtiles, pmtiles
    }

    /// MBTiles or PMTiles.
    public var kind: Kind
    /// What follows the scheme: a path, or for PMTiles possibly an http URL.
    public var location: String
  }

  /// The archive for `mbtiles://` and `pmtiles://` URLs; nil for anything else.
  public var archive: Archive? {
    guard let url else { return nil }
    for kind in [Archive.Kind.mbtiles, .pmtiles] where url.hasPrefix("\(kind.rawValue)://") {
      return Archive(kind: kind, location: String(url.dropFirst(kind.rawValue.count + 3)))
    }
    return nil
  }

  init(id: String, json: JSONValue) throws(MapStyleError) {
    let path = "sources.\(id)"
    guard case .object = json else { throw .invalidStyle(path: path, message: "a source must be an object") }
    guard case .string(let type)? = json["type"] else {
      throw .invalidStyle(path: path, message: "a source needs a string \"type\"")
    }
    self.id = id
    self.type = type
    func member<Value>(_ name: String, _ kind: MemberKind, _ extract: (JSONValue) -> Value?)
      throws(MapStyleError)
      -> Value?
    {
      try optionalMember(json[name], kind, extract) { .invalidStyle(path: "\(path).\(name)", message: $0) }
    }
    url = try member("url", .string, \.stringValue)
    attribution = try member("attribution", .string, \.stringValue)
    tiles = []
    if let list = json["tiles"] {
      guard case .array(let elements) = list, elements.count <= StyleLimits.maximumArrayLength else {
        throw .invalidStyle(path: path + ".tiles", message: "must be an array of URL templates")
      }
      for element in elements {
        guard case .string(let template) = element else {
          throw .invalidStyle(path: path + ".tiles", message: "must be an array of URL templates")
        }
        tiles.append(template)
      }
    }
    minZoom = try member("minzoom", .number, \.numberValue)
    maxZoom = try member("maxzoom", .number, \.numberValue)
  }
}
