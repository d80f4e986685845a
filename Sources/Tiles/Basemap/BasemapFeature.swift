import MapMath

/// The kinds of things the built-in basemap holds, drawn bottom to top in this order.
public enum BasemapKind: String, CaseIterable, Sendable {
  /// Land polygons (the ocean is the background).
  case land
  /// Lake polygons.
  case lake
  /// River and lake centre lines, drawn in the lakes' colour from the zoom where rivers matter.
  case river
  /// Coastline lines, drawn over land and lakes for a crisp edge.
  case coastline
  /// State and province boundary lines.
  case stateBorder = "state_border"
  /// Country boundary lines on land.
  case countryBorder = "country_border"
  /// Country name points (at a good label position).
  case countryLabel = "country_label"
  /// City points with their names.
  case cityLabel = "city_label"

  /// Points are stored once, visible from their band on; geometry is stored once per band, simplified.
  public var isPoint: Bool { self == .countryLabel || self == .cityLabel }
}

/// One feature of the built-in basemap, in Web Mercator world space (x, y in [0, 1], y down).
///
/// Polygons are lists of rings (outer and holes alike: fill with the non-zero rule per feature's winding,
/// or even-odd); lines are lists of parts; points are one part of one point.
public struct BasemapFeature: Sendable, Equatable {
  public var kind: BasemapKind
  public var name: String?
  /// Label priority: larger is more important (population for cities; for countries a number from their
  /// Natural Earth rank, larger for bigger countries).
  public var rank: Double
  public var parts: [[WorldPoint]]

  public init(kind: BasemapKind, name: String? = nil, rank: Double = 0, parts: [[WorldPoint]]) {
    self.kind = kind
    self.name = name
    self.rank = rank
    self.parts = parts
  }
}

/// Zoom bands: each band keeps geometry simplified for the zooms it serves, so a map reads only what it
/// draws. Band `b` serves zooms `[lowerZoom(b), lowerZoom(b + 1))`; the last band serves everything above.
public enum BasemapBand {
  /// The first zoom of each band.
  public static let lowerZooms: [Double] = [0, 3, 5, 7, 9]

  public static var count: Int { lowerZooms.count }

  /// The band that serves a (possibly fractional) camera zoom, for a given output scale.
  public static func band(forZoom zoom: Double) -> Int {
    lowerZooms.lastIndex { $0 <= zoom } ?? 0
  }

  /// The zoom whose detail the band's geometry is simplified for (one below the next band's first zoom,
  /// plus one for scale 2 output): the simplification tolerance is half a pixel at this zoom.
  public static func detailZoom(ofBand band: Int) -> Double {
    band + 1 < count ? lowerZooms[band + 1] : 12
  }
}
