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
    return try isoDate(text, field: prefix + name, warnings: &warnings)
  }

  /// A category name; missing or empty means `No Category`, an unknown one is kept with a warning.
  func category(_ name: String, warnings: inout [String]) throws(RecordProblem) -> String {
    categoryName(try string(name) ?? "", warnings: &warnings)
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
      throw RecordProblem("\(axis) \(JSONWriter.quotedExcerpt(text)) is not a finite number")
    }
    throw RecordProblem("\(axis) must be a number, not \(value.summary) (remove the quotes)")
  default:
    throw RecordProblem("\(axis) must be a number, not \(value.summary)")
  }
}

// MARK: Fields read from text (CSV cells, GPX elements and attributes), checked as the JSON members are

/// A date in ISO 8601 (`field` names it in messages); adds a warning when it has no time zone (it is then
/// read as UTC).
func isoDate(_ text: String, field: String, warnings: inout [String]) throws(RecordProblem) -> Date {
  guard let parsed = ISO8601Date.parse(text) else {
    throw RecordProblem(
      "\(field) \(JSONWriter.quotedExcerpt(text)) is not an ISO 8601 date"
        + " (expected e.g. \"2026-11-29\" or \"2026-11-29T10:00:00Z\")")
  }
  if !parsed.hasTimeZone {
    warnings.append("\(field) \(JSONWriter.quotedExcerpt(text)) has no time zone; read as UTC")
  }
  return parsed.date
}

/// A category name: empty means `No Category`, a known one in another case gets its proper spelling (so
/// `park` joins `Park` in lists), an unknown one is kept with a warning.
func categoryName(_ text: String, warnings: inout [String]) -> String {
  if text.isEmpty { return Category.default.name }
  if let known = Category.matching(text) { return known.name }
  warnings.append(
    "unknown category \(JSONWriter.quotedExcerpt(text)) (kept; known: \(Category.namesText))"
  )
  return text
}

/// A coordinate written as text: a plain decimal number (surrounding spaces allowed) inside the axis' range.
/// `field` is how messages name it (`latitude`, `wpt lat`). Messages quote the text as written.
func degrees(text: String, _ axis: Axis, field: String) throws(RecordProblem) -> Double {
  let trimmed = trimmedSpaces(text)
  guard !trimmed.isEmpty else { throw RecordProblem("\(field) is empty") }
  guard let number = Double(trimmed) else {
    var message = "\(field) \(JSONWriter.quotedExcerpt(trimmed)) is not a number"
    if trimmed.contains(","), Double(trimmed.replacingOccurrences(of: ",", with: ".")) != nil {
      message += " (use a point as the decimal separator)"
    }
    throw RecordProblem(message)
  }
  guard number.isFinite else {
    throw RecordProblem("\(field) \(JSONWriter.quotedExcerpt(trimmed)) is not a finite number")
  }
  // Swift also reads hexadecimal (`0x1p4`), which no file means as degrees.
  guard trimmed.utf8.allSatisfy({ isDecimalNumberByte($0) }) else {
    throw RecordProblem("\(field) \(JSONWriter.quotedExcerpt(trimmed)) is not a number")
  }
  guard abs(number) <= axis.limit else {
    let limit = JSONWriter.numberText(axis.limit)
    throw RecordProblem("\(field) \(trimmed) is outside -\(limit)…\(limit)")
  }
  return number
}

/// `text` without the spaces and tabs around it (and line breaks too with `newlines`). Foundation's
/// `trimmingCharacters(in:)` goes through NSString on Linux and was half the time of reading a large CSV file.
func trimmedSpaces(_ text: String, newlines: Bool = false) -> String {
  func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || (newlines && (byte == 0x0A || byte == 0x0D))
  }
  let utf8 = text.utf8
  guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return text }
  var start = utf8.startIndex
  var end = utf8.endIndex
  while start < end && isSpace(utf8[start]) { start = utf8.index(after: start) }
  while end > start && isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
  return String(decoding: utf8[start..<end], as: UTF8.self)
}

private func isDecimalNumberByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
    UInt8(ascii: "e"), UInt8(ascii: "E"):
    return true
  default:
    return false
  }
}
