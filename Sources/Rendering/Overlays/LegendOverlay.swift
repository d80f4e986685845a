import MapMath

/// The legend: names the places numbered in their pins (`PlaceNumbering`, filled as the places are placed)
/// and, when the style colours pins by category, shows each category's colour. It goes to the first
/// corner where it covers nothing claimed — no pin, callout or other plate; with no corner free it asks
/// the fit for room beside its preferred corner, and once given room, cuts its rows until it fits a free
/// corner (its last line then counts the places it leaves out, and the render says so).
struct LegendOverlay: MapOverlay {
  let style: Style
  let numbering: PlaceNumbering
  /// True when the category swatches are shown (the style colours pins by category).
  let showsCategories: Bool
  let measuring: MeasuringContext
  /// The last line of a legend cut short.
  var moreText: (Int) -> String = { "… and \($0) more" }
  let placer: CornerPlacer
  /// The height the title plate and its margin take at the top (0 without a title).
  let titleBand: Double
  static let corners: [PlateCorner] = [.topRight, .topLeft, .bottomLeft, .bottomRight]
  /// The most category swatches; more categories are rare, and their pins keep their colours.
  static let maximumSwatches = 12

  /// The places drawn as pins, which the numbers refer to.
  private var annotations: [any Annotation] { numbering.annotations }

  private(set) var rect: PixelRect?
  private var plate: LegendPlate?
  private var shown = 0
  private var categories: [(name: String, color: Color)] = []
  /// Room asked of the fit, and the corner beside it, once a full legend found no free corner.
  private(set) var missingRoom: [EdgeRoom] = []
  private var roomCorner: (corner: PlateCorner, size: PixelSize)?

  init(
    style: Style, numbering: PlaceNumbering, showsCategories: Bool,
    imageSize: PixelSize, titleBand: Double = 0, measuring: MeasuringContext
  ) {
    self.titleBand = titleBand
    self.style = style
    self.numbering = numbering
    self.showsCategories = showsCategories
    self.measuring = measuring
    placer = CornerPlacer(imageSize: imageSize, margin: PlateSpacing.margin)
  }

  /// On the refitted camera, the corner the fit made room beside, so that callouts keep clear of it.
  mutating func reserve(on camera: Camera, around others: [PixelRect]) -> [PixelRect] {
    rect = nil
    guard let roomCorner else { return [] }
    return [position(for: roomCorner.size, in: roomCorner.corner, avoiding: others)[0]]
  }

  /// Where a legend of `size` may sit in `corner`: in the corner, and for a top corner also under the
  /// title's band; the first that covers none of `others` first.
  private func position(for size: PixelSize, in corner: PlateCorner, avoiding others: [PixelRect])
    -> [PixelRect]
  {
    var candidates = [placer.rect(for: size, in: corner)]
    if titleBand > 0 && (corner == .topLeft || corner == .topRight) {
      candidates.append(candidates[0].offsetBy(dx: 0, dy: titleBand))
    }
    let free = candidates.filter { candidate in !others.contains { $0.intersects(candidate) } }
    return free + candidates.filter { !free.contains($0) }
  }

  mutating func settle(on camera: Camera, around others: [PixelRect]) -> [PixelRect]? {
    let numbered = numbering.indices
    let swatches = showsCategories ? categorySwatches(on: camera) : []
    plate = nil
    shown = 0
    categories = Array(swatches.prefix(LegendOverlay.maximumSwatches))
    guard !numbered.isEmpty || !swatches.isEmpty else { return [] }
    // Rows beyond the image's height could never show: not measured at all.
    let rowRoom = placer.imageSize.height - 2 * placer.margin - 2 * LegendPlate.padding(style)
    let swatchRows = categories.count
    let dividers = numbered.isEmpty || swatches.isEmpty ? 0 : LegendPlate.dividerSpace
    let fitting = Int(max((rowRoom - dividers) / LegendPlate.rowHeight, 0)) - swatchRows
    let fullLimit = numbered.count <= fitting ? numbered.count : max(fitting - 1, 0)
    var limit = fullLimit
    missingRoom = []
    while true {
      let candidate = makePlate(numbered, limit: limit, swatches: categories)
      if let free = firstFree(for: candidate.size, avoiding: others) {
        plate = candidate
        shown = limit
        rect = free
        return [free]
      }
      if limit == fullLimit, let corner = LegendOverlay.corners.first {
        // Not room enough anywhere for every row: the fit may make room beside the preferred corner.
        roomCorner = (corner, candidate.size)
        missingRoom = EdgeRoom.options(
          beside: corner, size: candidate.size, margin: placer.margin, topBand: titleBand)
      }
      if limit == 0 { return [] }
      limit -= 1
    }
  }

