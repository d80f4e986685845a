import Foundation

/// Cairo numbers SVG ids (`surface12`, `glyph3-1`, `clip5`, …) from counters that live as long as the
/// process, so a second map drawn in the same process gets other ids. Renumbering each prefix by order of
/// first appearance makes the same map give the same bytes in any process.
enum SVGIdentifiers {
  private static let prefixes = [
    "surface", "image", "pattern", "clip", "mask", "linear", "radial", "glyph", "source",
  ]

  static func renumber(_ data: Data) -> Data {
    guard var text = String(data: data, encoding: .utf8) else { return data }
    for prefix in prefixes {
      text = renumber(text, prefix: prefix)
    }
    return Data(text.utf8)
  }

  /// Rewrites every `id="prefixN…"`, `#prefixN…` reference and `url(#prefixN…)` with a new N.
  private static func renumber(_ text: String, prefix: String) -> String {
    let pattern = "(id=\"|#)\(prefix)([0-9]+)"
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
    let source = text as NSString
    var mapping: [String: Int] = [:]
    var result = ""
    var cursor = 0
    for match in expression.matches(in: text, range: NSRange(location: 0, length: source.length)) {
      let number = source.substring(with: match.range(at: 2))
      let renumbered: Int
      if let known = mapping[number] {
        renumbered = known
      } else {
        renumbered = mapping.count
        mapping[number] = renumbered
      }
      result += source.substring(with: NSRange(location: cursor, length: match.range.location - cursor))
      result += source.substring(with: match.range(at: 1)) + prefix + String(renumbered)
      cursor = match.range.location + match.range.length
    }
    result += source.substring(from: cursor)
    return result
  }
}
