import Foundation
import MapMath
import MapStyle

/// A label as placed, in points, with what draws it.
struct PlacedMapLabel {
  enum Text {
    case point(PointLabelText, origin: PixelPoint)
    case curved(CurvedLabelText, [CurvedLabelText.Placed])
  }

  var text: String
  var rect: PixelRect
  var boxes: [PixelRect]
  var paint: LabelPaint
  var drawing: Text

  func drawn(scale: Double, layer: String) -> DrawnMapLabel {
    DrawnMapLabel(
      text: text, layer: layer, rect: rect.scaled(by: scale), boxes: boxes.map { $0.scaled(by: scale) })
  }
}

/// Places the labels of every symbol layer: the top layer of the style first (as MapLibre does: style
/// authors put the most important labels last), within a layer by `symbol-sort-key` and then feature
/// order. A label goes where it fits (see `LabelCollision`); a line label where its street is straight
/// enough (`text-max-angle` between neighbouring letters), every `symbol-spacing` points along the street
/// at most, and never within twice that of a label of the same text.
enum LabelPlacement {
  /// Point labels of the same text are this far apart at least, in points.
  static let pointRepeatDistance = 250.0
  /// Line label positions tried per street at most.
  static let maximumTriesPerLine = 24

  /// Places the labels of the symbol layers `ids`; `candidates` gives each layer's (by index), asked for
  /// once per layer, top layer first.
  static func place(
    _ ids: [String], candidates: (Int) -> [MapLabelCandidate], camera: Camera, obstacles: [PixelRect],
    measuring: MeasuringContext
  ) -> [PlacedLabelLayer] {
    var result = ids.map { PlacedLabelLayer(id: $0) }
    var collision = LabelCollision(size: camera.size, obstacles: obstacles)
    var owner = 0
    var placer = LayerPlacer(context: measuring.context)
    for index in ids.indices.reversed() {
      for candidate in candidates(index) {
        owner += 1
        let placed: [PlacedMapLabel]
        switch candidate.site {
        case .point(let anchor):
          placed = placer.placePoint(candidate, at: anchor, &collision, owner: owner).map { [$0] } ?? []
        case .lines(let lines):
          placed = lines.flatMap { placer.placeAlong(candidate, $0, &collision, owner: owner) }
        }
        result[index].labels += placed
      }
    }
    return result
  }
}

/// Measures and places candidates, reusing measured texts, and measuring a bounded number of them: a
/// tile of a hundred thousand names must not keep Pango busy for minutes.
private struct LayerPlacer {
  /// Texts measured per map at most (a dense city centre needs a few hundred).
  static let maximumMeasuredTexts = 4000

  let context: OpaquePointer
  private var measured = 0
  private var pointTexts: [PointKey: PointLabelText] = [:]
  private var curvedTexts: [CurvedKey: CurvedLabelText] = [:]

  private struct PointKey: Hashable {
    var text: String
    var style: LabelStyle
  }

  private struct CurvedKey: Hashable {
    var text: String
    var font: LabelFont
  }

  init(context: OpaquePointer) {
    self.context = context
  }

  mutating func placePoint(
    _ candidate: MapLabelCandidate, at anchor: PixelPoint, _ collision: inout LabelCollision, owner: Int
  ) -> PlacedMapLabel? {
    let style = candidate.style
    // A place mapped twice (a building and its entrance, a park's polygon and point) is named once.
    guard collision.bounds.contains(anchor),
      !collision.repeats(candidate.text, near: anchor, within: LabelPlacement.pointRepeatDistance)
    else { return nil }
    let key = PointKey(text: candidate.text, style: style)
    guard pointTexts[key] != nil || measured < Self.maximumMeasuredTexts else { return nil }
    let text =
      pointTexts[key]
      ?? PointLabelText(
        text: candidate.text, font: style.font, maxWidth: style.maxWidth, lineHeight: style.lineHeight,
        justify: style.justify, anchor: style.anchor, context: context)
    if pointTexts.updateValue(text, forKey: key) == nil { measured += 1 }
    guard text.unknownGlyphs == 0, text.size.width > 0 else { return nil }
    let rect = PointLabelText.rect(
      size: text.size, anchor: style.anchor,
      at: PixelPoint(x: anchor.x + style.offsetX, y: anchor.y + style.offsetY))
    guard collision.fits([rect], padding: style.padding, allowOverlap: style.allowOverlap) else { return nil }
    collision.insert(
      [rect], text: candidate.text, center: anchor, blocks: !style.ignorePlacement, owner: owner)
    return PlacedMapLabel(
      text: candidate.text, rect: rect, boxes: [rect], paint: style.paint,
      drawing: .point(text, origin: PixelPoint(x: rect.minX, y: rect.minY)))
  }

