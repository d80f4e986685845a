import Foundation

/// The user's locale and time zone for dates, as the seed shows them (medium date, short time).
///
/// Foundation on Linux does not read `LC_ALL`/`LC_TIME`/`LANG`, so this does, the way C programs do:
/// the first one set wins; `C` and `POSIX` mean plain US English.
enum UserLocale {
  static func locale(environment: [String: String] = ProcessInfo.processInfo.environment) -> Locale {
    for name in ["LC_ALL", "LC_TIME", "LANG"] {
      guard let value = environment[name], !value.isEmpty else { continue }
      let identifier = value.split(separator: ".").first.map(String.init) ?? value
      if identifier == "C" || identifier == "POSIX" { return Locale(identifier: "en_US_POSIX") }
      return Locale(identifier: identifier.split(separator: "@").first.map(String.init) ?? identifier)
    }
    return Locale(identifier: "en_US_POSIX")
  }

  /// `Nov 29, 2026 at 10:00 AM` in the user's locale and time zone (`TZ`).
  static func dateFormatter(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> DateFormatter
  {
    let formatter = DateFormatter()
    formatter.locale = locale(environment: environment)
    formatter.timeZone = TimeZone.current
    formatter.dateStyle = .medium
    formatter.timeStyle = .short
    return formatter
  }
}
