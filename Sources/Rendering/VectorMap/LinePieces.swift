import MapMath

/// The pieces of a line inside a rectangle, each with its distance from the line's start: a dashed line
/// cut at a tile's edge keeps the dash pattern's phase (MapLibre measures dashes from where the line
/// starts in the tile, its buffer included).
enum LinePieces {
  struct Piece {
    var points: [PixelPoint]
    /// Length along the whole line before the piece's first point, in points.
    var start: Double
  }

  static func clip(_ line: [PixelPoint], to rect: PixelRect) -> [Piece] {
    var pieces: [Piece] = []
    var current: Piece?
    var travelled = 0.0
    for index in line.indices.dropFirst() {
      let a = line[index - 1]
      let b = line[index]
      let length = LabelLine.distance(a, b)
      defer { travelled += length }
      guard let (t0, t1) = interval(a, b, rect) else {
        if let piece = current, piece.points.count >= 2 { pieces.append(piece) }
        current = nil
        continue
      }
      let start = PixelPoint(x: a.x + t0 * (b.x - a.x), y: a.y + t0 * (b.y - a.y))
      let end = PixelPoint(x: a.x + t1 * (b.x - a.x), y: a.y + t1 * (b.y - a.y))
      if t0 > 0 || current == nil {
        if let piece = current, piece.points.count >= 2 { pieces.append(piece) }
        current = Piece(points: [start], start: travelled + t0 * length)
      }
      current?.points.append(end)
      if t1 < 1 {
        if let piece = current, piece.points.count >= 2 { pieces.append(piece) }
        current = nil
      }
    }
    if let piece = current, piece.points.count >= 2 { pieces.append(piece) }
    return pieces
  }

  /// Where the segment a→b runs inside `rect`, as parameters 0…1 (Liang–Barsky); nil when it misses.
  private static func interval(_ a: PixelPoint, _ b: PixelPoint, _ rect: PixelRect) -> (Double, Double)? {
    var low = 0.0
    var high = 1.0
    let dx = b.x - a.x
    let dy = b.y - a.y
    for (p, q) in [
      (-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y),
    ] {
      if p == 0 {
        if q < 0 { return nil }
        continue
      }
      let t = q / p
      if p < 0 {
        if t > high { return nil }
        low = max(low, t)
      } else {
        if t < low { return nil }
        high = min(high, t)
      }
    }
    return (low, high)
  }
}
