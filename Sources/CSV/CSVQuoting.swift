import Foundation

/// A field as written: in quotes (inner quotes doubled) when it holds a comma, a quote or a line break.
public func csvQuotedIfNeeded(_ field: String) -> String {
  let needsQuotes = field.utf8.contains {
    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
      || $0 == UInt8(ascii: "\r")
  }
  guard needsQuotes else { return field }
  return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
