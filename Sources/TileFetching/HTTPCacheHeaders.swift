import Foundation
import Tiles

/// Reading a tile's freshness from HTTP response headers (RFC 9111, as a private cache), as the
/// OpenStreetMap tile usage policy asks: honour `Cache-Control` and `Expires`, keep tiles 7 days when the
/// server says nothing, and revalidate with `ETag` / `Last-Modified` instead of downloading again.
extension TileFreshness {
  /// The longest a tile counts as fresh, whatever the server says.
  public static let maximumLifetime: TimeInterval = 365 * 86_400

  /// How long a tile counts as fresh when the response has neither `Cache-Control: max-age` nor `Expires`:
  /// the OpenStreetMap tile usage policy asks clients to keep tiles at least 7 days.
  public static let defaultLifetime: TimeInterval = 7 * 86_400

  /// The freshness of a response received at `now`. Header names are case-insensitive.
  ///
  /// - `Cache-Control: no-store` or `no-cache`: expires at `now` (the tile may be used this time, but must
  ///   be revalidated before it is used again).
  /// - `Cache-Control: max-age=N`: `now + N − Age`; it wins over `Expires`. An invalid max-age means stale.
  /// - `Expires`: relative to the response's `Date` when it has a readable one (`now + (Expires − Date) −
  ///   Age`, so that a server clock that is off does not matter), else absolute. An unreadable `Expires`
  ///   (such as `0`) means already expired.
  /// - Neither: `now + defaultLifetime`.
  ///
  /// The lifetime is never negative and never longer than `maximumLifetime`. `ETag` (weak ones included)
  /// and `Last-Modified` are kept verbatim, for `If-None-Match` and `If-Modified-Since`.
  public init(
    responseHeaders: [String: String], now: Date,
    defaultLifetime: TimeInterval = TileFreshness.defaultLifetime
  ) {
    let headers = HeaderFields(responseHeaders)
    self.init(
      etag: headers.validator("etag"), lastModified: headers.validator("last-modified"),
      expires: now.addingTimeInterval(Self.lifetime(headers, defaultLifetime: defaultLifetime, now: now)),
      fetched: now)
  }

  /// The record after the server answered a revalidation with 304 Not Modified at `now`.
  ///
  /// The expiry is computed afresh from the 304's headers (a server must send on a 304 the
  /// `Cache-Control` and `Expires` it would send on a 200, RFC 9110 §15.4.5, so a 304 without them gets
  /// `defaultLifetime`). The validators the 304 carries replace the stored ones; those it does not carry
  /// are kept.
  public func merged(
    withNotModified headers: [String: String], now: Date,
    defaultLifetime: TimeInterval = TileFreshness.defaultLifetime
  ) -> TileFreshness {
    let update = TileFreshness(responseHeaders: headers, now: now, defaultLifetime: defaultLifetime)
    return TileFreshness(
      etag: update.etag ?? etag, lastModified: update.lastModified ?? lastModified, expires: update.expires,
      fetched: now)
  }

