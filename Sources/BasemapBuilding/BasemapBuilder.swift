import CSV
import Foundation
import MapMath
import Tiles

/// Builds the basemap data file from Natural Earth shapefiles and a GeoNames city list: geometry kinds once
/// per band, simplified (Douglas–Peucker in world space, half a pixel at the band's detail zoom), features
/// under a pixel dropped, and everything cut into grid cells so that a small window reads only nearby
/// geometry; label kinds once, at the band from which they show.
///
/// Deterministic: the same inputs (and SQLite library) give the same bytes — fixed insertion order, no
/// timestamps, a fixed page size, `VACUUM` at the end.
public struct BasemapBuilder: Sendable {
  /// The source files; a kind whose file is nil is left out.
  public struct Inputs: Sendable, Equatable {
    /// Polygon shapefiles.
    public var land: String?
    public var lakes: String?
    /// Polyline shapefiles. The coastline is read only when `BasemapBuilder.coastlineFromLand` is false.
    public var coastline: String?
    public var countryBorders: String?
    public var stateBorders: String?
    /// A dBase table of countries (NAME, LABEL_X/LABEL_Y, MIN_LABEL, LABELRANK/SCALERANK, POP_EST), with
    /// its polygon shapefile beside it for label points the table lacks.
    public var countries: String?
    /// A CSV file of cities with a header naming `name`, `latitude`, `longitude`, `population` (and
    /// `countrycode`).
    public var cities: String?
    /// A Marble PN2 file of river and lake centre lines (Natural Earth 1:50 m, from `marble-qt-data`).
    public var rivers: String?
    /// A GeoPackage of country polygons with names (table `countries`): the countries' other pieces and
    /// the small countries `countries` lacks.
    public var countryPieces: String?
    /// A CSV file of capitals (`countrycode`, `capital`): they rank above cities of their size.
    public var capitals: String?

    public init(
      land: String? = nil, lakes: String? = nil, coastline: String? = nil, countryBorders: String? = nil,
      stateBorders: String? = nil, countries: String? = nil, countryPieces: String? = nil,
      cities: String? = nil,
      capitals: String? = nil, rivers: String? = nil
    ) {
      self.land = land
      self.lakes = lakes
      self.coastline = coastline
      self.countryBorders = countryBorders
      self.stateBorders = stateBorders
      self.countries = countries
      self.countryPieces = countryPieces
      self.cities = cities
      self.capitals = capitals
      self.rivers = rivers
    }

    /// The files in the shared data folder (`../shared/data`).
    public static func sharedData(_ folder: String) -> Inputs {
      let base = URL(fileURLWithPath: folder)
      func file(_ path: String) -> String { base.appendingPathComponent(path).path }
      return Inputs(
        land: file("naturalearth/10m/ne_10m_land.shp"),
        lakes: file("naturalearth/10m/ne_10m_lakes.shp"),
        coastline: file("naturalearth/10m/ne_10m_coastline.shp"),
        countryBorders: file("naturalearth/10m/ne_10m_admin_0_boundary_lines_land.shp"),
        stateBorders: file("naturalearth/10m/ne_10m_admin_1_states_provinces_lines.shp"),
        countries: file("naturalearth/110m/ne_110m_admin_0_countries.dbf"),
        countryPieces: file("naturalearth/world_map.gpkg"),
        cities: file("places/cities15000.csv"))
    }
  }

  public var inputs: Inputs
  /// Extra `meta` entries (the sources' packages and versions, …), written with the builder's own.
  public var metadata: [String: String]
  /// The attribution the renderer draws.
  public var attribution = "Natural Earth · GeoNames (CC BY 4.0)"
  /// The first band that has state and province borders.
  public var firstStateBorderBand = 2
  /// The first band that has rivers (zoom 5: a country's rivers; the world map would be a web of them).
  public var firstRiverBand = 2
  /// Grid cells per world side for each band.
  public var cellsPerSide = [4, 8, 16, 32, 64]
  /// The simplification tolerance, in pixels at the band's detail zoom.
  public var tolerance = 0.5
  /// Features whose box is smaller than this on both sides, in pixels at the band's detail zoom, are
  /// dropped.
  public var minimumSize = 1.0
  /// A feature's geometry for one band also serves the bands below while it has at most this many times
  /// their points.
  public var shareRatio = 2.0
  /// True (the default): no coastline rows; readers take the land rings' edges (see `BasemapFileFormat`).
  /// False: coastlines from `inputs.coastline`, simplified on their own.
  public var coastlineFromLand = true
  /// Cities with fewer people are left out.
  public var smallestCity = 0.0
  /// SQLite's page size (part of the bytes written). Small pages waste less at the end of each large
  /// geometry's overflow chain and in R-tree nodes: 1 KiB makes the file about 6 % smaller than 4 KiB.
  public var pageSize = 1024