  /// Places the candidate's text along one street as often as spacing, angles and room allow.
  mutating func placeAlong(
    _ candidate: MapLabelCandidate, _ line: LabelLine, _ collision: inout LabelCollision, owner: Int
  ) -> [PlacedMapLabel] {
    let style = candidate.style
    let single = candidate.text.split(whereSeparator: \.isNewline).joined(separator: " ")
    let key = CurvedKey(text: single, font: style.font)
    guard curvedTexts[key] != nil || measured < Self.maximumMeasuredTexts else { return [] }
    let text = curvedTexts[key] ?? CurvedLabelText(text: single, font: style.font, context: context)
    if curvedTexts.updateValue(text, forKey: key) == nil { measured += 1 }
    let length = text.length
    guard text.unknownGlyphs == 0, length > 0, !text.glyphs.isEmpty,
      line.length >= length + 2 * style.padding
    else { return [] }
    // From the middle of the street outwards, every half spacing.
    let middle = line.length / 2
    let reach = middle - length / 2 - style.padding
    let step = max(style.spacing / 2, length / 2, 1)
    var anchors = [middle]
    var k = 1.0
    while k * step <= reach, anchors.count < LabelPlacement.maximumTriesPerLine {
      anchors += [middle - k * step, middle + k * step]
      k += 1
    }
    var placed: [PlacedMapLabel] = []
    for anchor in anchors {
      guard let label = layout(text, candidate, along: line, at: anchor) else { continue }
      let center = line.place(at: anchor).point
      guard !collision.repeats(candidate.text, near: center, within: 2 * style.spacing),
        collision.fits(label.boxes, padding: style.padding, allowOverlap: style.allowOverlap)
      else { continue }
      collision.insert(
        label.boxes, text: candidate.text, center: center, blocks: !style.ignorePlacement, owner: owner)
      placed.append(label)
    }
    return placed
  }

  /// The glyphs of `text` centred `anchor` along the line, upright, or nil where the street bends more
  /// than `text-max-angle` between two neighbouring letters.
  private func layout(
    _ text: CurvedLabelText, _ candidate: MapLabelCandidate, along line: LabelLine, at anchor: Double
  )
    -> PlacedMapLabel?
  {
    let length = text.length
    let start = line.place(at: anchor - length / 2).point
    let end = line.place(at: anchor + length / 2).point
    // Text reads left to right, and near-vertical streets all read upwards (within 10° of vertical,
    // so that parallel streets do not read in turns up and down): a street drawn the other way is
    // followed backwards.
    let direction = atan2(end.y - start.y, end.x - start.x) * 180 / .pi
    let backwards = !(-100..<80).contains(direction)
    let path = backwards ? line.reversed : line
    let middle = backwards ? line.length - anchor : anchor
    var placed: [CurvedLabelText.Placed] = []
    placed.reserveCapacity(text.glyphs.count)
    var turning = 0.0
    for glyph in text.glyphs {
      // On the street at its centre, turned along the chord between its two ends: a letter at a bend
      // turns half way instead of snapping to one segment.
      let center = middle - length / 2 + glyph.center
      let before = path.place(at: center - glyph.advance / 2).point
      let after = path.place(at: center + glyph.advance / 2).point
      var here = path.place(at: center)
      if after != before { here.angle = atan2(after.y - before.y, after.x - before.x) }
      // No letter upside down, none turned more than the style allows from its neighbour, and not
      // much more than that over the whole label (a street around a square is no place for text).
      guard abs(here.angle) <= Self.maximumTilt else { return nil }
      if let previous = placed.last {
        let turn = Self.turn(previous.angle, here.angle)
        turning += turn
        guard turn <= candidate.style.maxAngle, turning <= 2 * candidate.style.maxAngle + .pi / 12 else {
          return nil
        }
      }
      placed.append(here)
    }
    var boxes: [PixelRect] = []
    boxes.reserveCapacity(placed.count)
    for (glyph, place) in zip(text.glyphs, placed) {
      let cosine = abs(cos(place.angle))
      let sine = abs(sin(place.angle))
      let halfWidth = (cosine * glyph.advance + sine * text.height) / 2
      let halfHeight = (sine * glyph.advance + cosine * text.height) / 2
      boxes.append(
        PixelRect(
          x: place.point.x - halfWidth, y: place.point.y - halfHeight, width: 2 * halfWidth,
          height: 2 * halfHeight))
    }
    let rect = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
    return PlacedMapLabel(
      text: candidate.text, rect: rect, boxes: boxes, paint: candidate.style.paint,
      drawing: .curved(text, placed))
  }

  /// How far a letter may lean from upright (radians): a little past vertical, as near-vertical streets
  /// read upwards.
  static let maximumTilt = 100 * Double.pi / 180

  /// The absolute difference of two directions, in radians within 0…π.
  static func turn(_ a: Double, _ b: Double) -> Double {
    var difference = abs(a - b).truncatingRemainder(dividingBy: 2 * .pi)
    if difference > .pi { difference = 2 * .pi - difference }
    return difference
  }
}
