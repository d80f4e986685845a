/// The layout of the basemap data file (`Data/basemap.sqlite`), shared by `BasemapData` (reads) and
/// `BasemapBuilder` (writes).
///
/// ```sql
/// CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
/// CREATE TABLE feature(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, band INTEGER NOT NULL, name TEXT,
///                      rank REAL NOT NULL DEFAULT 0, geometry BLOB NOT NULL);
/// CREATE VIRTUAL TABLE feature_box USING rtree(id, min_x, max_x, min_y, max_y, min_layer, max_layer);
/// ```
///
/// `feature_box` holds each feature's world-space box ([0, 1], y down) and its layer,
/// `code(kind) × 8 + band`, with the kind codes in `meta.layers` (`land=0,lake=1,…`). The third dimension
/// lets one R-tree query visit only the entries of one kind and band (or, for points, bands 0…b): with
/// boxes alone, a view of the whole world would walk every band's pieces for each kind it draws.
///
/// Coastlines are not stored when `meta.coastline` is `land` (the builder's default): Natural Earth's
/// coastline is the land polygons' boundary (99.9 % of its vertices are land vertices), so the reader
/// takes the edges of the land rings of the same band, less the edges that lie on a grid line of the cuts
/// (or the world's edges: the 180° meridian, the clamped south of Antarctica). Half the storage, and the
/// stroke lies exactly on the fill's edge at every zoom, which two separately simplified copies would not.
///
/// Geometry is `BasemapGeometry.encode`d world-space parts: polygons are closed rings (last point = first),
/// outer rings clockwise on screen (positive shoelace area with y down), holes the other way; lines are
/// parts of two or more points; points are one part of one point.
public enum BasemapFileFormat {
  public static let version = 1
  public static let layersPerKind = 8

  public static let schema = [
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """
    CREATE TABLE feature(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, band INTEGER NOT NULL, name TEXT, \
    rank REAL NOT NULL DEFAULT 0, geometry BLOB NOT NULL)
    """,
    "CREATE VIRTUAL TABLE feature_box USING rtree(id, min_x, max_x, min_y, max_y, min_layer, max_layer)",
  ]

  /// `meta.coastline` when coastlines are the land rings' edges.
  public static let coastlineFromLand = "land"

  /// The kind codes the builder writes.
  public static let kindCodes: [BasemapKind: Int] = Dictionary(
    uniqueKeysWithValues: BasemapKind.allCases.enumerated().map { ($1, $0) })

  public static func layer(code: Int, band: Int) -> Int {
    code * layersPerKind + band
  }

  /// `land=0,lake=1,…` in code order.
  public static func layersText(_ codes: [BasemapKind: Int]) -> String {
    codes.sorted { $0.value < $1.value }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ",")
  }

  /// Parses `layersText`; nil when it is not well formed.
  public static func parseLayers(_ text: String) -> [BasemapKind: Int]? {
    var codes: [BasemapKind: Int] = [:]
    for entry in text.split(separator: ",") {
      let pair = entry.split(separator: "=")
      guard pair.count == 2, let code = Int(pair[1]), code >= 0 else { return nil }
      if let kind = BasemapKind(rawValue: String(pair[0])) { codes[kind] = code }
    }
    return codes.isEmpty ? nil : codes
  }
}
