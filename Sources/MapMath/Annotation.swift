/// Anything that can be fitted and drawn on a map: a coordinate, a title and a subtitle.
///
/// The seed app's protocol idea: the region code and the drawing code work on annotations, never on the
/// concrete saved place.
public protocol Annotation {
  /// A stable identifier, used in the layout output.
  var identifier: String { get }
  var coordinate: Coordinate { get }
  var title: String { get }
  var subtitle: String? { get }
}

/// A plain annotation value, handy for tests and for callers without a model type of their own.
public struct PointAnnotation: Annotation, Hashable, Sendable {
  public var identifier: String
  public var coordinate: Coordinate
  public var title: String
  public var subtitle: String?

  public init(identifier: String, coordinate: Coordinate, title: String, subtitle: String? = nil) {
    self.identifier = identifier
    self.coordinate = coordinate
    self.title = title
    self.subtitle = subtitle
  }
}
