import Arguments
import Foundation
import Places
import Rendering

/// `render`'s options for what is drawn around the places: how they are named (callouts, numbers and a
/// legend), the title plate and the scale bar.
enum MapDecorationOptions {
  static let options: [OptionSpec] = [
    .value(
      "labels", valueName: "callouts|numbers|auto",
      help:
        "Name places by callouts; by a number in every pin (in date order) and a legend; or by callouts"
        + " where they fit and numbers with a legend for the rest.", default: "auto"),
    .value(
      "legend", valueName: "auto|none",
      help: "The legend of numbered places and, when the style colours pins by category, of categories.",
      default: "auto"),
    .value(
      "title", valueName: "TEXT",
      help: "A title at the top; {from}, {to} (the first and last place's dates) and {count} are filled in."),
    .value("subtitle", valueName: "TEXT", help: "A line under the title, with the same placeholders."),
    .value(
      "scale-bar", valueName: "auto|none",
      help: "A scale bar in a free corner (left out when the scale changes over fourfold across the map).",
      default: "auto"),
    .value("units", valueName: "metric|imperial", help: "The scale bar's units.", default: "metric"),
  ]

  /// Reads the options into `request` (before the places are known: a bad value is a usage error first).
  static func apply(_ arguments: ParsedArguments, to request: inout RenderRequest) throws(ArgumentError) {
    request.labels = try arguments.value("labels", as: { try choice($0, PlaceLabels.self) })!
    request.showsLegend = try arguments.value("legend", as: { try autoOrNone($0) })!
    let units = try arguments.value("units", as: { try choice($0, ScaleBarUnits.self) })!
    request.scaleBar = try arguments.value("scale-bar", as: { try autoOrNone($0) })! ? units : nil
  }

  /// The title and subtitle with their placeholders filled from the places drawn, dates in the user's
  /// locale and time zone.
  static func title(_ arguments: ParsedArguments, places: [Location]) -> MapTitle? {
    let title = arguments.string("title")
    let subtitle = arguments.string("subtitle")
    guard title != nil || subtitle != nil else { return nil }
    let fill = TitlePlaceholders(places: places)
    return MapTitle(title: fill(title ?? ""), subtitle: subtitle.map(fill.callAsFunction))
  }

  private static func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ type: T.Type) throws -> T
  where T.RawValue == String {
    guard let value = T(rawValue: text.lowercased()) else {
      throw InvalidValue("expected " + T.allCases.map(\.rawValue).joined(separator: ", ", last: " or "))
    }
    return value
  }

  private static func autoOrNone(_ text: String) throws -> Bool {
    switch text.lowercased() {
    case "auto": return true
    case "none": return false
    default: throw InvalidValue("expected auto or none")
    }
  }
}

/// `{from}`, `{to}` and `{count}` in a title: the dates of the earliest and latest dated place (the user's
/// medium date style, `TZ`) and the number of places.
struct TitlePlaceholders {
  let from: String
  let to: String
  let count: String

  init(places: [Location], environment: [String: String] = ProcessInfo.processInfo.environment) {
    let formatter = UserLocale.dateFormatter(environment: environment)
    formatter.timeStyle = .none
    let dates = places.compactMap(\.date)
    from = dates.min().map(formatter.string(from:)) ?? ""
    to = dates.max().map(formatter.string(from:)) ?? ""
    count = String(places.count)
  }

  func callAsFunction(_ text: String) -> String {
    text.replacingOccurrences(of: "{from}", with: from).replacingOccurrences(of: "{to}", with: to)
      .replacingOccurrences(of: "{count}", with: count)
  }
}

extension Array where Element == String {
  /// `a, b or c`.
  fileprivate func joined(separator: String, last: String) -> String {
    guard count > 1 else { return first ?? "" }
    return dropLast().joined(separator: separator) + last + self[count - 1]
  }
}