  /// The first place for a legend of `size` that covers nothing: each corner in order, a top corner also
  /// just under the title's band.
  private func firstFree(for size: PixelSize, avoiding others: [PixelRect]) -> PixelRect? {
    let image = PixelRect(x: 0, y: 0, width: placer.imageSize.width, height: placer.imageSize.height)
    for corner in LegendOverlay.corners {
      if let free = position(for: size, in: corner, avoiding: others).first(where: { candidate in
        image.contains(candidate) && !others.contains { $0.intersects(candidate) }
      }) {
        return free
      }
    }
    return nil
  }

  private func makePlate(_ numbered: [Int], limit: Int, swatches: [(name: String, color: Color)])
    -> LegendPlate
  {
    let entries = numbered.prefix(limit).enumerated().map { offset, index in
      let annotation = annotations[index]
      // With the category swatches below, a row's colour names its category.
      return LegendPlate.Entry(
        number: offset + 1, title: annotation.title, category: swatches.isEmpty ? annotation.subtitle : nil,
        color: style.pin.color(forCategory: annotation.subtitle))
    }
    return LegendPlate(
      entries: entries, hidden: numbered.count - limit, swatches: swatches, style: style,
      moreText: moreText, measuring: measuring)
  }

  /// The categories of the places in the image, by name, each with its pin colour.
  private func categorySwatches(on camera: Camera) -> [(name: String, color: Color)] {
    let image = PixelRect(x: 0, y: 0, width: camera.size.width, height: camera.size.height)
    var seen: [String: String] = [:]
    for annotation in annotations {
      guard let category = annotation.subtitle, !category.isEmpty,
        image.contains(camera.point(for: annotation.coordinate))
      else { continue }
      let key = category.lowercased()
      if seen[key] == nil { seen[key] = category }
    }
    return seen.values.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }.map {
      ($0, style.pin.color(forCategory: $0))
    }
  }

  /// The numbered places the legend has no row for.
  var shortfall: Int { numbering.indices.count - shown }

  var warnings: [RenderWarning] {
    let total = numbering.indices.count
    guard total > 0, shown < total else { return [] }
    return [.legendShortened(shown: shown, total: total)]
  }

  var drawLevels: [DrawLevel] { [.plates] }

  func draw(_ level: DrawLevel, on canvas: Canvas) {
    guard let rect, let plate else { return }
    plate.draw(in: rect, on: canvas)
  }

  func report(to result: inout RenderResult) {
    guard let rect else { return }
    let scale = result.layout.scale
    let rows = numbering.indices.prefix(shown).enumerated().map { offset, index in
      MapLayout.LegendLayout.Row(
        number: offset + 1, id: annotations[index].identifier, title: annotations[index].title,
        category: annotations[index].subtitle)
    }
    result.layout.legend = MapLayout.LegendLayout(
      rect: rect.scaled(by: scale), rows: rows, more: numbering.indices.count - shown,
      categories: categories.map { MapLayout.LegendLayout.CategorySwatch(name: $0.name, color: $0.color) })
    result.layout.plates.append(MapLayout.PlateLayout(kind: "legend", rect: rect.scaled(by: scale)))
  }
}

/// Where the map's plates sit: this far in from the image's edges.
enum PlateSpacing {
  static let margin = 10.0
}
