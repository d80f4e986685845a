import CCairo
import Foundation
import MapMath
import Tiles

/// A label of the built-in basemap as drawn, in image pixels (scale applied).
public struct BasemapLabel: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    case country
    case city
  }

  public var kind: Kind
  /// The text as drawn (country names upper-case; the lines of a two-line name joined by a space).
  public var text: String
  /// The text block.
  public var rect: PixelRect
  /// A city's dot, nil when none is drawn (at city zooms the name alone marks the city).
  public var dot: PixelRect?
}

/// Draws the built-in basemap (`BasemapSource`) straight onto the canvas as vector paths, so SVG and PDF
/// stay vector: the sea, land (every piece in one path and one fill, so the edges where the data cut big
/// polygons into pieces never show), lakes, the coastline, state and country borders, and the names of
/// countries and cities, placed by `LabelPlacer` around the overlays.
///
/// Everything is computed when the layer is made (the data read, projected to points and clipped to the
/// view; the labels measured and placed); `draw` only paints. Owns Pango layouts: one thread only.
final class VectorBasemapLayer {
  /// State borders help from about the size of a large country on screen.
  static let stateBorderMinimumZoom = 4.0
  /// Past this zoom a country's name says little (the view is inside one country).
  static let countryLabelMaximumZoom = 8.0
  /// From this zoom on a city's name alone marks it, centred on its point, without a dot, set like the name of
  /// an area (the view is inside the city).
  static let cityDotMaximumZoom = 12.0
  /// Points of image area per city name at most, so that a crowded region does not become a wall of names.
  static let areaPerCityLabel = 15_000.0
  /// Points around the view that geometry is kept for, so that line ends and joins stay outside it.
  static let clipMargin = 8.0

  let style: BasemapStyle
  let size: PixelSize
  let zoom: Double
  private(set) var land: [[PixelPoint]] = []
  private(set) var lakes: [[PixelPoint]] = []
  private(set) var coastlines: [[PixelPoint]] = []
  private(set) var stateBorders: [[PixelPoint]] = []
  private(set) var countryBorders: [[PixelPoint]] = []
  /// The labels as placed, in points, with the lines of text that draw them.
  private(set) var labels:
    [(label: PlacedLabel, kind: BasemapLabel.Kind, text: String, lines: [TextLayout])] =
      []

  /// The band whose geometry is detailed enough for the camera: the zoom counts the scale, since a scale 2
  /// image has the pixels of one zoom level more.
  static func geometryBand(for camera: Camera) -> Int {
    BasemapBand.band(forZoom: camera.zoom + log2(camera.scale))
  }

  /// The band whose places are labelled: labels are sized in points, so as many fit at every scale.
  static func labelBand(for camera: Camera) -> Int {
    BasemapBand.band(forZoom: camera.zoom)
  }

  /// One query window inside the world ([0, 1] in x) and the whole worlds to shift its results by.
  struct WorldWindow: Equatable {
    var copy: Int
    var minX: Double
    var maxX: Double
  }

  /// Splits `minX`…`maxX` (any real numbers) at the world's edges: each piece is queried in [0, 1] and its
  /// features drawn `copy` worlds to the right. A window wider than the world gives one piece per copy.
  static func windows(minX: Double, maxX: Double) -> [WorldWindow] {
    guard minX.isFinite, maxX.isFinite, minX < maxX else { return [] }
    // A view of more than a few hundred worlds is absurd; keep the copies nearest its middle.
    let middle = (minX + maxX) / 2
    let low = max(minX, middle - 128)
    let high = min(maxX, middle + 128)
    var result: [WorldWindow] = []
    for copy in Int(low.rounded(.down))...Int(high.rounded(.down)) {
      let from = max(low - Double(copy), 0)
      let to = min(high - Double(copy), 1)
      if from < to { result.append(WorldWindow(copy: copy, minX: from, maxX: to)) }
    }
    return result
  }

