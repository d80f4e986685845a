import Foundation
import Tiles

/// What a build wrote, per kind and band range.
public struct BasemapBuildReport: Sendable, CustomStringConvertible {
  public struct Entry: Sendable, Equatable {
    public var kind: BasemapKind
    /// The bands the features serve (one band for most; a range where one version serves several).
    public var bands: ClosedRange<Int>
    public var features = 0
    public var points = 0
    /// Bytes of encoded geometry.
    public var bytes = 0
  }

  /// By kind, then band range.
  public var entries: [Entry] = []
  public var fileSize = 0

  mutating func add(_ kind: BasemapKind, bands: ClosedRange<Int>, points: Int, bytes: Int) {
    if let index = entries.firstIndex(where: { $0.kind == kind && $0.bands == bands }) {
      entries[index].features += 1
      entries[index].points += points
      entries[index].bytes += bytes
      return
    }
    entries.append(Entry(kind: kind, bands: bands, features: 1, points: points, bytes: bytes))
    let codes = BasemapFileFormat.kindCodes
    entries.sort {
      (codes[$0.kind]!, $0.bands.lowerBound, $0.bands.upperBound)
        < (codes[$1.kind]!, $1.bands.lowerBound, $1.bands.upperBound)
    }
  }

  /// The features, points and bytes a query of one band reads for a kind over the whole world (points:
  /// every band up to it).
  public func total(_ kind: BasemapKind, band: Int) -> (features: Int, points: Int, bytes: Int) {
    var total = (features: 0, points: 0, bytes: 0)
    for entry in entries where entry.kind == kind {
      guard kind.isPoint ? entry.bands.lowerBound <= band : entry.bands.contains(band) else { continue }
      total.features += entry.features
      total.points += entry.points
      total.bytes += entry.bytes
    }
    return total
  }

  /// Two tables: what is stored (kind, bands, features, points, geometry bytes) with totals and the file
  /// size; then what a whole-world query of each band reads.
  public var description: String {
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    func row(_ first: String, _ second: String, _ numbers: [Int]) -> String {
      first.padding(toLength: 15, withPad: " ", startingAt: 0) + pad(second, 5) + pad(String(numbers[0]), 10)
        + pad(String(numbers[1]), 10) + pad(String(numbers[2]), 12)
    }
    var lines = ["stored:", "kind           bands  features    points       bytes"]
    for entry in entries {
      let bands =
        entry.bands.count == 1
        ? "\(entry.bands.lowerBound)" : "\(entry.bands.lowerBound)-\(entry.bands.upperBound)"
      lines.append(row(entry.kind.rawValue, bands, [entry.features, entry.points, entry.bytes]))
    }
    lines.append(
      row(
        "total", "",
        [
          entries.reduce(0) { $0 + $1.features }, entries.reduce(0) { $0 + $1.points },
          entries.reduce(0) { $0 + $1.bytes },
        ]))
    lines.append("read by a whole-world query of one band:")
    lines.append("kind            band  features    points       bytes")
    for kind in BasemapKind.allCases where entries.contains(where: { $0.kind == kind }) {
      for band in 0..<BasemapBand.count {
        let total = total(kind, band: band)
        if total.features > 0 {
          lines.append(row(kind.rawValue, String(band), [total.features, total.points, total.bytes]))
        }
      }
    }
    lines.append("file size \(fileSize) bytes (\(String(format: "%.2f", Double(fileSize) / 1_048_576)) MiB)")
    return lines.joined(separator: "\n")
  }
}
