/// How the places are named on the map.
public enum PlaceLabels: String, CaseIterable, Sendable {
  /// A callout at every place; a place whose callout does not fit keeps its pin, unnamed (as before).
  case callouts
  /// A number in every pin head, in the order of the request's annotations, and a legend naming them.
  case numbers
  /// Callouts where they fit; the places whose callouts do not fit are numbered and named in the legend.
  case auto
}

/// Units of the scale bar.
public enum ScaleBarUnits: String, CaseIterable, Sendable {
  /// Metres and kilometres.
  case metric
  /// Feet and miles.
  case imperial
}

/// The plate at the top of the map: a title in bold and an optional subtitle below it, as the caller has
/// written them (any placeholders already filled).
public struct MapTitle: Hashable, Sendable {
  public var title: String
  public var subtitle: String?

  public init(title: String, subtitle: String? = nil) {
    self.title = title
    self.subtitle = subtitle
  }
}