  init(
    source: any BasemapSource, camera: Camera, style: BasemapStyle, fontFamily: String,
    obstacles: [PixelRect], measuring: MeasuringContext
  ) throws {
    self.style = style
    size = camera.size
    zoom = camera.zoom
    // Points per world unit, and where the world copy 0's origin lands, in points.
    let factor = 256 * pow(2, camera.zoom)
    let center = camera.centerWorld
    let originX = size.width / 2 - center.x * factor
    let originY = size.height / 2 - center.y * factor
    let margin = VectorBasemapLayer.clipMargin
    let clip = PixelRect(x: 0, y: 0, width: size.width, height: size.height).insetBy(dx: -margin, dy: -margin)
    let minY = max(center.y + (clip.minY - size.height / 2) / factor, 0)
    let maxY = min(center.y + (clip.maxY - size.height / 2) / factor, 1)
    guard minY < maxY else { return }
    let windows = VectorBasemapLayer.windows(
      minX: center.x + (clip.minX - size.width / 2) / factor,
      maxX: center.x + (clip.maxX - size.width / 2) / factor)

    var cache: [String: [BasemapFeature]] = [:]
    func features(_ kind: BasemapKind, band: Int, _ window: WorldWindow) throws -> [BasemapFeature] {
      // A view wider than the world asks for the same whole world once per copy.
      let key = "\(kind.rawValue) \(band) \(window.minX) \(window.maxX)"
      if let cached = cache[key] { return cached }
      let found = try source.features(
        kind, band: band, from: WorldPoint(x: window.minX, y: minY), to: WorldPoint(x: window.maxX, y: maxY))
      cache[key] = found
      return found
    }

    let band = VectorBasemapLayer.geometryBand(for: camera)
    // A quarter of an image pixel.
    let step = 0.25 / camera.scale
    for window in windows {
      let projection = Projection(
        factor: factor, originX: originX + Double(window.copy) * factor, originY: originY, step: step)
      for kind in [BasemapKind.land, .lake, .coastline, .stateBorder, .countryBorder] {
        if kind == .stateBorder && zoom < VectorBasemapLayer.stateBorderMinimumZoom { continue }
        for feature in try features(kind, band: band, window) {
          switch kind {
          case .land: projection.addPolygon(feature.parts, clip: clip, to: &land)
          case .lake: projection.addPolygon(feature.parts, clip: clip, to: &lakes)
          case .coastline: projection.addLine(feature.parts, clip: clip, to: &coastlines)
          case .stateBorder: projection.addLine(feature.parts, clip: clip, coarse: true, to: &stateBorders)
          case .countryBorder: projection.addLine(feature.parts, clip: clip, to: &countryBorders)
          case .countryLabel, .cityLabel: break
          }
        }
      }
    }

    var points: [LabelCandidate] = []
    let labelBand = VectorBasemapLayer.labelBand(for: camera)
    let view = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
    for window in windows {
      let projection = Projection(
        factor: factor, originX: originX + Double(window.copy) * factor, originY: originY, step: step)
      for kind in [BasemapKind.countryLabel, .cityLabel] {
        if kind == .countryLabel && zoom >= VectorBasemapLayer.countryLabelMaximumZoom { continue }
        for feature in try features(kind, band: labelBand, window) {
          guard let name = feature.name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
            let point = feature.parts.first?.first
          else { continue }
          let anchor = projection.point(point)
          guard view.contains(anchor) else { continue }
          points.append(
            LabelCandidate(
              kind: kind == .countryLabel ? .country : .city, name: name, rank: feature.rank, anchor: anchor,
              textSize: PixelSize(width: 0, height: 0)))
        }
      }
    }
    placeLabels(points, fontFamily: fontFamily, obstacles: obstacles, measuring: measuring)
  }

  /// Measures the candidates in priority order and places those that fit.
  private func placeLabels(
    _ candidates: [LabelCandidate], fontFamily: String, obstacles: [PixelRect], measuring: MeasuringContext
  ) {
    var placer = LabelPlacer(size: size, obstacles: obstacles)
    let dotRadius = zoom < VectorBasemapLayer.cityDotMaximumZoom ? style.cityDotRadius : 0
    var cities = max(Int(size.width * size.height / VectorBasemapLayer.areaPerCityLabel), 3)
    for index in LabelPlacer.order(candidates) {
      var candidate = candidates[index]
      if candidate.kind == .city {
        guard cities > 0 else { break }
        candidate.dotRadius = dotRadius
        if dotRadius > 0 && !placer.dotFits(at: candidate.anchor, radius: dotRadius) { continue }
      }
      let text = candidate.kind == .country ? candidate.name.uppercased() : candidate.name
      let lines = measure(text, kind: candidate.kind, rank: candidate.rank, fontFamily: fontFamily, measuring)
      guard !lines.isEmpty, lines.allSatisfy({ $0.unknownGlyphs == 0 }) else { continue }
      candidate.textSize = PixelSize(
        width: lines.map(\.size.width).max() ?? 0, height: lines.reduce(0) { $0 + $1.size.height })
      guard let placed = placer.place(candidate, index: index) else { continue }
      if candidate.kind == .city { cities -= 1 }
      labels.append(
        (placed, candidate.kind == .country ? .country : .city, text, lines))
    }
  }

