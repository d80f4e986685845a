import MapMath

/// The places: a pin at each and, where one fits, a callout beside it (measured and placed by
/// `OverlayLayout`, clear of the pin heads of other places and of what other overlays claimed). A callout
/// that does not fit is an optional part: the fit leaves it out and the render says so. Pins draw north
/// first, so that southern pins overlap northern ones, and callouts over every pin. Places named by number
/// instead (`PlaceLabels`) get it in their pin head, in `numbering` for the legend.
struct PlacesOverlay: MapOverlay {
  let layout: OverlayLayout
  private var style: Style { layout.style }
  private let pins: PinLayer
  private let callouts: CalloutLayer
  private var placed: [OverlayLayout.Placed] = []
  private var dropped: [Int] = []
  let labels: PlaceLabels
  let numbering: PlaceNumbering

  /// Measures the callouts (none when `showCallouts` is false or every place is numbered).
  init(
    annotations: [any Annotation], style: Style, showCallouts: Bool, labels: PlaceLabels = .callouts,
    numbering: PlaceNumbering = PlaceNumbering(), padding: Double = 0, measuring: MeasuringContext
  ) {
    self.labels = labels
    self.numbering = numbering
    layout = OverlayLayout(
      annotations: annotations, style: style, showCallouts: showCallouts && labels != .numbers,
      padding: padding, measuring: measuring)
    pins = PinLayer(style: style.pin)
    callouts = CalloutLayer(style: style.callout)
  }

  func fitExtents(leavingOut leftOut: Set<Int>) -> [OverlayExtent] {
    layout.extents(leavingOut: leftOut)
  }

  /// Whenever there are places (with callouts or not: the fit then compares whole and fractional zooms
  /// as it always has).
  var hasOptionalParts: Bool { !layout.annotations.isEmpty }

  func fitTrial(on camera: Camera, around obstacles: [PixelRect]) -> FitTrial {
    let (placed, dropped, beyondPadding) = layout.place(on: camera, obstacles: obstacles)
    var trial = FitTrial(dropped: Set(dropped))
    for index in beyondPadding {
      guard let callout = placed[index].callout else { continue }
      let point = placed[index].point
      trial.beyondPadding[index] = OverlayExtent(
        anchor: layout.annotations[index].coordinate,
        rect: callout.extent.offsetBy(dx: -point.x, dy: -point.y))
    }
    return trial
  }

  /// Every pin and every callout placed.
  mutating func place(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    (placed, dropped, _) = layout.place(on: camera, obstacles: others)
    numbering.assign(
      PlaceNumbering.numbered(placed, dropped: dropped, labels: labels, size: camera.size),
      of: layout.annotations, order: layout.listOrder)
    var claims: [PixelRect] = []
    for item in placed {
      claims.append(layout.pin.extent.offsetBy(dx: item.point.x, dy: item.point.y))
      if let callout = item.callout { claims.append(callout.extent) }
    }
    return claims
  }

  var warnings: [RenderWarning] {
    var warnings: [RenderWarning] = []
    if numbering.tooMany { warnings.append(.tooManyToNumber(maximum: PlaceNumbering.maximumNumbered)) }
    if !dropped.isEmpty && labels == .auto && !numbering.indices.isEmpty {
      warnings.append(.calloutsNumbered(count: dropped.count, inLegend: numbering.namedInLegend))
    } else if !dropped.isEmpty {
      warnings.append(.calloutsLeftOut(count: dropped.count, total: layout.callouts.compactMap { $0 }.count))
    }
    if layout.unknownGlyphs > 0 {
      warnings.append(.glyphsMissing(count: layout.unknownGlyphs, fonts: layout.missingFonts.sorted()))
    }
    return warnings
  }

  var drawLevels: [DrawLevel] { [.pins, .callouts] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    switch level {
    case .pins:
      let annotations = layout.annotations
      let northFirst = placed.sorted { a, b in
        let first = annotations[a.index].coordinate
        let second = annotations[b.index].coordinate
        if first.latitude != second.latitude { return first.latitude > second.latitude }
        if first.longitude != second.longitude { return first.longitude < second.longitude }
        return a.index < b.index
      }
      // Per-pin colours and marks only when there are any: a million plain pins need neither array.
      let colors =
        style.pin.categoryColors.isEmpty
        ? nil : northFirst.map { style.pin.color(forCategory: annotations[$0.index].subtitle) }
      let marks =
        numbering.indices.isEmpty
        ? nil
        : northFirst.map { item in
          numbering.number(of: item.index).map {
            PinNumberMark(
              number: $0, headRadius: style.pin.headRadius, fontFamily: style.fontFamily,
              context: canvas.context)
          }
        }
      pins.draw(at: northFirst.map(\.point), colors: colors, marks: marks, on: canvas)
    case .callouts:
      for item in placed {
        if let placement = item.callout, let content = layout.callouts[item.index] {
          callouts.draw(content, at: placement, on: canvas)
        }
      }
    default:
      break
    }
  }

  /// Every place with its pin and callout, in image pixels, and the places whose callout was left out.
  func report(to result: inout RenderResult) {
    let scale = result.layout.scale
    result.layout.annotations = placed.map { item in
      let annotation = layout.annotations[item.index]
      return MapLayout.AnnotationLayout(
        id: annotation.identifier, title: annotation.title, subtitle: annotation.subtitle,
        coordinate: annotation.coordinate,
        point: PixelPoint(x: item.point.x * scale, y: item.point.y * scale),
        pin: layout.pin.extent.offsetBy(dx: item.point.x, dy: item.point.y).scaled(by: scale),
        callout: item.callout?.extent.scaled(by: scale), number: numbering.number(of: item.index))
    }
    result.layout.droppedCallouts = dropped.map { layout.annotations[$0].identifier }
  }
}
