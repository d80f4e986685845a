import CCairo
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws lines as cased lines with round joins and caps: every casing first, then every line, so that
/// where lines cross or a line meets itself no casing cuts through a line. Direction chevrons go on top.
struct TrackLineLayer {
  let style: TrackStyle

  func lineWidth(showsDirection: Bool) -> Double { showsDirection ? style.routeWidth : style.width }

  /// Half the widest drawn line, casing included, in points.
  var halfWidth: Double { max(style.width, style.routeWidth) / 2 + style.casingWidth }

  func draw(_ lines: [(pieces: [[PixelPoint]], showsDirection: Bool)], on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for (pieces, showsDirection) in lines {
      cairo_set_line_width(cr, lineWidth(showsDirection: showsDirection) + 2 * style.casingWidth)
      stroke(pieces, color: style.casingColor, on: canvas)
    }
    for (pieces, showsDirection) in lines {
      cairo_set_line_width(cr, lineWidth(showsDirection: showsDirection))
      stroke(pieces, color: showsDirection ? style.routeColor : style.color, on: canvas)
    }
    for (pieces, showsDirection) in lines where showsDirection {
      cairo_set_line_width(cr, max(0.8, style.routeWidth * 0.4))
      var count = 0
      var box: PixelRect?
      forEachChevron(along: pieces) { chevron in
        count += chevron.count
        box = StrokeRuns.box(around: chevron).map { box?.union($0) ?? $0 }
      }
      StrokeRuns.stroke(points: count, box: box, color: style.chevronColor, on: canvas) { runs in
        forEachChevron(along: pieces) { runs.add($0) }
      }
    }
    cairo_restore(cr)
  }

  private func stroke(_ pieces: [[PixelPoint]], color: Color, on canvas: Canvas) {
    StrokeRuns.stroke(
      points: pieces.reduce(0) { $0 + $1.count }, box: StrokeRuns.box(around: pieces.joined()), color: color,
      on: canvas
    ) { runs in
      for piece in pieces { runs.add(piece) }
    }
  }

  /// Small open chevrons (›) inside the line, every `chevronSpacing` points along it, half a spacing in:
  /// each the tip ahead of its point and the arms back and out on either side. A chevron is left out where
  /// one pointing the same way (within an eighth of a turn) is already drawn in its square of half a
  /// spacing: a route that passes a spot many times shows its way there once, and a route through a
  /// million places draws a number of chevrons bounded by the image, not millions. They are made twice
  /// (counted, then drawn) rather than kept.
  func forEachChevron(along pieces: [[PixelPoint]], _ body: ([PixelPoint]) -> Void) {
    let size = style.routeWidth * 0.7
    let spacing = max(style.chevronSpacing, 8)
    var taken = Set<ChevronSpot>()
    for piece in pieces {
      var untilNext = spacing / 2
      for index in piece.indices.dropFirst() {
        let a = piece[index - 1]
        let b = piece[index]
        let length = hypot(b.x - a.x, b.y - a.y)
        guard length > 0 else { continue }
        var travelled = 0.0
        while travelled + untilNext <= length {
          travelled += untilNext
          untilNext = spacing
          let t = travelled / length
          let x = a.x + (b.x - a.x) * t
          let y = a.y + (b.y - a.y) * t
          let ux = (b.x - a.x) / length
          let uy = (b.y - a.y) / length
          let spot = ChevronSpot(
            column: Int((x / (spacing / 2)).rounded(.down)), row: Int((y / (spacing / 2)).rounded(.down)),
            heading: Int(((atan2(uy, ux) + .pi) / (.pi / 4)).rounded()) % 8)
          guard taken.insert(spot).inserted else { continue }
          body([
            PixelPoint(x: x - ux * size - uy * size, y: y - uy * size + ux * size),
            PixelPoint(x: x + ux * size * 0.6, y: y + uy * size * 0.6),
            PixelPoint(x: x - ux * size + uy * size, y: y - uy * size - ux * size),
          ])
        }
        untilNext -= length - travelled
      }
    }
  }
}

/// Where a chevron is drawn: its square of half a spacing and its heading in eighths of a turn.
private struct ChevronSpot: Hashable {
  let column: Int
  let row: Int
  let heading: Int
}
