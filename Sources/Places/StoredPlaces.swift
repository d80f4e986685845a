import Foundation
import MapMath
import SQLite

/// The places a filter selects from a store, read in two steps: every coordinate when made (with the row it
/// came from), the rest of a place only when asked for. Drawing a million places as clusters then reads a
/// million coordinates and the texts of the few pins drawn alone.
///
/// Reads go through the store, one call at a time; a place deleted in between is reported as an error.
public final class StoredPlaces: AnnotationCollection, @unchecked Sendable {
  /// In the order the store keeps them (not by date: reading a million rows in date order takes an index
  /// lookup each); `inListOrder` gives the date order for the places that need one.
  public let coordinates: [Coordinate]
  private let rowids: [Int64]
  /// Unix seconds; NaN for a place without a date (listed first, as `locations(_:order:)` does).
  private let dates: [Double]
  private let store: LocationStore

  /// Rows per `IN (…)` query (well under SQLite's 32,766 parameters).
  private static let batch = 500

  init(store: LocationStore, rowids: [Int64], coordinates: [Coordinate], dates: [Double]) {
    self.store = store
    self.rowids = rowids
    self.coordinates = coordinates
    self.dates = dates
  }

  /// Oldest first, places without a date before the rest, ties in the order they were added.
  public func inListOrder(_ indices: [Int]) -> [Int] {
    indices.sorted { a, b in
      let (first, second) = (dates[a], dates[b])
      if first.isNaN != second.isNaN { return first.isNaN }
      if !first.isNaN && first != second { return first < second }
      return rowids[a] < rowids[b]
    }
  }

  /// How many places the filter selected.
  public var count: Int { coordinates.count }

  /// The dated places' dates and coordinates, oldest first (ties in the order they were added): what a
  /// route and a title's dates need, read without any text.
  public func datedInOrder() -> [(date: Date, coordinate: Coordinate)] {
    inListOrder(Array(coordinates.indices)).compactMap { index in
      dates[index].isNaN
        ? nil : (Date(timeIntervalSince1970: dates[index]), coordinates[index])
    }
  }

  public func annotations(at indices: [Int]) throws -> [any Annotation] { try locations(at: indices) }

  /// The places at `indices`, in that order.
  public func locations(at indices: [Int]) throws(LocationStoreError) -> [Location] {
    try rows(at: indices, columns: StoreSchema.columns, columnCount: 13) { LocationStore.location($0) }
  }

  public func identifiers(at indices: [Int]) throws -> [String] {
    try rows(at: indices, columns: "id", columnCount: 1) { $0.string(0) }
  }

  /// `read` of each row at `indices`, in that order; the SELECT lists `columns` and then the rowid.
  private func rows<T>(
    at indices: [Int], columns: String, columnCount: Int32, read: (SQLiteStatement) -> T
  ) throws(LocationStoreError) -> [T] {
    let wanted = indices.map { rowids[$0] }
    var found: [Int64: T] = [:]
    try store.locked { () throws in
      for start in stride(from: 0, to: wanted.count, by: StoredPlaces.batch) {
        let chunk = wanted[start..<min(start + StoredPlaces.batch, wanted.count)]
        let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
        let statement = try store.database.fresh(
          "SELECT \(columns), rowid FROM location WHERE rowid IN (\(marks))")
        defer { statement.finalize() }
        try statement.bind(chunk.map { .integer(Int($0)) })
        while try statement.step() {
          found[Int64(statement.integer(columnCount))] = read(statement)
        }
      }
    }
    return try wanted.map { rowid throws(LocationStoreError) in
      guard let value = found[rowid] else {
        throw .failed("a place was deleted from the store while the map was being drawn; draw it again")
      }
      return value
    }
  }
}

extension LocationStore {
  /// The places matching `filter` (and inside `box`, edges included, across 180° where it crosses it),
  /// with only their coordinates and dates read, in one pass over the (latitude, longitude, date) index,
  /// which holds all three and the rowid: a box reads only its latitudes' part of it.
  public func places(_ filter: LocationFilter = .init(), within box: GeoBox? = nil)
    throws(LocationStoreError) -> StoredPlaces
  {
    let query = StoreQuery(filter)
    var whereClause = query.whereClause
    var values = query.values
    if let box {
      var conditions = ["latitude BETWEEN ? AND ?"]
      values += [.real(box.south), .real(box.north)]
      if box.west > box.east {
        conditions.append("(longitude >= ? OR longitude <= ?)")
        values += [.real(box.west), .real(box.east)]
      } else if box.west > -180 || box.east < 180 {
        conditions.append("longitude BETWEEN ? AND ?")
        values += [.real(box.west), .real(box.east)]
      }
      whereClause += (whereClause.isEmpty ? " WHERE " : " AND ") + conditions.joined(separator: " AND ")
    }
    var rowids: [Int64] = []
    var coordinates: [Coordinate] = []
    var dates: [Double] = []
    try locked { () throws in
      let statement = try database.fresh(
        "SELECT rowid, latitude, longitude, date FROM location" + whereClause)
      defer { statement.finalize() }
      try statement.bind(values)
      while try statement.step() {
        rowids.append(Int64(statement.integer(0)))
        coordinates.append(Coordinate(latitude: statement.double(1), longitude: statement.double(2)))
        dates.append(statement.isNull(3) ? .nan : statement.double(3))
      }
    }
    return StoredPlaces(store: self, rowids: rowids, coordinates: coordinates, dates: dates)
  }
}
