import Arguments
import Foundation
import Places

/// `--category`, `--since` and `--until`, shared by the commands that read many places.
enum FilterOptions {
  static let options: [OptionSpec] = [
    .value(
      "category", valueName: "NAME", help: "Only places in this category (repeat for several).",
      repeatable: true),
    .value("since", valueName: "DATE", help: "Only places saved on or after this ISO 8601 date."),
    .value("until", valueName: "DATE", help: "Only places saved on or before this ISO 8601 date."),
  ]

  /// The filter the options ask for; a bad date is a usage error.
  static func filter(_ arguments: ParsedArguments) throws(CLIError) -> LocationFilter {
    do {
      return LocationFilter(
        categories: arguments.strings("category"),
        since: try arguments.value("since", as: ValueParsers.date),
        until: try arguments.value("until", as: ValueParsers.endOfDate))
    } catch {
      throw .usage(error.description)
    }
  }
}

extension LocationFilter {
  /// The store's filter rules applied to places read from a file: categories match case-insensitively,
  /// dates inclusively, and a place without a date is outside any date range.
  func includes(_ place: Location) -> Bool {
    if !categories.isEmpty && !categories.contains(where: { $0.lowercased() == place.category.lowercased() })
    {
      return false
    }
    if let since, (place.date ?? .distantPast) < since { return false }
    if let until, (place.date ?? .distantFuture) > until { return false }
    return true
  }
}