  /// An HTTP date (RFC 9110 §5.6.7) in any of its three formats: IMF-fixdate
  /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
  /// (`Sun Nov  6 08:49:37 1994`); nil for anything else. A two-digit year more than 50 years in the future
  /// is taken as the latest past year with those digits.
  public static func parseHTTPDate(_ text: String) -> Date? {
    guard text.allSatisfy(\.isASCII) else { return nil }
    let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    let day: Int
    let month: Int
    let year: Int
    let clock: String
    switch tokens.count {
    case 6:  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
      guard tokens[0].hasSuffix(","), shortWeekdays.contains(tokens[0].dropLast().lowercased()),
        isGMT(tokens[5]), let parsedDay = number(tokens[1], digits: 1...2),
        let parsedMonth = monthNumber(tokens[2]), let parsedYear = number(tokens[3], digits: 4...4)
      else { return nil }
      (day, month, year, clock) = (parsedDay, parsedMonth, parsedYear, tokens[4])
    case 4:  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
      let parts = tokens[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      guard tokens[0].hasSuffix(","), longWeekdays.contains(tokens[0].dropLast().lowercased()),
        isGMT(tokens[3]), parts.count == 3, let parsedDay = number(parts[0], digits: 1...2),
        let parsedMonth = monthNumber(parts[1]), let parsedYear = number(parts[2], digits: 2...4),
        parts[2].count != 3
      else { return nil }
      (day, month, clock) = (parsedDay, parsedMonth, tokens[2])
      year = parts[2].count == 2 ? fullYear(twoDigits: parsedYear) : parsedYear
    case 5:  // asctime: Sun Nov  6 08:49:37 1994
      guard shortWeekdays.contains(tokens[0].lowercased()), let parsedMonth = monthNumber(tokens[1]),
        let parsedDay = number(tokens[2], digits: 1...2), let parsedYear = number(tokens[4], digits: 4...4)
      else { return nil }
      (day, month, year, clock) = (parsedDay, parsedMonth, parsedYear, tokens[3])
    default:
      return nil
    }
    let time = clock.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard time.count == 3, let hour = number(time[0], digits: 2...2),
      let minute = number(time[1], digits: 2...2),
      let second = number(time[2], digits: 2...2), hour < 24, minute < 60, second <= 60,
      day >= 1, day <= daysIn(month: month, year: year)
    else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
  }

  // MARK: Rules

  private static func lifetime(_ headers: HeaderFields, defaultLifetime: TimeInterval, now: Date)
    -> TimeInterval
  {
    let directives = cacheControl(headers["cache-control"] ?? "")
    // The most restrictive directive wins (RFC 9111 §4.2.1): no-store and no-cache beat max-age.
    if directives.contains(where: { $0.name == "no-store" || $0.name == "no-cache" }) { return 0 }
    // A list-valued or invalid Age is read as its first member, or ignored (RFC 9111 §5.1).
    let age = headers["age"].flatMap { deltaSeconds(String($0.prefix { $0 != "," })) } ?? 0
    if let maxAge = directives.first(where: { $0.name == "max-age" }) {
      // Invalid freshness information makes the response stale (RFC 9111 §4.2.1).
      guard let seconds = maxAge.value.flatMap(deltaSeconds) else { return 0 }
      return clamp(seconds - age)
    }
    if let expiresText = headers["expires"] {
      guard let expires = parseHTTPDate(expiresText.trimmingCharacters(in: .whitespaces)) else { return 0 }
      if let date = headers["date"].flatMap({ parseHTTPDate($0.trimmingCharacters(in: .whitespaces)) }) {
        // Both dates come from the server's clock, so their difference survives a skewed clock. The
        // response may have waited `Age` seconds in a cache (a CDN) since `Date`: that part is used up.
        return clamp(expires.timeIntervalSince(date) - age)
      }
      return clamp(expires.timeIntervalSince(now))
    }
    return clamp(defaultLifetime)
  }

  private static func clamp(_ lifetime: TimeInterval) -> TimeInterval {
    lifetime.isNaN ? 0 : min(max(0, lifetime), maximumLifetime)
  }

  /// delta-seconds: one or more digits; values beyond 2^31 count as 2^31 (RFC 9111 §1.2.2).
  private static func deltaSeconds(_ text: String) -> TimeInterval? {
    let digits = text.trimmingCharacters(in: .whitespaces)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return min(Double(digits) ?? 2_147_483_648, 2_147_483_648)
  }

  /// The directives of a `Cache-Control` value: names lowercased, values unquoted.
  private static func cacheControl(_ value: String) -> [(name: String, value: String?)] {
    var items: [String] = []
    var current = ""
    var quoted = false
    var escaped = false
    for character in value {
      if escaped {
        escaped = false
      } else if quoted, character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
      } else if character == ",", !quoted {
        items.append(current)
        current = ""
        continue
      }
      current.append(character)
    }
    items.append(current)
    return items.compactMap { item in
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
      guard !name.isEmpty else { return nil }
      guard parts.count == 2 else { return (name, nil) }
      var value = parts[1].trimmingCharacters(in: .whitespaces)
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
      }
      return (name, value)
    }
  }

  // MARK: Dates

  private static let shortWeekdays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let longWeekdays: Set<String> = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]
  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  private static func monthNumber(_ name: String) -> Int? {
    months.firstIndex(of: name.lowercased()).map { $0 + 1 }
  }

  private static func isGMT(_ zone: String) -> Bool { zone == "GMT" || zone == "UTC" }

  /// A decimal number of `digits` ASCII digits.
  private static func number(_ text: String, digits: ClosedRange<Int>) -> Int? {
    guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    return Int(text)
  }

  /// RFC 9110 §5.6.7: a two-digit year that would be more than 50 years in the future is in the past.
  private static func fullYear(twoDigits: Int) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
    let thisYear = calendar.component(.year, from: Date())
    let year = thisYear - thisYear % 100 + twoDigits
    return year > thisYear + 50 ? year - 100 : year
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
  private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// Response header fields looked up by name, case-insensitively.
private struct HeaderFields {
  private var fields: [String: String] = [:]

  init(_ headers: [String: String]) {
    // Sorted, so that the same headers spelled in two cases always give the same answer.
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) where fields[name.lowercased()] == nil {
      fields[name.lowercased()] = value
    }
  }

  subscript(name: String) -> String? { fields[name] }

  /// A validator (`ETag`, `Last-Modified`) as sent, without surrounding white space; nil when empty.
  func validator(_ name: String) -> String? {
    guard let value = fields[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    return value
  }
}
