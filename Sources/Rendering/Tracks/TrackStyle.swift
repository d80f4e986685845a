/// Tracks and routes: a cased line (a wider casing under a narrower line, so the line reads on any map),
/// drawn under the pins. The default is a deep magenta on white, clear of the green pins, the blue user
/// dot and the blues of water; the route through the places is a thinner indigo with white chevrons.
public struct TrackStyle: Hashable, Sendable {
  public var color = Color(red: 0.78, green: 0.13, blue: 0.50)
  public var width = 3.5
  public var casingColor = Color(red: 1, green: 1, blue: 1, alpha: 0.9)
  /// How far the casing shows on each side of the line, in points.
  public var casingWidth = 1.5
  public var routeColor = Color(red: 0.25, green: 0.28, blue: 0.75)
  public var routeWidth = 3.0
  /// The chevrons along a route, and the gap between them in points.
  public var chevronColor = Color(red: 1, green: 1, blue: 1, alpha: 0.95)
  public var chevronSpacing = 48.0

  public init() {}
}