  /// The lines of a label: a long country name is set on two lines of about equal length.
  private func measure(
    _ text: String, kind: LabelCandidate.Kind, rank: Double, fontFamily: String, _ measuring: MeasuringContext
  ) -> [TextLayout] {
    // The whole world on a few hundred points: smaller names.
    let factor = zoom < 1.5 ? 0.85 : 1
    switch kind {
    case .country:
      let size = style.countryLabelSize * factor
      let font = FontSpec(family: fontFamily, size: size, bold: true)
      return VectorBasemapLayer.lines(of: text).map {
        TextLayout(
          text: $0, font: font, maxWidth: nil, letterSpacing: size * 0.12, context: measuring.context)
      }
    case .city where isAreaZoom:
      let size = style.cityLabelSize * (rank >= 1_000_000 ? 1.5 : rank >= 100_000 ? 1.25 : 1.1)
      let font = FontSpec(family: fontFamily, size: size, bold: false)
      return [
        TextLayout(text: text, font: font, maxWidth: nil, letterSpacing: 0.6, context: measuring.context)
      ]
    case .city:
      // The large cities of the view in bold, the largest also a little larger: they anchor the map.
      let bold = rank >= (zoom < 5 ? 5_000_000 : zoom < 8 ? 1_000_000 : 500_000)
      let size = style.cityLabelSize * factor * (rank >= 5_000_000 ? 1.1 : 1)
      let font = FontSpec(family: fontFamily, size: size, bold: bold)
      return [TextLayout(text: text, font: font, maxWidth: nil, context: measuring.context)]
    }
  }

  /// One line, or two at the space that balances them best for names longer than 14 characters.
  static func lines(of text: String) -> [String] {
    guard text.count > 14 else { return [text] }
    let characters = Array(text)
    var best: (index: Int, imbalance: Int)?
    for (index, character) in characters.enumerated() where character == " " {
      let imbalance = abs(index - (characters.count - index - 1))
      if best == nil || imbalance < best!.imbalance { best = (index, imbalance) }
    }
    guard let best else { return [text] }
    return [String(characters[..<best.index]), String(characters[(best.index + 1)...])]
  }

  /// The labels as drawn, in image pixels.
  func drawnLabels(scale: Double) -> [BasemapLabel] {
    labels.map { entry in
      BasemapLabel(
        kind: entry.kind, text: entry.text, rect: entry.label.text.scaled(by: scale),
        dot: entry.label.dot?.scaled(by: scale))
    }
  }

  /// Zoomed into a city: its name is set like the name of the area.
  private var isAreaZoom: Bool { zoom >= VectorBasemapLayer.cityDotMaximumZoom }

  /// Line widths are a little thinner when the whole world is on the map.
  private var widthFactor: Double { min(1, 0.55 + 0.15 * max(zoom, 0)) }

  func draw(on canvas: Canvas) {
    let cr = canvas.context
    cairo_save(cr)
    canvas.drawing.fillRect(PixelRect(x: 0, y: 0, width: size.width, height: size.height), color: style.water)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    fill(land, color: style.land, canvas)
    fill(lakes, color: style.lake, canvas)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    stroke(coastlines, color: style.coastline, width: style.coastlineWidth * widthFactor, canvas)
    stroke(stateBorders, color: style.stateBorder, width: style.stateBorderWidth, canvas, dashed: true)
    stroke(countryBorders, color: style.countryBorder, width: style.countryBorderWidth * widthFactor, canvas)
    drawLabels(canvas)
    cairo_restore(cr)
  }

