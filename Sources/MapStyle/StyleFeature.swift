/// The geometry kinds a style can tell apart. Multi-geometries count as their single kind, as in
/// MapLibre: a vector tile feature of several lines is a `lineString`.
public enum StyleGeometryType: String, Hashable, Sendable {
  case point = "Point"
  case lineString = "LineString"
  case polygon = "Polygon"
}

/// A map feature as a style sees it: what `geometry-type`, `id`, `get` and `has` read.
///
/// Conform a tile decoder's feature type to this; evaluation calls `property(_:)` once for each
/// property an expression reads, so it should be a cheap lookup.
public protocol StyleFeature {
  var geometryType: StyleGeometryType { get }
  /// The feature's id; nil when it has none.
  var id: StyleValue? { get }
  /// The property named `key`, or nil when the feature does not have it.
  func property(_ key: String) -> StyleValue?
}

extension StyleFeature {
  /// Features have no id unless the conforming type says so.
  public var id: StyleValue? { nil }
}
