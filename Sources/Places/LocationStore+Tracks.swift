import Foundation
import SQLite

/// A stored track or route without its points: what `mymap tracks` lists.
public struct TrackSummary: Hashable, Sendable {
  public var id: String
  public var name: String
  public var kind: Track.Kind
  public var category: String
  public var pointCount: Int
  public var lengthMeters: Double
  /// The earliest and latest point times; nil without times.
  public var start: Date?
  public var end: Date?

  /// The title a list shows: the name, else `(No Name)`.
  public var title: String { name.isEmpty ? "(No Name)" : name }
}

// MARK: - Tracks and routes

extension LocationStore {
  static let trackSummaryColumns =
    "id, name, kind, category, point_count, length_meters, start_date, end_date"

  /// Adds a file's places and tracks in one transaction: all that are new, or (on any error) none. Places
  /// as `importLocations`; a track whose id the store has is a duplicate (a file without ids gives each
  /// track an id derived from its content, so importing it again adds nothing).
  public func importSet(_ set: LocationSet, dryRun: Bool) throws(LocationStoreError) -> ImportSummary {
    try Self.checkForImport(set.locations, idsWereGiven: set.idsGiven)
    for (index, track) in set.tracks.enumerated() {
      do throws(LocationStoreError) {
        try Self.check(track)
      } catch {
        throw LocationStoreError.invalidPlace("track \(index + 1): \(error.description)")
      }
    }
    return try writing(commit: !dryRun) { () throws in
      var summary = try insertLocations(set.locations, idsWereGiven: set.idsGiven, dryRun: dryRun)
      for track in set.tracks {
        if try insert(track) { summary.tracksAdded += 1 } else { summary.trackDuplicates += 1 }
      }
      return summary
    }
  }

  /// Stores a new track; `duplicateID` when its id is taken.
  public func add(_ track: Track) throws(LocationStoreError) {
    try Self.check(track)
    try writing { () throws in
      if try !insert(track) { throw LocationStoreError.duplicateID(track.id) }
    }
  }

  /// Inserts inside the caller's transaction; false when the id is taken.
  func insert(_ track: Track) throws -> Bool {
    let statement = try database.cached(
      "INSERT INTO track (id, name, kind, category, description, start_date, end_date, point_count,"
        + " length_meters, points) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (id) DO NOTHING"
    )
    defer { statement.reset() }
    let span = track.timeSpan
    try statement.bind([
      .text(track.id), .text(track.name), .text(track.kind.rawValue), .text(track.category),
      .text(track.trackDescription), .real(span?.lowerBound.timeIntervalSince1970),
      .real(span?.upperBound.timeIntervalSince1970), .integer(Int64(track.pointCount)),
      .real(track.lengthMeters), .blob(TrackPointsBlob.encode(track.segments)),
    ])
    try statement.run()
    return database.changes > 0
  }

  /// The matching tracks and routes with their points, oldest first (those without times first, in the
  /// order they were added). A track is in a date range when its time span overlaps it; one without times
  /// is outside every range, like a place without a date.
  public func tracks(_ filter: LocationFilter = .init()) throws(LocationStoreError) -> [Track] {
    var result: [Track] = []
    do {
      try forEachTrack(filter) { result.append($0) }
    } catch let error as LocationStoreError {
      throw error
    } catch {
      throw LocationStoreError.failed("\(error)")  // Not reached: the body above throws nothing.
    }
    return result
  }

  /// Calls `body` with each matching track (of `kind`, or of both kinds when nil) in the order of
  /// `tracks(_:)`, reading one at a time, so that only one track's points are in memory at once. An error
  /// `body` throws ends the walk and is rethrown as it is; store failures are `LocationStoreError`s.
  public func forEachTrack(
    _ filter: LocationFilter = .init(), kind: Track.Kind? = nil, _ body: (Track) throws -> Void
  ) throws {
    let query = StoreQuery(filter, sinceColumn: "end_date", untilColumn: "start_date")
    var whereClause = query.whereClause
    var values = query.values
    if let kind {
      whereClause += (whereClause.isEmpty ? " WHERE " : " AND ") + "kind = ?"
      values.append(.text(kind.rawValue))
    }
    try eachRow(
      "SELECT id, name, kind, category, description, points FROM track" + whereClause
        + " ORDER BY start_date, rowid", values
    ) { row in
      let id = row.string(0)
      guard let segments = TrackPointsBlob.decode(row.blob(5)) else {
        throw LocationStoreError.failed("the points of track '\(id)' are damaged")
      }
      try body(
        Track(
          id: id, name: row.string(1), kind: Track.Kind(rawValue: row.string(2)) ?? .track,
          category: row.string(3), trackDescription: row.string(4), segments: segments))
    }
  }

