import MapMath

/// What a locations file holds: the places, the user's position if given, and what was odd but not fatal.
public struct LocationSet: Hashable, Sendable {
  public var locations: [Location]
  public var user: UserPosition?
  /// One line each, naming the record (`location 3: unknown category "Cafe" (kept; …)`); not saved.
  public var warnings: [String]

  public init(locations: [Location] = [], user: UserPosition? = nil, warnings: [String] = []) {
    self.locations = locations
    self.user = user
    self.warnings = warnings
  }
}
