import MapMath

/// Measures the pins and callouts of a set of annotations and places them on a camera: callouts never
/// overlap each other, another place's pin head, or the fixed overlays (user dot, attribution); a callout
/// that cannot be placed is dropped and reported. Callouts keep `padding` points from the image's edges
/// where they can; a callout that finds room only inside the padding (2 points from the edges at least) is
/// reported, so that the fit makes room for it.
///
/// Everything here is in points; the camera's scale is divided out.
final class OverlayLayout {
  let style: Style
  let pin: PinGeometry
  let annotations: [any Annotation]
  /// The callout content per annotation, nil when callouts are off.
  let callouts: [CalloutContent?]
  /// Points between a callout and the image's edges, kept wherever a callout can be placed so.
  let padding: Double
  /// Points between a callout and the image's edges, always.
  static let margin = 2.0
  /// Each annotation's rank in the caller's list (numbers count in it), when the annotations are in
  /// another order (the pins left alone among clusters, north to south); nil when they are in list order.
  var listOrder: [Int]?

  init(
    annotations: [any Annotation], style: Style, showCallouts: Bool, padding: Double = 0,
    measuring: MeasuringContext
  ) {
    self.style = style
    self.padding = padding
    self.pin = PinGeometry(style: style.pin)
    self.annotations = annotations
    let calloutStyle = style.callout
    let titleFont = FontSpec(family: style.fontFamily, size: calloutStyle.titleSize, bold: true)
    let subtitleFont = FontSpec(family: style.fontFamily, size: calloutStyle.subtitleSize, bold: false)
    // Past a thousand callouts most are dropped: their Pango layouts go once measured (`TextLayout`).
    let keepsLayouts = annotations.count <= 1_000
    callouts = annotations.map { annotation in
      guard showCallouts else { return nil }
      let title = TextLayout(
        text: annotation.title, font: titleFont, maxWidth: calloutStyle.maxTextWidth,
        context: measuring.context, keepsLayout: keepsLayouts)
      let subtitle = annotation.subtitle.flatMap { text -> TextLayout? in
        text.isEmpty
          ? nil
          : TextLayout(
            text: text, font: subtitleFont, maxWidth: calloutStyle.maxTextWidth, context: measuring.context,
            keepsLayout: keepsLayouts)
      }
      return CalloutContent(title: title, subtitle: subtitle, style: calloutStyle)
    }
  }

  /// Characters that no installed font could draw, over all callouts.
  var unknownGlyphs: Int {
    callouts.reduce(0) { $0 + ($1.map { $0.title.unknownGlyphs + ($0.subtitle?.unknownGlyphs ?? 0) } ?? 0) }
  }

  /// The font packages that would draw them.
  var missingFonts: Set<FontPackage> {
    callouts.reduce(into: []) { found, callout in
      guard let callout else { return }
      found.formUnion(callout.title.missingFonts)
      found.formUnion(callout.subtitle?.missingFonts ?? [])
    }
  }

  /// What the camera must keep in view: every pin, and the preferred callout of every annotation but those
  /// in `leftOut`.
  func extents(leavingOut leftOut: Set<Int> = []) -> [OverlayExtent] {
    var result: [OverlayExtent] = []
    for (index, annotation) in annotations.enumerated() {
      var rect = pin.extent
      if let content = callouts[index], !leftOut.contains(index) {
        let preferred = CalloutPlacement.candidates(
          size: content.bubbleSize, pin: pin, style: style.callout, bounds: nil)[0]
        rect = rect.union(preferred.extent)
      }
      result.append(OverlayExtent(anchor: annotation.coordinate, rect: rect))
    }
    return result
  }

  /// One annotation as placed: the place's point and its callout, if one fitted (points, absolute).
  struct Placed {
    let index: Int
    let point: PixelPoint
    let callout: CalloutPlacement?
  }

  /// Places the callouts on a camera. `obstacles` are fixed rectangles in points that callouts avoid.
  /// `beyondPadding` lists the placed callouts that found room only inside the padding.
  func place(on camera: Camera, obstacles: [PixelRect])
    -> (placed: [Placed], dropped: [Int], beyondPadding: [Int])
  {
    let points = annotations.map { camera.point(for: $0.coordinate) }
    let image = PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height)
    // Cells about a pin head wide: with thousands of pins a query scans fewer heads per cell.
    var blockers = RectIndex(bounds: image, cellSize: 24)
    for (index, point) in points.enumerated() {
      blockers.insert(pin.headRect.offsetBy(dx: point.x, dy: point.y), owner: index)
    }
    for obstacle in obstacles { blockers.insert(obstacle, owner: -1) }
    let inner = image.insetBy(dx: OverlayLayout.margin, dy: OverlayLayout.margin)
    // The padding as the fit keeps it (at most a quarter of the smaller side), less the half point by which
    // the fit's whole-point alignment may move the map.
    let inset = max(min(padding, min(image.width, image.height) / 4) - 0.5, OverlayLayout.margin)
    let padded = image.insetBy(dx: inset, dy: inset)
    var placements: [CalloutPlacement?] = Array(repeating: nil, count: annotations.count)
    var dropped: [Int] = []
    var beyondPadding: [Int] = []
    for (index, point) in points.enumerated() {
      // A place outside the image (cropped by a given centre and zoom) has no callout to place, nor to miss.
      guard let content = callouts[index], image.contains(point) else { continue }
      // Extents already found covering something: the second round does not ask again. When every
      // candidate was inside the padding, the second round's are the same ones: it is not needed.
      var blocked: Set<PixelRect> = []
      var allInside = true
      func firstFree(inside area: PixelRect) -> CalloutPlacement? {
        let candidates = CalloutPlacement.candidates(
          size: content.bubbleSize, pin: pin, style: style.callout,
          bounds: area.offsetBy(dx: -point.x, dy: -point.y))
        return candidates.lazy.map { $0.offsetBy(dx: point.x, dy: point.y) }.first { candidate in
          let extent = candidate.extent
          guard area.contains(extent) else {
            allInside = false
            return false
          }
          guard !blocked.contains(extent) else { return false }
          // A point of air between neighbours so that bubbles never touch.
          if blockers.intersects(extent.insetBy(dx: -1, dy: -1), ignoring: index) {
            blocked.insert(extent)
            return false
          }
          return true
        }
      }
      var chosen = firstFree(inside: padded)
      if chosen == nil && inset > OverlayLayout.margin && !allInside {
        chosen = firstFree(inside: inner)
        if chosen != nil { beyondPadding.append(index) }
      }
      if let chosen {
        placements[index] = chosen
        blockers.insert(chosen.extent, owner: index)
      } else {
        dropped.append(index)
      }
    }
    let placed = points.enumerated().map {
      Placed(index: $0.offset, point: $0.element, callout: placements[$0.offset])
    }
    return (placed, dropped, beyondPadding)
  }
}