  /// The matching tracks without their points, in the order of `tracks(_:)`.
  public func trackSummaries(_ filter: LocationFilter = .init()) throws(LocationStoreError) -> [TrackSummary]
  {
    let query = StoreQuery(filter, sinceColumn: "end_date", untilColumn: "start_date")
    return try locked { () throws in
      let statement = try database.fresh(
        "SELECT \(Self.trackSummaryColumns) FROM track" + query.whereClause + " ORDER BY start_date, rowid")
      defer { statement.finalize() }
      try statement.bind(query.values)
      var result: [TrackSummary] = []
      while try statement.step() { result.append(Self.trackSummary(statement)) }
      return result
    }
  }

  /// The track with this id, else the one track whose id starts with it (at least 4 characters); nil when
  /// there is none. `invalidPlace` when several start with it.
  public func resolveTrack(idOrPrefix: String) throws(LocationStoreError) -> TrackSummary? {
    try locked { () throws in
      let statement = try database.cached(
        "SELECT \(Self.trackSummaryColumns) FROM track WHERE id = ?1 OR (length(?1) >= 4 AND id GLOB ?2)"
          + " ORDER BY id = ?1 DESC, id LIMIT 3")
      defer { statement.reset() }
      try statement.bind([.text(idOrPrefix), .text(Self.globEscapedPrefix(idOrPrefix) + "*")])
      var matches: [TrackSummary] = []
      while try statement.step() { matches.append(Self.trackSummary(statement)) }
      guard let first = matches.first else { return nil }
      guard first.id != idOrPrefix, matches.count > 1 else { return first }
      throw LocationStoreError.invalidPlace(
        "the id '\(idOrPrefix)' is ambiguous: several tracks start with it; give more of the id")
    }
  }

  /// Deletes places and tracks by id in one transaction (all or nothing) and returns how many of each.
  public func delete(placeIDs: [String], trackIDs: [String]) throws(LocationStoreError) -> (
    places: Int, tracks: Int
  ) {
    var seen = Set<String>()
    let places = placeIDs.filter { seen.insert("p" + $0).inserted }
    let tracks = trackIDs.filter { seen.insert("t" + $0).inserted }
    return try writing { () throws in
      for (sql, ids) in [
        ("DELETE FROM location WHERE id = ?", places), ("DELETE FROM track WHERE id = ?", tracks),
      ] {
        let statement = try database.cached(sql)
        for id in ids {
          statement.reset()
          try statement.bind([.text(id)])
          try statement.run()
          if database.changes == 0 { throw LocationStoreError.unknownID(id) }
        }
        statement.reset()
      }
      return (places.count, tracks.count)
    }
  }

  /// Throws `invalidPlace` for a track the table cannot hold.
  static func check(_ track: Track) throws(LocationStoreError) {
    func problem(_ text: String) -> LocationStoreError { .invalidPlace("track '\(track.id)': \(text)") }
    guard !track.id.isEmpty else {
      throw LocationStoreError.invalidPlace("a track needs an id; this one has an empty id")
    }
    let count = track.pointCount
    guard count > 0 else { throw problem("it has no points") }
    guard count <= InputLimits.maximumTrackPoints else {
      throw problem("it has \(count) points; the most a track may have is \(InputLimits.maximumTrackPoints)")
    }
    for text in [track.id, track.name, track.category, track.trackDescription]
    where text.utf8.count > InputLimits.maximumTextBytes {
      throw problem("a text field is longer than \(InputLimits.maximumTextBytes) bytes")
    }
    for point in track.points {
      guard point.coordinate.isValid else {
        throw problem("the point \(point.latitude),\(point.longitude) is not a valid coordinate")
      }
      if let time = point.time, !ISO8601Date.isRepresentable(time) {
        throw problem("a point's time is outside the years -9999…9999")
      }
    }
  }

  private static func trackSummary(_ row: SQLiteStatement) -> TrackSummary {
    TrackSummary(
      id: row.string(0), name: row.string(1), kind: Track.Kind(rawValue: row.string(2)) ?? .track,
      category: row.string(3), pointCount: row.integer(4), lengthMeters: row.double(5),
      start: row.optionalDouble(6).map { Date(timeIntervalSince1970: $0) },
      end: row.optionalDouble(7).map { Date(timeIntervalSince1970: $0) })
  }

  /// `text` with GLOB's wildcards in brackets, so that it matches itself.
  private static func globEscapedPrefix(_ text: String) -> String {
    text.map { "*?[".contains($0) ? "[\($0)]" : String($0) }.joined()
  }
}