  public init(inputs: Inputs, metadata: [String: String] = [:]) {
    self.inputs = inputs
    self.metadata = metadata
  }

  /// The band of a city label: ≥ 5 M band 0, ≥ 1 M band 1, ≥ 300 k band 2, ≥ 100 k band 3, the rest 4.
  public static func cityBand(population: Double) -> Int {
    [5_000_000, 1_000_000, 300_000, 100_000].firstIndex { population >= $0 } ?? 4
  }

  /// The band of a country label: from Natural Earth's MIN_LABEL (the first zoom to label the country at)
  /// when given, else from LABELRANK (≤ 3 band 0, 4–5 band 1, 6 band 2, higher band 3).
  public static func countryBand(minimumLabelZoom: Double?, labelRank: Double?) -> Int {
    if let minimumLabelZoom { return BasemapBand.band(forZoom: minimumLabelZoom) }
    guard let labelRank else { return 2 }
    switch labelRank {
    case ..<3.5: return 0
    case ..<5.5: return 1
    case ..<6.5: return 2
    default: return 3
    }
  }

  /// A country label's rank: larger for a better (smaller) label rank, then for a larger population.
  public static func countryRank(labelRank: Double?, population: Double?) -> Double {
    let rank = min(max(labelRank ?? 5, 0), 10)
    return (10 - rank) * 10 + log10(1 + max(population ?? 0, 0))
  }

