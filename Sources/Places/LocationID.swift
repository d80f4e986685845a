import Foundation

extension Location {
  /// The id of a place that has none of its own: `loc-` and 16 hex digits of a hash of its coordinate,
  /// description and date, so the same file gives the same ids on every run and machine.
  ///
  /// The category is left out on purpose: changing a place's category keeps its id.
  public static func derivedID(
    latitude: Double, longitude: Double, locationDescription: String, date: Date?
  ) -> String {
    derivedID(
      latitude: latitude, longitude: longitude, locationDescription: locationDescription,
      dateSeconds: date?.timeIntervalSince1970)
  }

  /// `derivedID` with the date as the store keeps it, Unix seconds (a `Date` made from them again may
  /// differ in the last bit).
  static func derivedID(
    latitude: Double, longitude: Double, locationDescription: String, dateSeconds: Double?
  ) -> String {
    // The hash of the text `latitude|longitude|description|date`, each number as Swift writes it, taken
    // piece by piece: a million-row import made and dropped a million joined texts. Adding 0 turns -0.0
    // into 0.0, which would otherwise hash differently for the same place.
    var hash = FNV1a64()
    hash.add((latitude + 0).description)
    hash.add("|")
    hash.add((longitude + 0).description)
    hash.add("|")
    hash.add(locationDescription)
    hash.add("|")
    if let dateSeconds { hash.add(dateSeconds.description) }
    return FNV1a64.id(prefix: "loc-", hash.value)
  }
}

/// Makes the ids of one file unique: a repeated id from the file is an error (the file is ambiguous), a
/// repeated derived id (the same place saved twice) gets `-2`, `-3`… in file order.
struct IDAssigner {
  private var owners: [String: String] = [:]
  private var derived: [(index: Int, record: String)] = []
  /// The last suffix given to each derived id, so that the next copy of the same place starts probing
  /// there: many identical rows cost linear time, not quadratic. `owners` only grows, so no smaller
  /// suffix can have become free, and the ids are the ones a probe from `-2` would find.
  private var lastSuffix: [String: Int] = [:]

  /// Registers a place read from `record`; returns the record that already uses its explicit id, if any.
  mutating func register(
    _ location: Location, explicit: Bool, index: Int, record: String
  ) -> String? {
    register(id: location.id, explicit: explicit, index: index, record: record)
  }

  /// Registers a place's `id` (given or derived) read from `record`; returns the record that already
  /// uses it, if it is explicit and taken.
  mutating func register(id: String, explicit: Bool, index: Int, record: String) -> String? {
    guard explicit else {
      derived.append((index, record))
      return nil
    }
    if let owner = owners[id] { return owner }
    owners[id] = record
    return nil
  }

  /// Gives the derived ids their final, unique values (after every explicit id is known).
  mutating func finish(_ locations: inout [Location]) {
    finish(id: { locations[$0].id }, assign: { locations[$0].id = $1 })
  }

  /// `finish` for places kept as their ids alone (`FilePlaces`).
  mutating func finish(_ ids: inout [String]) {
    finish(id: { ids[$0] }, assign: { ids[$0] = $1 })
  }

  private mutating func finish(id: (Int) -> String, assign: (Int, String) -> Void) {
    for (index, record) in derived {
      let base = id(index)
      var candidate = base
      var counter = lastSuffix[base] ?? 1
      if counter > 1 { candidate = "\(base)-\(counter)" }
      while owners[candidate] != nil {
        counter += 1
        candidate = "\(base)-\(counter)"
      }
      // Only repeats need it: a million distinct places would otherwise fill a second dictionary.
      if counter > 1 { lastSuffix[base] = counter }
      owners[candidate] = record
      assign(index, candidate)
    }
  }
}