  private func addPath(_ parts: [[PixelPoint]], closed: Bool, _ cr: OpaquePointer) {
    for part in parts {
      guard let first = part.first else { continue }
      cairo_move_to(cr, first.x, first.y)
      for point in part.dropFirst() { cairo_line_to(cr, point.x, point.y) }
      if closed { cairo_close_path(cr) }
    }
  }

  private func fill(_ rings: [[PixelPoint]], color: Color, _ canvas: Canvas) {
    guard !rings.isEmpty else { return }
    cairo_new_path(canvas.context)
    addPath(rings, closed: true, canvas.context)
    canvas.drawing.setColor(color)
    cairo_fill(canvas.context)
  }

  private func stroke(
    _ lines: [[PixelPoint]], color: Color, width: Double, _ canvas: Canvas, dashed: Bool = false
  ) {
    guard !lines.isEmpty, width > 0 else { return }
    let cr = canvas.context
    cairo_new_path(cr)
    addPath(lines, closed: false, cr)
    canvas.drawing.setColor(color)
    cairo_set_line_width(cr, width)
    if dashed {
      let pattern = [4 * width, 2.5 * width]
      cairo_set_dash(cr, pattern, Int32(pattern.count), 0)
    }
    cairo_stroke(cr)
    if dashed { cairo_set_dash(cr, nil, 0, 0) }
  }

  private func drawLabels(_ canvas: Canvas) {
    let cr = canvas.context
    let halo = style.labelHaloWidth
    for entry in labels {
      if let dot = entry.label.dot {
        let radius = style.cityDotRadius
        cairo_new_path(cr)
        cairo_arc(cr, dot.midX, dot.midY, radius, 0, 2 * .pi)
        canvas.drawing.setColor(style.cityDot)
        cairo_fill_preserve(cr)
        canvas.drawing.setColor(style.labelHalo)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
      }
      var y = entry.label.text.minY
      let color = entry.kind == .country || isAreaZoom ? style.countryLabel : style.cityLabel
      for line in entry.lines {
        // Each line centred in the block.
        let origin = PixelPoint(x: entry.label.text.midX - line.size.width / 2, y: y)
        if halo > 0 {
          cairo_new_path(cr)
          line.addPath(at: origin, in: cr)
          canvas.drawing.setColor(style.labelHalo)
          cairo_set_line_width(cr, 2 * halo)
          cairo_stroke(cr)
        }
        cairo_new_path(cr)
        canvas.drawing.setColor(color)
        line.draw(at: origin, in: cr)
        y += line.size.height
      }
    }
  }
}

/// World space to points for one world copy, with the clipping that keeps what Cairo gets small and near
/// the view (Cairo's fixed-point coordinates end at about ±8 million), and without the points that are too
/// close to the previous one to matter: a band's geometry serves several zooms, and at the lowest of them
/// most of its points fall within a pixel (stroking them all is the slowest part of drawing the world).
private struct Projection {
  let factor: Double
  let originX: Double
  let originY: Double
  /// Points nearer than this (in points, on both axes) to the last one kept are left out of polygons; lines,
  /// thin and round-joined, use four times as much (a pixel), which does not show either.
  let step: Double

  func point(_ world: WorldPoint) -> PixelPoint {
    PixelPoint(x: originX + world.x * factor, y: originY + world.y * factor)
  }

