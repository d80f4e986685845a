import Foundation
import MapMath

/// A street as a polyline measured along its length, for placing a label's glyphs on it.
struct LabelLine {
  let points: [PixelPoint]
  /// `distances[i]`: length from the start to `points[i]`.
  let distances: [Double]

  init(_ points: [PixelPoint]) {
    var kept: [PixelPoint] = []
    kept.reserveCapacity(points.count)
    for point in points where kept.last.map({ $0 != point }) ?? true { kept.append(point) }
    self.points = kept
    var distances = [0.0]
    distances.reserveCapacity(kept.count)
    for index in kept.indices.dropFirst() {
      distances.append(distances[index - 1] + Self.distance(kept[index - 1], kept[index]))
    }
    self.distances = distances
  }

  var length: Double { distances.last ?? 0 }

  /// How much the line turns along its length, in radians (every bend counted, left or right).
  var turning: Double {
    guard points.count >= 3 else { return 0 }
    var total = 0.0
    var previous = atan2(points[1].y - points[0].y, points[1].x - points[0].x)
    for index in 2..<points.count {
      let angle = atan2(points[index].y - points[index - 1].y, points[index].x - points[index - 1].x)
      var difference = abs(angle - previous)
      if difference > .pi { difference = 2 * .pi - difference }
      total += difference
      previous = angle
    }
    return total
  }

  /// The same line run the other way.
  var reversed: LabelLine { LabelLine(points.reversed()) }

  static func distance(_ a: PixelPoint, _ b: PixelPoint) -> Double {
    ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
  }

  /// The segment holding the point at `distance` along the line (clamped to the line).
  private func segment(at distance: Double) -> Int {
    guard points.count >= 2 else { return 0 }
    // Binary search for the last vertex at or before `distance`.
    var low = 0
    var high = distances.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if distances[middle] <= distance { low = middle } else { high = middle }
    }
    return min(low, points.count - 2)
  }

  /// The point `distance` along the line and the line's direction there (radians, clockwise on screen).
  func place(at distance: Double) -> CurvedLabelText.Placed {
    guard points.count >= 2 else {
      return CurvedLabelText.Placed(point: points.first ?? PixelPoint(x: 0, y: 0), angle: 0)
    }
    let index = segment(at: distance)
    let a = points[index]
    let b = points[index + 1]
    let span = distances[index + 1] - distances[index]
    let t = span > 0 ? min(max((distance - distances[index]) / span, 0), 1) : 0
    return CurvedLabelText.Placed(
      point: PixelPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t),
      angle: atan2(b.y - a.y, b.x - a.x))
  }

  /// Pieces of one street (the same label text) joined where their ends meet within `tolerance` points:
  /// tiles cut streets at their edges, and a street is often several ways. Pieces that meet nothing
  /// stay as they are. Deterministic: pieces are tried in the order given.
  static func merge(_ pieces: [[PixelPoint]], tolerance: Double = 0.5) -> [[PixelPoint]] {
    var lines = pieces.filter { $0.count >= 2 }
    func near(_ a: PixelPoint, _ b: PixelPoint) -> Bool {
      abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }
    var index = 0
    while index < lines.count {
      var grown = true
      while grown {
        grown = false
        var other = 0
        while other < lines.count {
          guard other != index, let start = lines[index].first, let end = lines[index].last,
            let otherStart = lines[other].first, let otherEnd = lines[other].last
          else {
            other += 1
            continue
          }
          var joined: [PixelPoint]?
          if near(end, otherStart) {
            joined = lines[index] + lines[other].dropFirst()
          } else if near(end, otherEnd) {
            joined = lines[index] + lines[other].reversed().dropFirst()
          } else if near(start, otherEnd) {
            joined = lines[other] + lines[index].dropFirst()
          } else if near(start, otherStart) {
            joined = Array(lines[other].reversed()) + lines[index].dropFirst()
          }
          guard let joined else {
            other += 1
            continue
          }
          lines[index] = joined
          lines.remove(at: other)
          if other < index { index -= 1 }
          grown = true
        }
      }
      index += 1
    }
    return lines
  }
}
