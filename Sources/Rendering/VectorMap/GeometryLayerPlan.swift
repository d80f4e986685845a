import CCairo
import MapMath
import MapStyle
import VectorTiles

/// Which feature of which tile: two 32-bit indices, so that a layer's plan stays small.
struct FeatureSlot {
  let tile: Int32
  let feature: Int32
}

/// Features grouped by equal paint, groups in the order their first feature came: each group becomes
/// one Cairo path and one fill or stroke, so tens of thousands of features cost a few Cairo calls.
struct PaintGroups<Paint: Hashable> {
  private(set) var paints: [Paint] = []
  private(set) var members: [[FeatureSlot]] = []
  private var indexByPaint: [Paint: Int] = [:]

  /// The group of a paint, made when it is new.
  mutating func group(for paint: Paint) -> Int {
    if let index = indexByPaint[paint] { return index }
    indexByPaint[paint] = paints.count
    paints.append(paint)
    members.append([])
    return paints.count - 1
  }

  mutating func add(_ slot: FeatureSlot, to group: Int) {
    members[group].append(slot)
  }

  var isEmpty: Bool { paints.isEmpty }
}

/// The features one fill or line layer draws, from every tile, grouped by paint.
struct GeometryLayerPlan {
  enum Groups {
    case fill(PaintGroups<FillPaint>)
    case line(PaintGroups<LinePaint>)
  }

  let layerID: String
  /// The tile layers the slots point into, by tile index (nil where a tile lacks the layer).
  let sources: [FeatureLayer?]
  let groups: Groups

  /// Evaluates the layer's filter and paint on every feature of its source layer.
  init?(layer: StyleLayer, sources: [FeatureLayer?], zoom: Double) {
    layerID = layer.id
    self.sources = sources
    switch layer.kind {
    case .fill(let style):
      let painter = FillPainter(style, zoom: zoom)
      var groups = PaintGroups<FillPaint>()
      StyledFeatures.forEach(
        of: layer, in: sources, zoom: zoom, types: [.polygon], readsFeatureID: painter.readsFeatureID,
        style: { painter.paint(for: $0).map { groups.group(for: $0) } },
        each: { slot, _, group in groups.add(slot, to: group) })
      guard !groups.isEmpty else { return nil }
      self.groups = .fill(groups)
    case .line(let style):
      let painter = LinePainter(style, zoom: zoom)
      var groups = PaintGroups<LinePaint>()
      StyledFeatures.forEach(
        of: layer, in: sources, zoom: zoom, types: [.lineString, .polygon],
        readsFeatureID: painter.readsFeatureID,
        style: { painter.paint(for: $0).map { groups.group(for: $0) } },
        each: { slot, _, group in groups.add(slot, to: group) })
      guard !groups.isEmpty else { return nil }
      self.groups = .line(groups)
    default:
      return nil
    }
  }

  /// In images, solid lines under two pixels wide or with round joins and round or butt caps go through
  /// the canvas's `LineCoverageMask`. Dashed ones under `coarseAntialiasingWidth` pixels whose colour
  /// differs from the ground by at most `coarseAntialiasingContrast` (the largest channel difference,
  /// 0…1) are stroked with Cairo's coarse antialiasing (a 4×4 grid of samples a pixel), in half the
  /// time: an edge pixel is then off by at most a quarter of that contrast, 8 levels. Lines that stand
  /// out more and wide lines (whose edges lie on their casings, not on the ground) keep exact
  /// antialiasing.
  static let coarseAntialiasingContrast = 32.0 / 255
  static let coarseAntialiasingWidth = 2.0

