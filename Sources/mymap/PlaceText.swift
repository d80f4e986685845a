import Foundation
import Places

/// The app's screens as text: rows of the Locations list (title and short address) and the detail view
/// (`%.8f` coordinates, full address, medium date and short time).
enum PlaceText {
  /// One place in the list: its short id and title, and its short address under the title, as in the
  /// app's cell. The list itself is these rows under a line per category (sorted by the store).
  /// `shownID` replaces the short id (the list shows a whole id when its start names several places).
  static func row(_ place: Location, shownID: String? = nil) -> String {
    let id = shownID ?? shortID(place.id)
    return "  \(id)  \(place.title)\n  \(String(repeating: " ", count: id.count))  \(place.shortAddress)\n"
  }

  /// The detail view of one place.
  static func detail(_ place: Location, dates: DateFormatter) -> String {
    var rows: [(String, String)] = [
      ("Description", place.locationDescription.isEmpty ? "(No Description)" : place.locationDescription),
      ("Category", place.category),
      ("Latitude", FixedPointText.string(place.latitude, digits: 8)),
      ("Longitude", FixedPointText.string(place.longitude, digits: 8)),
      ("Address", place.fullAddress),
      ("Date", place.date.map(dates.string(from:)) ?? "(no date)"),
    ]
    if let photo = place.photoPath { rows.append(("Photo", photo)) }
    rows.append(("ID", place.id))
    let width = rows.map(\.0.count).max()! + 1
    return rows.map { ($0.0 + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n") + "\n"
  }

  /// The first 8 characters of an id: enough to name a place (the store resolves unique prefixes).
  static func shortID(_ id: String) -> String {
    String(id.prefix(8))
  }
}
