import Arguments
import Foundation
import Places

/// `--category`, `--since`, `--until`, `--month` and `--year`, shared by the commands that read many places.
/// Dates without a time zone are days and times in the user's time zone (`TZ`), as `show` prints them.
enum FilterOptions {
  static let options: [OptionSpec] = [
    .value(
      "category", valueName: "NAME", help: "Only places and tracks in this category (repeat for several).",
      repeatable: true),
    .value(
      "since", valueName: "DATE",
      help:
        "Only places saved and tracks recorded on or after this date (ISO 8601; without a zone, in TZ's time"
        + " zone)."),
    .value(
      "until", valueName: "DATE",
      help:
        "Only places saved and tracks recorded on or before this date, inclusive: a plain day (2026-11-30)"
        + " takes in all of it."),
    .value("month", valueName: "YYYY-MM", help: "Only places and tracks of this month (in TZ's time zone)."),
    .value("year", valueName: "YYYY", help: "Only places and tracks of this year (in TZ's time zone)."),
  ]

  /// The filter the options ask for; a bad date, or two ways of giving the dates at once, is a usage error.
  static func filter(_ arguments: ParsedArguments, timeZone: TimeZone = .current) throws(CLIError)
    -> LocationFilter
  {
    let dates = LocalDates(timeZone: timeZone)
    let given = ["since", "until", "month", "year"].filter { arguments.isGiven($0) }
    if given.contains("month") || given.contains("year"), given.count > 1 {
      throw .usage(
        "--\(given[0]) and --\(given[1]) cannot be used together: --month and --year each give the whole range"
      )
    }
    do throws(ArgumentError) {
      var filter = LocationFilter(
        categories: arguments.strings("category"),
        since: try arguments.value("since", as: dates.start(of:)),
        until: try arguments.value("until", as: dates.end(of:)))
      let month = try arguments.value("month", as: dates.month)
      let year = try arguments.value("year", as: dates.year)
      if let range = month ?? year {
        filter.since = range.lowerBound
        filter.until = range.upperBound
      }
      return filter
    } catch {
      throw .usage(error.description)
    }
  }

  /// What an empty selection lacked, for "nothing to draw: no places …": the categories and the dates asked
  /// for, days in the user's locale and time zone.
  static func emptySelection(_ filter: LocationFilter, locale: Locale = UserLocale.locale()) -> String {
    var text = "no places"
    if !filter.categories.isEmpty {
      text += " in " + filter.categories.map { "\"\($0)\"" }.joined(separator: " or ")
    }
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.timeZone = .current
    formatter.dateStyle = .medium
    formatter.timeStyle = .none
    switch (filter.since, filter.until) {
    case (let since?, let until?):
      text += " between \(formatter.string(from: since)) and \(formatter.string(from: until))"
    case (let since?, nil): text += " since \(formatter.string(from: since))"
    case (nil, let until?): text += " until \(formatter.string(from: until))"
    case (nil, nil): break
    }
    return text
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

/// Dates as a user types them, read in a time zone: a plain day or a time without a zone is wall-clock
/// time there; a time with `Z` or an offset is that instant.
struct LocalDates {
  let calendar: Calendar

  init(timeZone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  /// The instant `text` names; a plain day is its first moment.
  func start(of text: String) throws -> Date {
    guard let parsed = ISO8601Date.parse(text) else {
      throw InvalidValue("expected an ISO 8601 date like 2026-11-29 or 2026-11-29T10:00:00Z")
    }
    guard text.count == 10 || !parsed.hasTimeZone else { return parsed.date }
    return try local(parsed.date)
  }

  /// Like `start(of:)`, but a plain day means its last moment, so that `--until` includes it.
  func end(of text: String) throws -> Date {
    let start = try start(of: text)
    guard text.count == 10 else { return start }
    return try lastMoment(before: calendar.date(byAdding: .day, value: 1, to: start))
  }

  /// `YYYY-MM`: its first and last moments.
  func month(_ text: String) throws -> ClosedRange<Date> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]),
      let month = Int(parts[1]), (1...12).contains(month)
    else { throw InvalidValue("expected a month like 2026-11") }
    return try range(year: year, month: month, length: DateComponents(month: 1))
  }

  /// `YYYY`: its first and last moments.
  func year(_ text: String) throws -> ClosedRange<Date> {
    guard text.count == 4, let year = Int(text), year >= 1 else {
      throw InvalidValue("expected a year like 2026")
    }
    return try range(year: year, month: 1, length: DateComponents(year: 1))
  }

  private func range(year: Int, month: Int, length: DateComponents) throws -> ClosedRange<Date> {
    guard let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)) else {
      throw InvalidValue("expected a date this calendar can represent")
    }
    return start...(try lastMoment(before: calendar.date(byAdding: length, to: start)))
  }

  /// The wall-clock time that `date` shows in UTC, read in this calendar's time zone instead.
  private func local(_ date: Date) throws -> Date {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    var wall = utc.dateComponents(
      [.era, .year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
    wall.timeZone = calendar.timeZone
    guard let local = calendar.date(from: wall) else {
      throw InvalidValue("expected a date this calendar can represent")
    }
    return local
  }

  private func lastMoment(before next: Date?) throws -> Date {
    guard let next else { throw InvalidValue("expected a date this calendar can represent") }
    return next.addingTimeInterval(-0.001)
  }
}
