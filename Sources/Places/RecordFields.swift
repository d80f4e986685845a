import Foundation
import JSON

/// A problem with one record, without the file and record name (the decoders add them).
struct RecordProblem: Error {
  var message: String

  init(_ message: String) { self.message = message }
}

/// The members of one JSON object read as a record's fields: each accessor turns a wrong type into a
/// message a user can act on, naming the member (`placemark.postalCode must be a string, …`).
struct RecordFields {
  let members: [JSONValue.Member]
  /// Put before member names in messages, for nested objects (`placemark.`).
  let prefix: String

  /// Nil when `value` is not an object.
  init?(_ value: JSONValue, prefix: String = "") {
    guard case .object(let members) = value else { return nil }
    self.members = members
    self.prefix = prefix
  }

  /// The member's value; a `null` member counts as missing.
  subscript(name: String) -> JSONValue? {
    guard let value = members.first(where: { $0.name == name })?.value, value != .null else { return nil }
    return value
  }

  func has(_ name: String) -> Bool { self[name] != nil }

  /// `quoteNumbers`: a number is a likely mistake for this text (a postal code), so say to quote it.
  func string(_ name: String, quoteNumbers: Bool = false) throws(RecordProblem) -> String? {
    guard let value = self[name] else { return nil }
    guard case .string(let text) = value else {
      var message = "\(prefix)\(name) must be a string, not \(value.summary)"
      if quoteNumbers, case .number = value { message += " (write it in double quotes)" }
      throw RecordProblem(message)
    }
    return text
  }

  /// An id: a non-empty string, or a whole number (GeoJSON tools often number their features).
  func identifier(_ name: String) throws(RecordProblem) -> String? {
    switch self[name] {
    case nil: return nil
    case .string(let text): return text.isEmpty ? nil : text
    case .number(let number) where number == number.rounded(): return JSONWriter.numberText(number)
    case let value?:
      throw RecordProblem("\(prefix)\(name) must be a string or a whole number, not \(value.summary)")
    }
  }

  /// A date in ISO 8601; adds a warning when it has no time zone (it is then read as UTC).
  func date(_ name: String, warnings: inout [String]) throws(RecordProblem) -> Date? {
    guard let text = try string(name) else { return nil }
    guard let parsed = ISO8601Date.parse(text) else {
      throw RecordProblem(
        "\(prefix)\(name) \(JSONWriter.quoted(text)) is not an ISO 8601 date"
          + " (expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")")
    }
    if !parsed.hasTimeZone {
      warnings.append("\(prefix)\(name) \(JSONWriter.quoted(text)) has no time zone; read as UTC")
    }
    return parsed.date
  }

  /// A category name; missing or empty means `No Category`, an unknown one is kept with a warning.
  func category(_ name: String, warnings: inout [String]) throws(RecordProblem) -> String {
    let text = try string(name) ?? ""
    if text.isEmpty { return Category.default.name }
    if !Category.isKnown(text) {
      warnings.append(
        "unknown category \(JSONWriter.quoted(text)) (kept; known: \(Category.names.joined(separator: ", ")))"
      )
    }
    return text
  }

  func placemark(_ name: String) throws(RecordProblem) -> Placemark? {
    guard let value = self[name] else { return nil }
    guard let fields = RecordFields(value, prefix: "\(prefix)\(name).") else {
      throw RecordProblem("\(prefix)\(name) must be an object, not \(value.summary)")
    }
    return Placemark(
      subThoroughfare: try fields.string("subThoroughfare", quoteNumbers: true),
      thoroughfare: try fields.string("thoroughfare"), locality: try fields.string("locality"),
      administrativeArea: try fields.string("administrativeArea"),
      postalCode: try fields.string("postalCode", quoteNumbers: true), country: try fields.string("country"))
  }
}

/// Which coordinate a number is, for its range and its messages.
enum Axis: String {
  case latitude
  case longitude

  var limit: Double { self == .latitude ? 90 : 180 }
}

/// A coordinate value checked the same way in every format: a finite JSON number inside the axis' range.
/// Numbers written as strings are refused, with a message that says why ("NaN" is no number at all).
func degrees(_ value: JSONValue, _ axis: Axis) throws(RecordProblem) -> Double {
  switch value {
  case .number(let number):
    guard number.isFinite else { throw RecordProblem("\(axis) is not a finite number") }
    guard abs(number) <= axis.limit else {
      let limit = JSONWriter.numberText(axis.limit)
      throw RecordProblem("\(axis) \(number) is outside -\(limit)…\(limit)")
    }
    return number
  case .string(let text):
    guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
      throw RecordProblem("\(axis) must be a number, not \(value.summary)")
    }
    guard number.isFinite else {
      throw RecordProblem("\(axis) \(JSONWriter.quoted(text)) is not a finite number")
    }
    throw RecordProblem("\(axis) must be a number, not \(value.summary) (remove the quotes)")
  default:
    throw RecordProblem("\(axis) must be a number, not \(value.summary)")
  }
}
