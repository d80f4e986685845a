/// Turns an attribution as tile metadata often writes it (`<a href="…">&copy; OpenStreetMap</a>`) into
/// plain text to draw: tags removed, character entities decoded, white space collapsed. Nil when nothing
/// is left.
public func plainAttribution(_ html: String) -> String? {
  var text = ""
  var inTag = false
  for character in html {
    if inTag {
      if character == ">" { inTag = false }
    } else if character == "<" {
      inTag = true
    } else {
      text.append(character)
    }
  }
  let decoded = decodingEntities(text)
  let words = decoded.split(whereSeparator: { $0.isWhitespace })
  return words.isEmpty ? nil : words.joined(separator: " ")
}

private let namedEntities: [String: String] = [
  "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
  "trade": "™", "ndash": "–", "mdash": "—", "middot": "·", "bull": "•", "hellip": "…",
]

/// Decodes `&name;`, `&#NNN;` and `&#xHH;`; anything else (a bare `&`) is kept as it is.
private func decodingEntities(_ text: String) -> String {
  var result = ""
  var rest = Substring(text)
  while let ampersand = rest.firstIndex(of: "&") {
    result += rest[..<ampersand]
    let afterAmpersand = rest.index(after: ampersand)
    let candidate = rest[afterAmpersand...].prefix(10)
    if let semicolon = candidate.firstIndex(of: ";"),
      let value = entityValue(rest[afterAmpersand..<semicolon])
    {
      result += value
      rest = rest[rest.index(after: semicolon)...]
    } else {
      result += "&"
      rest = rest[afterAmpersand...]
    }
  }
  return result + rest
}

private func entityValue(_ name: Substring) -> String? {
  if let value = namedEntities[name.lowercased()] { return value }
  guard name.first == "#" else { return nil }
  let digits = name.dropFirst()
  let code: UInt32?
  if digits.first == "x" || digits.first == "X" {
    code = UInt32(digits.dropFirst(), radix: 16)
  } else {
    code = UInt32(digits)
  }
  return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
}