  /// Projects a ring or a line (its last point always kept), and its bounding box.
  private func project(_ part: [WorldPoint], step: Double) -> ([PixelPoint], PixelRect) {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var points: [PixelPoint] = []
    points.reserveCapacity(part.count)
    let last = part.count - 1
    for (index, world) in part.enumerated() {
      let p = point(world)
      if index != last, let previous = points.last, abs(p.x - previous.x) < step, abs(p.y - previous.y) < step
      {
        continue
      }
      minX = min(minX, p.x)
      maxX = max(maxX, p.x)
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
      points.append(p)
    }
    return (points, PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
  }

  func addPolygon(_ rings: [[WorldPoint]], clip: PixelRect, to output: inout [[PixelPoint]]) {
    for ring in rings where ring.count >= 3 {
      let (points, box) = project(ring, step: step)
      guard points.count >= 3 else { continue }
      guard Projection.overlaps(box, clip) else { continue }
      if clip.contains(box) {
        output.append(points)
      } else {
        let clipped = Clipping.polygon(points, to: clip)
        if clipped.count >= 3 { output.append(clipped) }
      }
    }
  }

  /// `coarse` lines (the light state borders, dense in some countries) keep even fewer points.
  func addLine(
    _ parts: [[WorldPoint]], clip: PixelRect, coarse: Bool = false, to output: inout [[PixelPoint]]
  ) {
    for part in parts where part.count >= 2 {
      let (points, box) = project(part, step: (coarse ? 6 : 4) * step)
      guard Projection.overlaps(box, clip) else { continue }
      if clip.contains(box) {
        output.append(points)
      } else {
        output.append(contentsOf: Clipping.polyline(points, to: clip))
      }
    }
  }

  /// Like `PixelRect.intersects`, but a line along an edge (zero width or height) counts.
  private static func overlaps(_ a: PixelRect, _ b: PixelRect) -> Bool {
    a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
  }
}

/// Clipping to an axis-aligned rectangle.
enum Clipping {
  /// Sutherland–Hodgman: the part of a ring inside `rect`, its winding kept (pieces outside become edges
  /// along the rectangle, which fill nothing).
  static func polygon(_ ring: [PixelPoint], to rect: PixelRect) -> [PixelPoint] {
    var output = ring
    for edge in 0..<4 {
      let input = output
      output = []
      output.reserveCapacity(input.count + 4)
      guard var previous = input.last else { return [] }
      for current in input {
        let currentInside = inside(current, edge, rect)
        if currentInside != inside(previous, edge, rect) {
          output.append(intersection(previous, current, edge, rect))
        }
        if currentInside { output.append(current) }
        previous = current
      }
    }
    return output
  }

  private static func inside(_ p: PixelPoint, _ edge: Int, _ rect: PixelRect) -> Bool {
    switch edge {
    case 0: return p.x >= rect.minX
    case 1: return p.x <= rect.maxX
    case 2: return p.y >= rect.minY
    default: return p.y <= rect.maxY
    }
  }

  private static func intersection(_ a: PixelPoint, _ b: PixelPoint, _ edge: Int, _ rect: PixelRect)
    -> PixelPoint
  {
    switch edge {
    case 0, 1:
      let x = edge == 0 ? rect.minX : rect.maxX
      let t = (x - a.x) / (b.x - a.x)
      return PixelPoint(x: x, y: a.y + t * (b.y - a.y))
    default:
      let y = edge == 2 ? rect.minY : rect.maxY
      let t = (y - a.y) / (b.y - a.y)
      return PixelPoint(x: a.x + t * (b.x - a.x), y: y)
    }
  }

  /// Liang–Barsky on each segment: the pieces of a line inside `rect`.
  static func polyline(_ line: [PixelPoint], to rect: PixelRect) -> [[PixelPoint]] {
    var parts: [[PixelPoint]] = []
    var current: [PixelPoint] = []
    for index in line.indices.dropFirst() {
      let a = line[index - 1]
      let b = line[index]
      guard let (t0, t1) = segment(a, b, rect) else {
        if current.count >= 2 { parts.append(current) }
        current = []
        continue
      }
      let start = t0 == 0 ? a : PixelPoint(x: a.x + t0 * (b.x - a.x), y: a.y + t0 * (b.y - a.y))
      let end = t1 == 1 ? b : PixelPoint(x: a.x + t1 * (b.x - a.x), y: a.y + t1 * (b.y - a.y))
      if t0 > 0 || current.isEmpty {
        if current.count >= 2 { parts.append(current) }
        current = [start]
      }
      current.append(end)
    }
    if current.count >= 2 { parts.append(current) }
    return parts
  }

  /// The parameters where the segment a→b enters and leaves `rect`, nil when it misses it.
  static func segment(_ a: PixelPoint, _ b: PixelPoint, _ rect: PixelRect) -> (Double, Double)? {
    var t0 = 0.0
    var t1 = 1.0
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
        if t > t1 { return nil }
        t0 = max(t0, t)
      } else {
        if t < t0 { return nil }
        t1 = min(t1, t)
      }
    }
    return (t0, t1)
  }
}
