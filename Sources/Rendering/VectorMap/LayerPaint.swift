import MapStyle

extension Color {
  /// A style colour with an opacity folded into its alpha.
  init(_ color: StyleColor, opacity: Double = 1) {
    self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * opacity)
  }

  /// How much this colour, painted over an opaque `ground`, changes it: the largest channel difference
  /// times this colour's alpha, 0…1.
  func contrast(with ground: Color) -> Double {
    max(abs(red - ground.red), abs(green - ground.green), abs(blue - ground.blue)) * alpha
  }
}

/// How the features of one fill group are painted; features with equal paint share one path.
struct FillPaint: Hashable {
  var color: Color
  /// The one-pixel line along the edge of an antialiased fill (opacity folded in).
  var outline: Color?
}

/// How the features of one line group are painted; features with equal paint share one path.
struct LinePaint: Hashable {
  var color: Color
  /// Points.
  var width: Double
  /// Points between the two lines of a casing; 0 for one line.
  var gap: Double
  /// Dash and gap lengths in points; nil for a solid line.
  var dashes: [Double]?
  var cap: LineCap
  var join: LineJoin
  var miterLimit: Double
}

/// A fill layer's paint properties at the map's style zoom.
struct FillPainter {
  let color: ResolvedStyleProperty<StyleColor>
  let opacity: ResolvedStyleProperty<Double>
  let outline: ResolvedStyleProperty<StyleColor?>
  let antialias: ResolvedStyleProperty<Bool>

  init(_ style: FillStyle, zoom: Double) {
    color = style.color.resolved(atZoom: zoom)
    opacity = style.opacity.resolved(atZoom: zoom)
    outline = style.outlineColor.resolved(atZoom: zoom)
    antialias = style.antialias.resolved(atZoom: zoom)
  }

  /// Whether any property reads feature ids (so features with equal tags may differ).
  var readsFeatureID: Bool {
    color.readsFeatureID || opacity.readsFeatureID || outline.readsFeatureID || antialias.readsFeatureID
  }

  /// The paint for one feature; nil when it is invisible.
  func paint(for feature: MapFeature) -> FillPaint? {
    let opacity = opacity.value(for: feature)
    let fill = Color(color.value(for: feature), opacity: opacity)
    // MapLibre draws an antialiased fill's edge as a line two pixels wide fading out from the edge, in
    // the outline colour or else the fill colour (so its fills reach half a pixel further than an exact
    // edge): a one-pixel stroke along the edge looks the same.
    var outlineColor: Color?
    if antialias.value(for: feature) {
      outlineColor = outline.value(for: feature).map { Color($0, opacity: opacity) } ?? fill
    }
    guard fill.alpha > 0 || (outlineColor?.alpha ?? 0) > 0 else { return nil }
    return FillPaint(color: fill, outline: outlineColor)
  }
}

/// A line layer's paint and layout properties at the map's style zoom.
struct LinePainter {
  /// Wider lines are drawn this wide: a style cannot make Cairo stroke absurd widths.
  static let maximumWidth = 1024.0
  /// Dash patterns longer than this are drawn solid.
  static let maximumDashCount = 32

  let color: ResolvedStyleProperty<StyleColor>
  let opacity: ResolvedStyleProperty<Double>
  let width: ResolvedStyleProperty<Double>
  /// The width at the style zoom rounded down: MapLibre scales dashes by it, so that a dash pattern
  /// does not creep while zooming between whole zooms.
  let floorWidth: ResolvedStyleProperty<Double>
  let gap: ResolvedStyleProperty<Double>
  let dashes: ResolvedStyleProperty<[Double]?>
  let cap: ResolvedStyleProperty<LineCap>
  let join: ResolvedStyleProperty<LineJoin>
  let miterLimit: ResolvedStyleProperty<Double>

  init(_ style: LineStyle, zoom: Double) {
    color = style.color.resolved(atZoom: zoom)
    opacity = style.opacity.resolved(atZoom: zoom)
    width = style.width.resolved(atZoom: zoom)
    floorWidth = style.width.resolved(atZoom: zoom.rounded(.down))
    gap = style.gapWidth.resolved(atZoom: zoom)
    dashes = style.dashArray.resolved(atZoom: zoom)
    cap = style.cap.resolved(atZoom: zoom)
    join = style.join.resolved(atZoom: zoom)
    miterLimit = style.miterLimit.resolved(atZoom: zoom)
  }

  /// Whether any property reads feature ids (so features with equal tags may differ).
  var readsFeatureID: Bool {
    [
      color.readsFeatureID, opacity.readsFeatureID, width.readsFeatureID, gap.readsFeatureID,
      dashes.readsFeatureID, cap.readsFeatureID, join.readsFeatureID, miterLimit.readsFeatureID,
    ].contains(true)
  }

  /// The paint for one feature; nil when it is invisible.
  func paint(for feature: MapFeature) -> LinePaint? {
    let color = Color(color.value(for: feature), opacity: opacity.value(for: feature))
    let width = min(width.value(for: feature), Self.maximumWidth)
    guard color.alpha > 0, width > 0 else { return nil }
    let cap = cap.value(for: feature)
    var dashes: [Double]?
    if let pattern = self.dashes.value(for: feature) {
      dashes = Self.dashLengths(
        pattern, unit: min(floorWidth.value(for: feature), Self.maximumWidth), width: width, cap: cap)
    }
    return LinePaint(
      color: color, width: width, gap: min(gap.value(for: feature), Self.maximumWidth), dashes: dashes,
      cap: cap, join: join.value(for: feature), miterLimit: miterLimit.value(for: feature))
  }

  /// A style's dash pattern (in line widths) as Cairo dash lengths in points; nil (a solid line) for a
  /// pattern Cairo would refuse or that has no gaps.
  ///
  /// Cairo adds the cap to both ends of every dash, MapLibre draws round and square caps inside the
  /// dash: dashes are shortened and gaps lengthened by a width to look the same.
  static func dashLengths(_ pattern: [Double], unit: Double, width: Double, cap: LineCap) -> [Double]? {
    guard !pattern.isEmpty, pattern.count <= maximumDashCount,
      pattern.allSatisfy({ $0.isFinite && $0 >= 0 }), unit > 0
    else { return nil }
    var lengths = pattern.map { $0 * unit }
    if lengths.count % 2 == 1 { lengths += lengths }
    let total = lengths.reduce(0, +)
    // No gap at all, or a pattern so fine that it reads as a solid line anyway.
    guard total > 0, stride(from: 1, to: lengths.count, by: 2).contains(where: { lengths[$0] > 0 }),
      total >= 0.5
    else { return nil }
    if cap != .butt {
      for index in stride(from: 0, to: lengths.count, by: 2) {
        let shortened = max(lengths[index] - width, 0)
        lengths[index + 1] += lengths[index] - shortened
        lengths[index] = shortened
      }
    }
    return lengths
  }
}
