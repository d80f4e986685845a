import MapMath

/// Read access to the built-in basemap's data, as the renderer needs it.
///
/// The real implementation reads the committed SQLite data file (`BasemapData`); tests may supply their own.
public protocol BasemapSource: Sendable {
  /// Attribution to draw (Natural Earth is public domain; GeoNames asks for credit).
  var attribution: String { get }
  /// The features of one kind for one band whose bounding boxes meet the world-space window
  /// (`minimum`…`maximum`, x inside [0, 1] here: callers split windows that cross the world's edge).
  /// Point kinds return every point of bands ≤ `band`.
  func features(_ kind: BasemapKind, band: Int, from minimum: WorldPoint, to maximum: WorldPoint) throws
    -> [BasemapFeature]
}
