import Foundation

/// ISO 8601 dates as locations files write them, parsed and formatted by hand so the result does not
/// depend on the machine's locale, time zone or Foundation version.
public enum ISO8601Date {
  /// A parsed date, and whether the text said which time zone it was in.
  public struct Parsed: Hashable, Sendable {
    public var date: Date
    /// False for `2026-11-29T10:00:00`, which is read as UTC.
    public var hasTimeZone: Bool

    public init(date: Date, hasTimeZone: Bool) {
      self.date = date
      self.hasTimeZone = hasTimeZone
    }
  }

  /// Reads `2026-11-29` (midnight UTC), `2026-11-29T10:00` and `2026-11-29T10:00:00` with optional
  /// fractional seconds (kept to the microsecond), then `Z`, an offset (`+01:00`, `+0100`, `+01`) or
  /// nothing (UTC). A space may stand for the `T`. Nil when the text is none of these or names an
  /// impossible day or time.
  public static func parse(_ text: String) -> Parsed? {
    var scanner = DigitScanner(Array(text.utf8))
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    var seconds = Double(daysFromCivil(year: year, month: month, day: day) * 86_400)
    if scanner.atEnd { return Parsed(date: Date(timeIntervalSince1970: seconds), hasTimeZone: true) }

    guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
      let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
      hour < 24, minute < 60
    else { return nil }
    var second = 0
    var fraction = 0.0
    if scanner.skip(":") {
      guard let value = scanner.number(digits: 2), value < 60 else { return nil }
      second = value
      if scanner.skip(".") || scanner.skip(",") {
        let digits = scanner.digitRun()
        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
        // To the microsecond, as `format` writes it: a date read back from what mymap wrote is the same.
        fraction = (value * 1_000_000).rounded() / 1_000_000
      }
    }
    seconds += Double(hour * 3600 + minute * 60 + second)

    var hasTimeZone = true
    if scanner.skip("Z") || scanner.skip("z") {
    } else if let sign = scanner.sign() {
      guard let hours = scanner.number(digits: 2), hours < 24 else { return nil }
      var minutes = 0
      if !scanner.atEnd {
        _ = scanner.skip(":")
        guard let value = scanner.number(digits: 2), value < 60 else { return nil }
        minutes = value
      }
      seconds -= Double(sign * (hours * 3600 + minutes * 60))
    } else {
      hasTimeZone = false
    }
    guard scanner.atEnd else { return nil }
    return Parsed(date: Date(timeIntervalSince1970: seconds + fraction), hasTimeZone: hasTimeZone)
  }

  /// The times this format can write with a four-digit year, -9999-01-01 to 9999-12-31 (UTC), in seconds
  /// since 1970. Places carry only dates in this range (`isRepresentable`): one bad timestamp in an
  /// imported file must not make a store unreadable.
  public static let representableSeconds: ClosedRange<Double> = -377_705_116_800...253_402_300_799

  /// Whether `format` writes this date as it is (see `representableSeconds`).
  public static func isRepresentable(_ date: Date) -> Bool {
    representableSeconds.contains(date.timeIntervalSince1970)
  }

  /// `2026-11-29T10:00:00Z` in UTC, with up to 6 fractional digits when the date has a fraction (so a
  /// date read from a file with millisecond or microsecond precision is written back unchanged). Years
  /// before 1 are written with a sign (`-0044-03-15…`); a date outside `representableSeconds` (or not a
  /// number) is written as the nearest end of that range, so that formatting never fails.
  public static func format(_ date: Date) -> String {
    var interval = date.timeIntervalSince1970
    if interval.isNaN { interval = 0 }
    interval = min(max(interval, representableSeconds.lowerBound), representableSeconds.upperBound)
    var whole = interval.rounded(.down)
    var micros = ((interval - whole) * 1_000_000).rounded()
    if micros >= 1_000_000 {
      whole += 1
      micros = 0
    }
    let total = Int(whole)
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secondOfDay = total - days * 86_400
    let (year, month, day) = civilFromDays(days)
    // Digits written into bytes: `list --json` formats a date for each of a million places.
    var text: [UInt8] = []
    text.reserveCapacity(28)
    append(year, width: 4, to: &text)
    text.append(UInt8(ascii: "-"))
    append(month, width: 2, to: &text)
    text.append(UInt8(ascii: "-"))
    append(day, width: 2, to: &text)
    text.append(UInt8(ascii: "T"))
    append(secondOfDay / 3600, width: 2, to: &text)
    text.append(UInt8(ascii: ":"))
    append(secondOfDay / 60 % 60, width: 2, to: &text)
    text.append(UInt8(ascii: ":"))
    append(secondOfDay % 60, width: 2, to: &text)
    if micros > 0 {
      text.append(UInt8(ascii: "."))
      var fraction = Int(micros)
      var width = 6
      while fraction % 10 == 0 {
        fraction /= 10
        width -= 1
      }
      append(fraction, width: width, to: &text)
    }
    text.append(UInt8(ascii: "Z"))
    return String(decoding: text, as: UTF8.self)
  }

  /// `value` in decimal, zero-padded to at least `width` digits, a `-` before it when negative.
  private static func append(_ value: Int, width: Int, to text: inout [UInt8]) {
    if value < 0 { text.append(UInt8(ascii: "-")) }
    var rest = value.magnitude
    var count = 1
    var probe = rest
    while probe >= 10 {
      probe /= 10
      count += 1
    }
    let end = text.count + max(count, width)
    text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: end - text.count))
    var index = end - 1
    repeat {
      text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
      index -= 1
    } while rest > 0
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Howard Hinnant's civil-calendar algorithms: exact for any proleptic Gregorian date.
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

/// Reads fixed-width digit groups and separators from ASCII bytes.
private struct DigitScanner {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { index == bytes.count }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  mutating func sign() -> Int? {
    if skip("+") { return 1 }
    if skip("-") { return -1 }
    return nil
  }

  mutating func number(digits: Int) -> Int? {
    guard index + digits <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[index..<index + digits] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    index += digits
    return value
  }

  mutating func digitRun() -> String {
    let start = index
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
      index += 1
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }
}
