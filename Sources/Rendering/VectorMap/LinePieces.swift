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
      guard let (t0, t1) = Clipping.segment(a, b, ClipWindow(rect)) else {
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
}
