import MapMath

/// The built-in basemap's coastlines, when the file stores them as the edges of its land rings
/// (`meta.coastline = land`) rather than as rows of their own.
public enum BasemapCoastline {
  /// The coastline of land rings: each ring's runs of edges that are not cuts. An edge is a cut when both
  /// its ends lie on the same line of one of the grids (x or y = k / cells, including the world's edges).
  public static func lines(ofRings rings: [[WorldPoint]], grids: [Int]) -> [[WorldPoint]] {
    let sides = (grids.isEmpty ? [1] : grids).map(Double.init)
    func onGrid(_ value: Double) -> Bool {
      sides.contains { side in (value * side).rounded() == value * side }
    }
    func isCut(_ a: WorldPoint, _ b: WorldPoint) -> Bool {
      (a.x == b.x && onGrid(a.x)) || (a.y == b.y && onGrid(a.y))
    }
    var lines: [[WorldPoint]] = []
    for ring in rings where ring.count >= 2 {
      var runs: [[WorldPoint]] = []
      var current: [WorldPoint] = []
      var cuts = 0
      for index in 0..<(ring.count - 1) {
        let a = ring[index]
        let b = ring[index + 1]
        if isCut(a, b) {
          cuts += 1
          if current.count >= 2 { runs.append(current) }
          current = []
        } else {
          if current.isEmpty { current.append(a) }
          current.append(b)
        }
      }
      if current.count >= 2 { runs.append(current) }
      // A ring with cuts may start inside a run: its last run continues into its first.
      if cuts > 0, runs.count >= 2, let last = runs.last, let first = runs.first, last.last == first.first,
        last.last == ring.first
      {
        runs[0] = last + first.dropFirst()
        runs.removeLast()
      }
      lines.append(contentsOf: runs)
    }
    return lines
  }
}
