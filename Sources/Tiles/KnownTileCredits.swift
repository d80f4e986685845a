/// The credits that well-known tile servers require on every map, found from a server's host name or from
/// a tile folder named after one (a cache folder such as `tile.openstreetmap.org/` or mymap's own
/// `tile.openstreetmap.org-1a2b3c4d/`).
public enum KnownTileCredits {
  private static let osm = "© OpenStreetMap contributors"
  private static let known: [(host: String, credit: String)] = [
    ("tile.openstreetmap.org", osm),
    ("tile.openstreetmap.fr", osm + ", tiles: OpenStreetMap France"),
    ("opentopomap.org", osm + ", SRTM | style: © OpenTopoMap (CC-BY-SA)"),
    ("basemaps.cartocdn.com", osm + " © CARTO"),
    ("tile.thunderforest.com", "Maps © Thunderforest, Data " + osm),
  ]

  /// The credit of the server at `host` (or a subdomain of it); nil for others.
  public static func credit(forHost host: String) -> String? {
    let host = host.lowercased()
    return known.first { host == $0.host || host.hasSuffix("." + $0.host) }?.credit
  }

  /// The credit of the server a tile folder at `path` is named after: the nearest folder of the path
  /// whose name is a known host, with mymap's cache suffix (`-HASH`, `@2x`) taken off; nil for others.
  public static func credit(forFolderAt path: String) -> String? {
    for component in path.split(separator: "/").reversed() {
      var name = Substring(component)
      if name.hasSuffix("@2x") { name = name.dropLast(3) }
      if let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].allSatisfy(\.isHexDigit) {
        name = name[..<dash]
      }
      if name.hasSuffix("@2x") { name = name.dropLast(3) }
      if let credit = credit(forHost: String(name)) { return credit }
    }
    return nil
  }
}
