import Foundation
import MapMath
import Tiles

/// The names of countries and cities on the built-in basemap: candidates from the source's label points in
/// view, measured and placed by `LabelPlacer` (most important first, around the overlays), and how each
/// placed name is set.
struct BasemapLabels {
  /// Past this zoom a country's name says little (the view is inside one country).
  static let countryLabelMaximumZoom = 8.0
  /// From this zoom on a city's name alone marks it, centred on its point, without a dot, set like the name of
  /// an area (the view is inside the city).
  static let cityDotMaximumZoom = 12.0
  /// Points of image area per city name at most, so that a crowded region does not become a wall of names.
  static let areaPerCityLabel = 15_000.0
  /// Points of image area per city placed before the countries (at least 2): the largest of the view, on
  /// maps of the world and of continents (below `leadingCityMaximumZoom`: at zoom 3 and 4 the names of
  /// small countries still crowd out Cairo and Delhi), where country names would otherwise cover Delhi
  /// and Moscow; closer in, countries come first as their names move less.
  static let areaPerLeadingCity = 40_000.0
  static let leadingCityMaximumZoom = 5.0

  /// A name as placed, in points, with the lines of text that draw it.
  struct Entry {
    var label: PlacedLabel
    var kind: BasemapLabel.Kind
    var text: String
    var lines: [TextLayout]

    /// Each line with its top-left corner (points): centred in the block, one under another.
    var placedLines: [(line: TextLayout, origin: PixelPoint)] {
      var y = label.text.minY
      return lines.map { line in
        defer { y += line.size.height }
        return (line, PixelPoint(x: label.text.midX - line.size.width / 2, y: y))
      }
    }
  }

  let zoom: Double
  let size: PixelSize
  let style: BasemapStyle
  private(set) var entries: [Entry] = []

  init(zoom: Double, size: PixelSize, style: BasemapStyle) {
    self.zoom = zoom
    self.size = size
    self.style = style
  }

  /// Zoomed into a city: its name is set like the name of the area.
  var isAreaZoom: Bool { zoom >= BasemapLabels.cityDotMaximumZoom }

  /// The label points of `band` inside the view (not merely its clip margin), unmeasured. A feature's
  /// parts are its places in order of preference (a country's label point, then its other pieces, largest
  /// first): the first part in view, in every world copy, is a candidate of the feature's `group`, the
  /// copies preferred by nearness to the middle of the view: `place` names a feature once, at the first
  /// that fits.
  static func candidates(in view: BasemapView, band: Int) throws -> [LabelCandidate] {
    var points: [LabelCandidate] = []
    var groups: [String: Int] = [:]
    let bounds = PixelRect(x: 0, y: 0, width: view.size.width, height: view.size.height)
    for window in view.windows {
      let projection = view.projection(for: window)
      for kind in [BasemapKind.countryLabel, .cityLabel] {
        if kind == .countryLabel && view.zoom >= countryLabelMaximumZoom { continue }
        for feature in try view.features(kind, band: band, window) {
          guard let name = feature.name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
            let first = feature.parts.first?.first
          else { continue }
          let key = "\(kind.rawValue) \(name) \(first.x) \(first.y)"
          let group = groups[key] ?? groups.count
          groups[key] = group
          for (part, piece) in feature.parts.enumerated() {
            guard let point = piece.first else { continue }
            let anchor = projection.point(point)
            guard bounds.contains(anchor) else { continue }
            var candidate = LabelCandidate(
              kind: kind == .countryLabel ? .country : .city, name: name, rank: feature.rank, anchor: anchor,
              textSize: PixelSize(width: 0, height: 0))
            candidate.group = group
            candidate.preference = (
              part, (anchor.x - bounds.midX).magnitude + (anchor.y - bounds.midY).magnitude
            )
            points.append(candidate)
          }
        }
      }
    }
    // A piece is a place for the name only when the pieces before it are out of view: France's name goes
    // to Réunion when the map shows Réunion alone, never because it did not fit over France.
    var firstPart: [Int: Int] = [:]
    for point in points {
      firstPart[point.group] = min(firstPart[point.group] ?? .max, point.preference.part)
    }
    return points.filter { $0.preference.part == firstPart[$0.group] }
  }

  /// Measures the candidates in priority order and places those that fit.
  mutating func place(
    _ candidates: [LabelCandidate], fontFamily: String, obstacles: [PixelRect], measuring: MeasuringContext
  ) {
    var candidates = candidates
    let leading =
      zoom < BasemapLabels.leadingCityMaximumZoom
      ? max(Int(size.width * size.height / BasemapLabels.areaPerLeadingCity), 2) : 0
    var leadingGroups = Set<Int>()
    for index in LabelPlacer.order(candidates) where candidates[index].kind == .city {
      if leadingGroups.count == leading && !leadingGroups.contains(candidates[index].group) { break }
      leadingGroups.insert(candidates[index].group)
      candidates[index].leads = true
    }
    var named = Set<Int>()
    var placer = LabelPlacer(size: size, obstacles: obstacles)
    let dotRadius = zoom < BasemapLabels.cityDotMaximumZoom ? style.cityDotRadius : 0
    var cities = max(Int(size.width * size.height / BasemapLabels.areaPerCityLabel), 3)
    for index in LabelPlacer.order(candidates) {
      var candidate = candidates[index]
      if named.contains(candidate.group) { continue }
      if candidate.kind == .city {
        guard cities > 0 else { continue }
        candidate.dotRadius = dotRadius
        if dotRadius > 0 && !placer.dotFits(at: candidate.anchor, radius: dotRadius) { continue }
      }
      let text = candidate.kind == .country ? candidate.name.uppercased() : candidate.name
      let lines = measure(text, kind: candidate.kind, rank: candidate.rank, fontFamily: fontFamily, measuring)
      guard !lines.isEmpty, lines.allSatisfy({ $0.unknownGlyphs == 0 }) else { continue }
      candidate.textSize = PixelSize(
        width: lines.map(\.size.width).max() ?? 0, height: lines.reduce(0) { $0 + $1.size.height })
      guard let placed = placer.place(candidate, index: index) else { continue }
      named.insert(candidate.group)
      if candidate.kind == .city { cities -= 1 }
      entries.append(
        Entry(label: placed, kind: candidate.kind == .country ? .country : .city, text: text, lines: lines))
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
      return BasemapLabels.lines(of: text).map {
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
  func drawn(scale: Double) -> [BasemapLabel] {
    entries.map { entry in
      BasemapLabel(
        kind: entry.kind, text: entry.text, rect: entry.label.text.scaled(by: scale),
        dot: entry.label.dot?.scaled(by: scale))
    }
  }
}