  /// Writes the data file at `path` (replacing it; written beside it first, then renamed) and returns
  /// what it holds. `progress` hears one line per source read.
  public func build(to path: String, progress: (String) -> Void = { _ in }) throws -> BasemapBuildReport {
    let target = URL(fileURLWithPath: path)
    try? FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    let temporary = target.path + ".partial"
    try? FileManager.default.removeItem(atPath: temporary)
    var report = BasemapBuildReport()
    do {
      let writer = try BasemapWriter(path: temporary, pageSize: pageSize)
      var nextID: Int64 = 1
      func write(
        _ kind: BasemapKind, bands: ClosedRange<Int>, name: String?, rank: Double, parts: [[WorldPoint]]
      ) throws {
        let geometry = BasemapGeometry.encode(parts)
        let code = BasemapFileFormat.kindCodes[kind]!
        let lowest = BasemapFileFormat.layer(code: code, band: bands.lowerBound)
        let highest = BasemapFileFormat.layer(code: code, band: bands.upperBound)
        try writer.insert(
          id: nextID, kind: kind, band: bands.lowerBound, name: name, rank: rank, geometry: geometry,
          box: Self.quantizedBox(parts), layers: lowest...highest)
        nextID += 1
        report.add(kind, bands: bands, points: parts.reduce(0) { $0 + $1.count }, bytes: geometry.count)
      }

      for kind in BasemapKind.allCases {
        switch kind {
        case .river:
          guard let file = inputs.rivers else { continue }
          progress("reading \(file)")
          let lines = try Self.riverLines(file)
          for (key, parts) in cellFeatures(lines, polygons: false, bands: firstRiverBand..<BasemapBand.count)
          {
            try write(kind, bands: key.bands, name: nil, rank: 0, parts: parts)
          }
        case .land, .lake, .coastline, .stateBorder, .countryBorder:
          let file: String? =
            switch kind {
            case .land: inputs.land
            case .lake: inputs.lakes
            case .coastline: inputs.coastline
            case .stateBorder: inputs.stateBorders
            default: inputs.countryBorders
            }
          guard let file, !(kind == .coastline && coastlineFromLand) else { continue }
          progress("reading \(file)")
          let isPolygon = kind == .land || kind == .lake
          let shapefile = try Shapefile(path: file)
          let features =
            try isPolygon ? Self.polygons(shapefile, path: file) : Self.lines(shapefile, path: file)
          let first = kind == .stateBorder ? max(firstStateBorderBand, 0) : 0
          for (key, parts) in cellFeatures(features, polygons: isPolygon, bands: first..<BasemapBand.count) {
            try write(kind, bands: key.bands, name: nil, rank: 0, parts: parts)
          }
        case .countryLabel:
          guard let file = inputs.countries else { continue }
          progress("reading \(file)")
          let pieces = try inputs.countryPieces.map { path in
            progress("reading \(path)")
            return try CountryPieces.read(path)
          }
          for label in try Self.countryLabels(file, pieces: pieces ?? []) {
            try write(
              kind, bands: label.band...label.band, name: label.name, rank: label.rank,
              parts: [[label.point]] + label.otherPoints.map { [$0] })
          }
        case .cityLabel:
          guard let file = inputs.cities else { continue }
          progress("reading \(file)")
          let capitals = try inputs.capitals.map { try Self.capitals($0) } ?? []
          for label in try Self.cityLabels(file, capitals: capitals) where label.rank >= smallestCity {
            try write(
              kind, bands: label.band...label.band, name: label.name, rank: label.rank, parts: [[label.point]]
            )
          }
        }
      }

      var meta = metadata
      meta["format"] = String(BasemapFileFormat.version)
      var codes = BasemapFileFormat.kindCodes
      if coastlineFromLand {
        codes[.coastline] = nil
        meta["coastline"] = BasemapFileFormat.coastlineFromLand
      }
      meta["layers"] = BasemapFileFormat.layersText(codes)
      meta["attribution"] = attribution
      meta["band_zooms"] = BasemapBand.lowerZooms.map { String(Int($0)) }.joined(separator: ",")
      meta["detail_zooms"] = (0..<BasemapBand.count).map { String(Int(BasemapBand.detailZoom(ofBand: $0))) }
        .joined(separator: ",")
      meta["cells_per_side"] = cellsPerSide.map(String.init).joined(separator: ",")
      meta["tolerance_px"] = String(tolerance)
      meta["minimum_size_px"] = String(minimumSize)
      meta["state_borders_from_band"] = String(firstStateBorderBand)
      meta["rivers_from_band"] = String(firstRiverBand)
      meta["share_ratio"] = String(shareRatio)
      meta["smallest_city"] = String(Int(smallestCity))
      for (key, value) in meta.sorted(by: { $0.key < $1.key }) { try writer.insertMeta(key, value) }
      try writer.finish()
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
    _ = try? FileManager.default.removeItem(atPath: target.path)
    do {
      try FileManager.default.moveItem(atPath: temporary, toPath: target.path)
    } catch {
      throw BasemapBuildError(target.path, "cannot write the file (\(error.localizedDescription))")
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: target.path)
    report.fileSize = (attributes?[.size] as? NSNumber)?.intValue ?? 0
    return report
  }

  // MARK: Per band

  private func pixel(band: Int) -> Double {
    1 / (256 * pow(2, BasemapBand.detailZoom(ofBand: band)))
  }

  private func cells(band: Int) -> Int {
    cellsPerSide[min(band, cellsPerSide.count - 1)]
  }

  /// Where the pieces of a kind's features go: the bands they serve and their grid cell.
  struct CellKey: Hashable, Comparable {
    var bands: ClosedRange<Int>
    var row: Int
    var column: Int

    static func < (a: CellKey, b: CellKey) -> Bool {
      (a.bands.lowerBound, a.bands.upperBound, a.row, a.column)
        < (b.bands.lowerBound, b.bands.upperBound, b.row, b.column)
    }
  }

  /// A kind's features (polygons as outer ring then holes, or a line record's parts) simplified for each
  /// band, cut into the band's grid, and gathered per cell: one feature per cell and band range, in a fixed
  /// order (bands, then cells row by row; parts in source order).
  ///
  /// A feature's version for a band also serves the bands below it while it has at most `shareRatio`
  /// times the points of theirs (a small island looks the same at every band): stored once, for a range
  /// of bands, on the grid of the highest.
  func cellFeatures(_ features: [[[WorldPoint]]], polygons: Bool, bands: Range<Int>) -> [(
    key: CellKey, parts: [[WorldPoint]]
  )] {
    var gathered: [CellKey: [[WorldPoint]]] = [:]
    for feature in features {
      let versions = bands.map { band in
        polygons ? shapePolygon(feature, band: band) : shapeLines(feature, band: band)
      }
      var highest = bands.upperBound - 1
      while highest >= bands.lowerBound {
        let version = versions[highest - bands.lowerBound]
        let count = version.reduce(0) { $0 + $1.count }
        var lowest = highest
        while lowest > bands.lowerBound, count > 0 {
          let below = versions[lowest - 1 - bands.lowerBound].reduce(0) { $0 + $1.count }
          guard below > 0, Double(count) <= shareRatio * Double(below) else { break }
          lowest -= 1
        }
        if count > 0 {
          let grid = cells(band: highest)
          let pieces =
            polygons
            ? BasemapShaping.cutPolygon(version, cellsPerSide: grid)
            : BasemapShaping.cutLines(version, cellsPerSide: grid)
          for piece in pieces {
            gathered[CellKey(bands: lowest...highest, row: piece.row, column: piece.column), default: []]
              .append(contentsOf: piece.parts)
          }
        }
        highest = lowest - 1
      }
    }
    return gathered.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// One polygon (outer ring, then holes) simplified for a band: rings under the minimum size are dropped,
  /// and the whole polygon when its outer ring is.
  func shapePolygon(_ polygon: [[WorldPoint]], band: Int) -> [[WorldPoint]] {
    let pixel = pixel(band: band)
    var rings: [[WorldPoint]] = []
    for (index, ring) in polygon.enumerated() {
      guard let box = WorldBox([ring]), box.extent >= minimumSize * pixel,
        let simplified = Clipping.closedRing(
          BasemapShaping.simplify(ring, tolerance: tolerance * pixel)),
        (BasemapShaping.signedArea(simplified) > 0) == (index == 0)
      else {
        if index == 0 { return [] }
        continue
      }
      rings.append(coastlineFromLand ? offGridLines(simplified) : simplified)
    }
    return rings
  }

  /// The ring with every edge that lies exactly on an inner line of a grid (say, a coast along the
  /// equator) moved off it by one quantization step (60 cm at the equator): readers take land edges on
  /// those lines for cuts, not coast. Edges on the world's edges stay: they are cuts (the 180° meridian,
  /// the clamped south of Antarctica).
  func offGridLines(_ ring: [WorldPoint]) -> [WorldPoint] {
    let step = 1 / BasemapGeometry.quantization
    let sides = cellsPerSide.map(Double.init)
    func onInnerLine(_ value: Double) -> Bool {
      value > 0 && value < 1 && sides.contains { side in (value * side).rounded() == value * side }
    }
    var ring = ring
    for index in 0..<(ring.count - 1) {
      let a = ring[index]
      var b = ring[index + 1]
      if a.x == b.x && onInnerLine(a.x) {
        b.x += step
      } else if a.y == b.y && onInnerLine(a.y) {
        b.y += step
      } else {
        continue
      }
      ring[index + 1] = b
      if index + 1 == ring.count - 1 { ring[0] = b }
    }
    return ring
  }

  /// One record's lines simplified for a band; parts under the minimum size are dropped.
  func shapeLines(_ parts: [[WorldPoint]], band: Int) -> [[WorldPoint]] {
    let pixel = pixel(band: band)
    return parts.compactMap { part -> [WorldPoint]? in
      guard let box = WorldBox([part]), box.extent >= minimumSize * pixel else { return nil }
      let simplified = BasemapShaping.simplify(part, tolerance: tolerance * pixel)
      return simplified.count >= 2 ? simplified : nil
    }
  }
}
