import Foundation

/// Cairo numbers SVG ids (`surface12`, `glyph3-1`, `clip5`, …) from counters that live as long as the
/// process, so a second map drawn in the same process gets other ids. Renumbering each prefix by order of
/// first appearance makes the same map give the same bytes in any process.
enum SVGIdentifiers {
  private static let prefixes = [
    "surface", "image", "pattern", "clip", "mask", "linear", "radial", "glyph", "source",
  ].map { Array($0.utf8) }

  /// Rewrites the number in every `id="prefixN…"` and `#prefixN…` (references, `url(#…)`). Works on bytes:
  /// the document carries megabytes of embedded tile images.
  static func renumber(_ data: Data) -> Data {
    let bytes = [UInt8](data)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var numbering = Array(repeating: [ArraySlice<UInt8>: Int](), count: prefixes.count)
    let idMarker = Array("id=\"".utf8)
    var index = 0
    while index < bytes.count {
      var nameStart: Int?
      if bytes[index] == UInt8(ascii: "#") {
        nameStart = index + 1
      } else if bytes[index] == UInt8(ascii: "i"), bytes[index...].starts(with: idMarker) {
        nameStart = index + idMarker.count
      }
      if let nameStart, let (which, digitsStart) = prefix(in: bytes, at: nameStart) {
        var digitsEnd = digitsStart
        while digitsEnd < bytes.count, (48...57).contains(bytes[digitsEnd]) { digitsEnd += 1 }
        if digitsEnd > digitsStart {
          let number = bytes[digitsStart..<digitsEnd]
          let renumbered = numbering[which][number] ?? numbering[which].count
          numbering[which][number] = renumbered
          output.append(contentsOf: bytes[index..<digitsStart])
          output.append(contentsOf: String(renumbered).utf8)
          index = digitsEnd
          continue
        }
      }
      output.append(bytes[index])
      index += 1
    }
    return Data(output)
  }

  /// Which known prefix starts at `start`, and where its digits begin.
  private static func prefix(in bytes: [UInt8], at start: Int) -> (Int, Int)? {
    for (which, prefix) in prefixes.enumerated() where bytes[start...].starts(with: prefix) {
      return (which, start + prefix.count)
    }
    return nil
  }
}
