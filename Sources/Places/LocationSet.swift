import MapMath

/// What a locations file holds: the places, the tracks and routes, the user's position if given, and what
/// was odd but not fatal.
public struct LocationSet: Hashable, Sendable {
  public var locations: [Location]
  /// GPX tracks and routes, GeoJSON lines, mymap JSON's `tracks`, in file order (ids unique in the set).
  public var tracks: [Track] = []
  public var user: UserPosition?
  /// One line each, naming the record (`location 3: unknown category "Cafe" (kept; …)`); not saved.
  public var warnings: [String]
  /// The ids the file gave; every other place got a derived id (`Location.derivedID`), so an importer can
  /// tell a place the file names from one it only describes. Every reader sets it.
  ///
  /// A set of ids rather than flags parallel to `locations`, so that it stays right when `locations` is
  /// filtered or sorted (ids are unique within a set, and a derived id never equals a given one);
  /// `idsGiven` is the parallel view.
  public var givenIDs: Set<String>

  /// `givenIDs` nil: every place's id counts as given (a set built in code, or read from a store, names
  /// its places).
  public init(
    locations: [Location] = [], user: UserPosition? = nil, warnings: [String] = [],
    givenIDs: Set<String>? = nil, tracks: [Track] = []
  ) {
    self.locations = locations
    self.tracks = tracks
    self.user = user
    self.warnings = warnings
    self.givenIDs = givenIDs ?? Set(locations.map(\.id))
  }

  /// For each place in `locations`, in order, whether the file gave its id (false for a derived id).
  public var idsGiven: [Bool] { locations.map { givenIDs.contains($0.id) } }
}