  /// Paints the layer. `tiles` give each tile's square; `view` is the image in points; `drawn` the part
  /// of it being drawn (a band: features that miss it are left out); `ground` the map's background
  /// colour, if it has one.
  func draw(
    on canvas: Canvas, tiles: [MapTile], view: PixelRect, drawn: PixelRect? = nil, ground: Color? = nil
  ) {
    let cr = canvas.context
    let step = 0.25 / canvas.scale
    switch groups {
    case .fill(let groups):
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
      let margin = 4.0
      for (paint, members) in zip(groups.paints, groups.members) {
        cairo_new_path(cr)
        forEachPath(members, tiles, view, drawn, margin, step) { path, geometry in
          path.addPolygon(geometry, to: cr)
        }
        let outline = paint.outline.flatMap { $0.alpha > 0 ? $0 : nil }
        if paint.color.alpha > 0 {
          canvas.drawing.setColor(paint.color)
          // Under an outline, images fill without antialiasing, as MapLibre does: the outline covers the
          // edge pixels, and exact antialiasing of every building was a fifth of a map's drawing time.
          let antialias = cairo_get_antialias(cr)
          if outline != nil, canvas.format == .png { cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE) }
          cairo_fill(cr)
          cairo_set_antialias(cr, antialias)
        }
        cairo_new_path(cr)
        guard let outline else { continue }
        // One image pixel wide, as MapLibre draws fill outlines; SVG and PDF keep Cairo's stroke.
        if canvas.format == .png {
          maskLines(members, tiles, view, drawn, margin, step, width: 1 / canvas.scale, outline, canvas)
          continue
        }
        forEachPath(members, tiles, view, drawn, margin, step) { path, geometry in
          path.addLines(geometry, to: cr)
        }
        canvas.drawing.setColor(outline)
        cairo_set_line_width(cr, 1 / canvas.scale)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        cairo_stroke(cr)
      }
    case .line(let groups):
      for (paint, members) in zip(groups.paints, groups.members) {
        let reach = (paint.gap + 2 * paint.width) * max(paint.miterLimit, 1)
        let margin = 16 + reach
        cairo_new_path(cr)
        if paint.gap > 0 {
          let offset = (paint.gap + paint.width) / 2
          forEachPath(members, tiles, view, drawn, margin, step) { path, geometry in
            for line in path.lines(geometry) {
              for side in [offset, -offset] {
                LineOffset.add(LineOffset.offset(line, by: side), to: cr)
              }
            }
          }
        } else if let dashes = paint.dashes {
          strokeDashed(members, tiles, view, drawn, margin, paint, dashes, canvas, ground)
          continue
        } else if canvas.format == .png, LineCoverageMask.draws(paint, scale: canvas.scale) {
          maskLines(
            members, tiles, view, drawn, margin, step, width: paint.width, paint.color, canvas,
            buttEnds: LineCoverageMask.endsButt(paint, scale: canvas.scale))
          continue
        } else {
          forEachPath(members, tiles, view, drawn, margin, step) { path, geometry in
            path.addLines(geometry, to: cr)
          }
        }
        stroke(paint, canvas, ground: ground)
      }
    }
  }

  /// The members' lines, `width` points wide, in `color` through the canvas's `LineCoverageMask`.
  private func maskLines(
    _ members: [FeatureSlot], _ tiles: [MapTile], _ view: PixelRect, _ drawn: PixelRect?, _ margin: Double,
    _ step: Double, width: Double, _ color: Color, _ canvas: Canvas, buttEnds: Bool = false
  ) {
    let mask = canvas.lineCoverageMask
    let scale = canvas.scale
    var buffer: [PixelPoint] = []
    forEachPath(members, tiles, view, drawn, margin, step) { path, geometry in
      path.forEachLine(geometry, scale: scale, buffer: &buffer) { points in
        mask.addLine(points, width: width * scale, buttEnds: buttEnds)
      }
    }
    mask.paint(color, on: canvas)
  }

  /// Dashed lines keep their pattern's phase where a tile's edge cut them: whole lines share one
  /// stroke, each cut piece gets its own with the pattern moved on.
  private func strokeDashed(
    _ members: [FeatureSlot], _ tiles: [MapTile], _ view: PixelRect, _ drawn: PixelRect?, _ margin: Double,
    _ paint: LinePaint, _ dashes: [Double], _ canvas: Canvas, _ ground: Color?
  ) {
    let cr = canvas.context
    var cut: [LinePieces.Piece] = []
    cairo_new_path(cr)
    forEachPath(members, tiles, view, drawn, margin, 0) { path, geometry in
      for piece in path.measuredLines(geometry) {
        if piece.start == 0 { LineOffset.add(piece.points, to: cr) } else { cut.append(piece) }
      }
    }
    // Round and square caps reach half a width past each dash, which MapLibre draws inside it.
    let shift = paint.cap == .butt ? 0 : -paint.width / 2
    stroke(paint, canvas, ground: ground, dashOffset: shift)
    for piece in cut {
      cairo_new_path(cr)
      LineOffset.add(piece.points, to: cr)
      stroke(paint, canvas, ground: ground, dashOffset: piece.start + shift)
    }
  }

  private func stroke(_ paint: LinePaint, _ canvas: Canvas, ground: Color?, dashOffset: Double = 0) {
    let cr = canvas.context
    canvas.drawing.setColor(paint.color)
    let antialias = cairo_get_antialias(cr)
    if canvas.format == .png, let ground, paint.width * canvas.scale < Self.coarseAntialiasingWidth,
      paint.gap == 0, paint.color.contrast(with: ground) <= Self.coarseAntialiasingContrast
    {
      cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
    }
    defer { cairo_set_antialias(cr, antialias) }
    cairo_set_line_width(cr, paint.width)
    switch paint.cap {
    case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
    }
    switch paint.join {
    case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
    }
    cairo_set_miter_limit(cr, max(paint.miterLimit, 1))
    if let dashes = paint.dashes {
      cairo_set_dash(cr, dashes, Int32(dashes.count), dashOffset)
    }
    cairo_stroke(cr)
    if paint.dashes != nil { cairo_set_dash(cr, nil, 0, 0) }
  }

  /// Calls `body` with each member's geometry and the tile path that projects it, cut `margin` points
  /// outside the view, leaving out what is that far outside the part drawn.
  private func forEachPath(
    _ members: [FeatureSlot], _ tiles: [MapTile], _ view: PixelRect, _ drawn: PixelRect?, _ margin: Double,
    _ step: Double, _ body: (TilePath, VectorTileGeometry) -> Void
  ) {
    let clip = view.insetBy(dx: -margin, dy: -margin)
    let visible = drawn?.insetBy(dx: -margin, dy: -margin)
    var currentTile = -1
    var path: TilePath?
    for slot in members {
      let tileIndex = Int(slot.tile)
      guard let source = sources[tileIndex] else { continue }
      if tileIndex != currentTile || path == nil {
        currentTile = tileIndex
        path = TilePath(
          tileRect: tiles[tileIndex].rect, extent: source.layer.extent, view: clip, visible: visible,
          step: step)
      }
      if let path { body(path, source.layer.features[Int(slot.feature)].geometry) }
    }
  }
}
