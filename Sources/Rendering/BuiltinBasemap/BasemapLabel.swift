import MapMath

/// A label of the built-in basemap as drawn, in image pixels (scale applied).
public struct BasemapLabel: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    case country
    case city
  }

  public var kind: Kind
  /// The text as drawn (country names upper-case; the lines of a two-line name joined by a space).
  public var text: String
  /// The text block.
  public var rect: PixelRect
  /// A city's dot, nil when none is drawn (at city zooms the name alone marks the city).
  public var dot: PixelRect?
}
