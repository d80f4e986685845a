import Foundation
import SQLite

/// Which stored places to read.
///
/// Categories compare without regard to case (`park` finds `Park`); an empty list means every category.
/// `since` and `until` are inclusive; a place without a date is outside any date range, so it is found
/// only when neither is set.
public struct LocationFilter: Equatable, Sendable {
  public var categories: [String]
  public var since: Date?
  public var until: Date?

  public init(categories: [String] = [], since: Date? = nil, until: Date? = nil) {
    self.categories = categories
    self.since = since
    self.until = until
  }
}

/// The order places are read in. Places with no date come before dated ones (SQLite sorts NULL first,
/// which lets the date indexes give the order without a sort); places with the same date keep the order
/// they were added in.
public enum LocationOrder: Sendable {
  /// Oldest first.
  case dateAscending
  /// The seed's list: sections by category name (without regard to ASCII case, so `bar` and `Bar` are
  /// one section), oldest first inside each.
  case categoryThenDate
}

/// What an import did (or, for a dry run, would do).
public struct ImportSummary: Equatable, Sendable {
  /// Places stored.
  public var added: Int
  /// Places skipped because the store already had them (or an earlier place of the same import).
  public var duplicates: Int
  /// Tracks and routes stored.
  public var tracksAdded = 0
  /// Tracks and routes skipped because the store already had one with the same id.
  public var trackDuplicates = 0

  public init(added: Int, duplicates: Int, tracksAdded: Int = 0, trackDuplicates: Int = 0) {
    self.added = added
    self.duplicates = duplicates
    self.tracksAdded = tracksAdded
    self.trackDuplicates = trackDuplicates
  }
}

/// A filter and order as SQL: a WHERE clause with its parameter values, and an ORDER BY clause.
struct StoreQuery {
  var whereClause = ""
  var values: [SQLiteValue] = []
  var orderClause = ""

  /// `since` compares with `sinceColumn` and `until` with `untilColumn` (a track's end and start: a time
  /// span overlaps the range).
  init(
    _ filter: LocationFilter, order: LocationOrder? = nil, sinceColumn: String = "date",
    untilColumn: String = "date"
  ) {
    var conditions: [String] = []
    var seen = Set<String>()
    let categories = filter.categories.filter { seen.insert($0.lowercased()).inserted }
    if !categories.isEmpty {
      let marks = Array(repeating: "?", count: categories.count).joined(separator: ", ")
      if categories.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) {
        // The column is COLLATE NOCASE: the comparison ignores ASCII case and uses the category index.
        conditions.append("category IN (\(marks))")
        values += categories.map { .text($0) }
      } else {
        // NOCASE would not fold É and é: fold in Swift (slower, no index, but right).
        conditions.append("mymap_casefold(category) IN (\(marks))")
        values += categories.map { .text($0.lowercased()) }
      }
    }
    if let since = filter.since {
      conditions.append("\(sinceColumn) >= ?")
      values.append(.real(since.timeIntervalSince1970))
    }
    if let until = filter.until {
      conditions.append("\(untilColumn) <= ?")
      values.append(.real(until.timeIntervalSince1970))
    }
    if !conditions.isEmpty {
      whereClause = " WHERE " + conditions.joined(separator: " AND ")
    }
    switch order {
    case .dateAscending: orderClause = " ORDER BY date, rowid"
    case .categoryThenDate: orderClause = " ORDER BY category, date, rowid"
    case nil: break
    }
  }
}
