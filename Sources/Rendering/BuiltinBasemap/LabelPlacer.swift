import MapMath

/// A basemap label waiting for a place: its anchor and the size of its text, in points.
struct LabelCandidate {
  enum Kind: Int, Comparable {
    /// Placed before every city: a country's name, centred on its label point.
    case country = 0
    case city = 1

    static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
  }

  var kind: Kind
  var name: String
  /// Larger is more important.
  var rank: Double
  var anchor: PixelPoint
  var textSize: PixelSize
  /// A city's dot; 0 draws no dot and centres the text on the anchor.
  var dotRadius: Double = 0
  /// The feature the candidate names: of the candidates of one group (its world copies, a country's
  /// pieces) only the first placed is drawn.
  var group = 0
  /// Among a group's candidates, smaller first: the part of the feature, then the distance to the middle of
  /// the view (in points, across plus down).
  var preference: (part: Int, distance: Double) = (0, 0)
  /// One of the few largest cities of the view, placed before the countries: a country's name can move
  /// aside, Delhi cannot.
  var leads = false
}

/// A label as placed: its text block and its dot, in points.
struct PlacedLabel: Equatable {
  /// The candidate's index in the list given to `LabelPlacer.place`.
  var index: Int
  var text: PixelRect
  var dot: PixelRect?

  /// Everything the label covers.
  var extent: PixelRect { dot.map { text.union($0) } ?? text }
}

/// Places basemap labels, most important first, where they collide with nothing placed before them: other
/// labels (text and dots), and the fixed obstacles (pins, callouts, the user dot, the attribution). Every
/// label stays inside the image. Everything is in points.
struct LabelPlacer {
  /// Where labels may go: the image, less a small margin.
  let bounds: PixelRect
  /// Air kept between a label and an obstacle.
  let gap: Double
  /// Air kept between two labels: more than `gap`, so that names do not run together into a wall of text.
  let spacing: Double
  /// Between the dot and the text of a city.
  let dotGap: Double
  private var obstacles: RectIndex
  private var labels: RectIndex
  private(set) var placed: [PlacedLabel] = []

  init(
    size: PixelSize, obstacles: [PixelRect], margin: Double = 2, gap: Double = 2, spacing: Double = 6,
    dotGap: Double = 2.5
  ) {
    bounds = PixelRect(x: 0, y: 0, width: size.width, height: size.height).insetBy(dx: margin, dy: margin)
    self.obstacles = RectIndex(bounds: bounds)
    labels = RectIndex(bounds: bounds)
    self.gap = gap
    self.spacing = spacing
    self.dotGap = dotGap
    for obstacle in obstacles { self.obstacles.insert(obstacle, owner: -1) }
  }

  /// True when `rect` keeps its distance from the obstacles (`gap`) and the labels (`labelDistance`).
  private func isFree(_ rect: PixelRect, labelDistance: Double) -> Bool {
    !obstacles.intersects(rect.insetBy(dx: -gap, dy: -gap))
      && !labels.intersects(rect.insetBy(dx: -labelDistance, dy: -labelDistance))
  }

  /// The order labels are placed in: the leading cities, countries, then the other cities; within each,
  /// higher rank first, then by name, then by position, so that the same candidates always give the same
  /// map.
  static func order(_ candidates: [LabelCandidate]) -> [Int] {
    candidates.indices.sorted { i, j in
      let a = candidates[i]
      let b = candidates[j]
      if a.leads != b.leads { return a.leads }
      if a.kind != b.kind { return a.kind < b.kind }
      if a.rank != b.rank { return a.rank > b.rank }
      if a.name != b.name { return a.name < b.name }
      if a.group != b.group { return a.group < b.group }
      if a.preference != b.preference { return a.preference < b.preference }
      if a.anchor.x != b.anchor.x { return a.anchor.x < b.anchor.x }
      if a.anchor.y != b.anchor.y { return a.anchor.y < b.anchor.y }
      return i < j
    }
  }

  /// Places every candidate that fits, in `order`'s order; returns those placed, in that order.
  mutating func place(_ candidates: [LabelCandidate]) -> [PlacedLabel] {
    var result: [PlacedLabel] = []
    for index in LabelPlacer.order(candidates) {
      if let label = place(candidates[index], index: index) { result.append(label) }
    }
    return result
  }

  /// True when a city's dot alone could go at `anchor`: a cheap test before its text is measured.
  func dotFits(at anchor: PixelPoint, radius: Double) -> Bool {
    let dot = LabelPlacer.dotRect(at: anchor, radius: radius)
    return bounds.contains(dot) && isFree(dot, labelDistance: gap)
  }

  /// Places one candidate if it fits anywhere; it then blocks everything placed after it.
  mutating func place(_ candidate: LabelCandidate, index: Int) -> PlacedLabel? {
    var dot: PixelRect?
    if candidate.dotRadius > 0 {
      guard dotFits(at: candidate.anchor, radius: candidate.dotRadius) else { return nil }
      dot = LabelPlacer.dotRect(at: candidate.anchor, radius: candidate.dotRadius)
    }
    let chosen = positions(for: candidate).first { text in
      bounds.contains(text) && isFree(text, labelDistance: spacing)
    }
    guard let chosen else { return nil }
    labels.insert(chosen, owner: index)
    if let dot { labels.insert(dot, owner: index) }
    let label = PlacedLabel(index: index, text: chosen, dot: dot)
    placed.append(label)
    return label
  }

  /// Where the text may go, best first: a city's text right of its dot, then left, above, below; a
  /// country's name centred on its anchor, else moved up or down by a line or two (a country is large, its
  /// name still names it there); a city without a dot centred on its anchor.
  func positions(for candidate: LabelCandidate) -> [PixelRect] {
    let size = candidate.textSize
    let anchor = candidate.anchor
    guard candidate.dotRadius > 0 else {
      let centred = PixelRect(
        x: anchor.x - size.width / 2, y: anchor.y - size.height / 2, width: size.width, height: size.height)
      guard candidate.kind == .country else { return [centred] }
      let line = min(size.height, 16)
      return [0, -1, 1, -2, 2].map { centred.offsetBy(dx: 0, dy: $0 * line) }
    }
    let reach = candidate.dotRadius + dotGap
    let middleY = anchor.y - size.height / 2
    let middleX = anchor.x - size.width / 2
    return [
      PixelRect(x: anchor.x + reach, y: middleY, width: size.width, height: size.height),
      PixelRect(x: anchor.x - reach - size.width, y: middleY, width: size.width, height: size.height),
      PixelRect(x: middleX, y: anchor.y - reach - size.height, width: size.width, height: size.height),
      PixelRect(x: middleX, y: anchor.y + reach, width: size.width, height: size.height),
    ]
  }

  static func dotRect(at anchor: PixelPoint, radius: Double) -> PixelRect {
    // The dot's ring (half a point of halo) is part of it.
    let outer = radius + 0.75
    return PixelRect(x: anchor.x - outer, y: anchor.y - outer, width: 2 * outer, height: 2 * outer)
  }
}
