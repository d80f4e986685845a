/// A vertex in tile coordinates: x to the right, y downward, 0…extent across the tile (geometry may
/// reach past the edges into the tile's buffer).
public struct VectorTilePoint: Hashable, Sendable, CustomStringConvertible {
  public var x: Int32
  public var y: Int32

  public init(x: Int32, y: Int32) {
    self.x = x
    self.y = y
  }

  public var description: String { "(\(x), \(y))" }
}

/// The three geometry types a feature can have. Features of the spec's UNKNOWN type (0) or of any
/// other number are skipped while decoding.
public enum VectorTileGeometryType: Int, Sendable, CustomStringConvertible {
  case point = 1
  case lineString = 2
  case polygon = 3

  public var description: String {
    switch self {
    case .point: return "point"
    case .lineString: return "linestring"
    case .polygon: return "polygon"
    }
  }
}

/// A feature's geometry, viewed in place in its layer's vertex storage (nothing is copied).
///
/// - Point features: one part holding every point (a multipoint has several).
/// - LineString features: one part per line, each with at least two vertices.
/// - Polygon features: one part per ring, rings grouped into `polygons`: the exterior ring first (positive
///   area in tile coordinates, clockwise on screen), then its holes. Rings are open: the first vertex is
///   not repeated at the end. Rings of zero area, and holes before any exterior, were dropped.
public struct VectorTileGeometry: Sendable {
  public let type: VectorTileGeometryType
  let storage: VectorTileLayerStorage
  let partRange: Range<Int>
  let polygonRange: Range<Int>

  /// Every vertex of the feature, part after part.
  public var points: ArraySlice<VectorTilePoint> {
    storage.points[storage.partStart(partRange.lowerBound)..<storage.partStart(partRange.upperBound)]
  }

  /// The lines (or rings, or the one group of points) in the order the tile gives them.
  public var parts: VectorTileParts { VectorTileParts(storage: storage, range: partRange) }

  /// For polygon features, each polygon's rings (exterior first); empty for other types.
  public var polygons: VectorTilePolygons { VectorTilePolygons(storage: storage, range: polygonRange) }
}

/// Consecutive parts (lines or rings) of one feature, each a slice of the layer's vertices.
public struct VectorTileParts: RandomAccessCollection, Sendable {
  let storage: VectorTileLayerStorage
  let range: Range<Int>

  public var startIndex: Int { 0 }
  public var endIndex: Int { range.count }

  public subscript(position: Int) -> ArraySlice<VectorTilePoint> {
    let part = range.lowerBound + position
    return storage.points[storage.partStart(part)..<storage.partEnds[part]]
  }
}

/// The polygons of one polygon feature: each is its rings, exterior first, then holes.
public struct VectorTilePolygons: RandomAccessCollection, Sendable {
  let storage: VectorTileLayerStorage
  let range: Range<Int>

  public var startIndex: Int { 0 }
  public var endIndex: Int { range.count }

  public subscript(position: Int) -> VectorTileParts {
    let polygon = range.lowerBound + position
    let first = polygon == 0 ? 0 : storage.polygonEnds[polygon - 1]
    return VectorTileParts(storage: storage, range: first..<storage.polygonEnds[polygon])
  }
}
