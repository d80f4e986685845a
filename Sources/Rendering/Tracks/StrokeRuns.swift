import CCairo
import MapMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Strokes polylines in the context's current width, caps and joins, in bounded pieces on an image.
///
/// Cairo's scan converter sorts the edges that cross each row again wherever they cross each other, so one
/// path of a million long legs (a route through a million places) costs minutes and gigabytes, while short
/// strokes cost in proportion to what they cover. On an image, lines of more than `pointsPerStroke` points
/// in all go in runs of at most `pointsPerStroke` points and `lengthPerStroke` points of length, sharing
/// their end points (round caps there look as a round join does); a translucent colour is then laid once
/// over the runs' union, so crossings between runs are no darker than others. Fewer points, SVG and PDF get
/// one path, as before: nothing is rasterized there.
struct StrokeRuns {
  static let pointsPerStroke = 512
  static let lengthPerStroke = 400.0

  private let cr: OpaquePointer
  private let inRuns: Bool
  private var inPath = 0
  private var length = 0.0

  /// Strokes what `addLines` adds in `color`; `points` is how many points it adds in all and `box` holds
  /// them all. A translucent colour in runs is laid through a group clipped to `box` (a group is otherwise
  /// the whole image, made and laid for every line); `box` is asked for only then.
  static func stroke(
    points: Int, box: @autoclosure () -> PixelRect?, color: Color, on canvas: Canvas,
    _ addLines: (inout StrokeRuns) -> Void
  ) {
    guard points > 0 else { return }
    let cr = canvas.context
    let inRuns =
      points > pointsPerStroke && cairo_surface_get_type(canvas.surface) == CAIRO_SURFACE_TYPE_IMAGE
    let groupBox = inRuns && color.alpha < 1 ? box() : nil
    let grouped = groupBox != nil
    if let box = groupBox {
      // Half the width and the round caps' reach, plus a pixel for the antialiasing; on whole device
      // pixels, so that Cairo clips by a region, not by a mask on every stroke.
      let reach = cairo_get_line_width(cr) / 2 + 1
      var (x0, y0, x1, y1) = (box.minX - reach, box.minY - reach, box.maxX + reach, box.maxY + reach)
      cairo_user_to_device(cr, &x0, &y0)
      cairo_user_to_device(cr, &x1, &y1)
      var matrix = cairo_matrix_t()
      cairo_get_matrix(cr, &matrix)
      cairo_save(cr)
      cairo_identity_matrix(cr)
      let left = min(x0, x1).rounded(.down)
      let top = min(y0, y1).rounded(.down)
      cairo_rectangle(cr, left, top, max(x0, x1).rounded(.up) - left, max(y0, y1).rounded(.up) - top)
      cairo_clip(cr)
      cairo_set_matrix(cr, &matrix)
      cairo_push_group(cr)
    }
    canvas.drawing.setColor(grouped ? Color(red: color.red, green: color.green, blue: color.blue) : color)
    var runs = StrokeRuns(cr: cr, inRuns: inRuns)
    addLines(&runs)
    cairo_stroke(cr)
    if grouped {
      cairo_pop_group_to_source(cr)
      cairo_paint_with_alpha(cr, color.alpha)
      cairo_restore(cr)
    }
  }

  private init(cr: OpaquePointer, inRuns: Bool) {
    self.cr = cr
    self.inRuns = inRuns
  }

  /// The box around `points` (nil for none).
  static func box(around points: some Sequence<PixelPoint>) -> PixelRect? {
    var box: PixelRect?
    for point in points {
      let dot = PixelRect(x: point.x, y: point.y, width: 0, height: 0)
      box = box?.union(dot) ?? dot
    }
    return box
  }

  /// Adds one polyline; a single point is drawn as a dot (a cap).
  mutating func add<Line: Collection<PixelPoint>>(_ line: Line) {
    guard var previous = line.first else { return }
    cairo_move_to(cr, previous.x, previous.y)
    if line.count == 1 { cairo_line_to(cr, previous.x, previous.y) }
    inPath += 1
    var remaining = line.count - 1
    for point in line.dropFirst() {
      cairo_line_to(cr, point.x, point.y)
      inPath += 1
      remaining -= 1
      length += hypot(point.x - previous.x, point.y - previous.y)
      previous = point
      if remaining > 0, isRunFull {
        cairo_stroke(cr)
        cairo_move_to(cr, point.x, point.y)
        inPath = 1
        length = 0
      }
    }
    if isRunFull {
      cairo_stroke(cr)
      inPath = 0
      length = 0
    }
  }

  private var isRunFull: Bool {
    inRuns && (inPath >= Self.pointsPerStroke || length >= Self.lengthPerStroke)
  }
}
