import CSQLite
import Foundation
import MapMath

/// Builds the basemap data file from Natural Earth shapefiles and a GeoNames city list: geometry kinds once
/// per band, simplified (Douglas–Peucker in world space, half a pixel at the band's detail zoom), features
/// under a pixel dropped, and everything cut into grid cells so that a small window reads only nearby
/// geometry; label kinds once, at the band from which they show.
///
/// Deterministic: the same inputs (and SQLite library) give the same bytes — fixed insertion order, no
/// timestamps, a fixed page size, `VACUUM` at the end.
@_spi(BasemapBuilding) public struct BasemapBuilder: Sendable {
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
    /// A CSV file of cities with a header naming `name`, `latitude`, `longitude`, `population`.
    public var cities: String?

    public init(
      land: String? = nil, lakes: String? = nil, coastline: String? = nil, countryBorders: String? = nil,
      stateBorders: String? = nil, countries: String? = nil, cities: String? = nil
    ) {
      self.land = land
      self.lakes = lakes
      self.coastline = coastline
      self.countryBorders = countryBorders
      self.stateBorders = stateBorders
      self.countries = countries
      self.cities = cities
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
          for label in try Self.countryLabels(file) {
            try write(
              kind, bands: label.band...label.band, name: label.name, rank: label.rank, parts: [[label.point]]
            )
          }
        case .cityLabel:
          guard let file = inputs.cities else { continue }
          progress("reading \(file)")
          for label in try Self.cityLabels(file) where label.rank >= smallestCity {
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
        let simplified = BasemapShaping.closedRing(
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

  // MARK: Sources

  /// A point projected to world space on the encoding's grid (latitudes clamped for Web Mercator,
  /// longitudes ±180 exactly at the world's edges).
  static func project(longitude: Double, latitude: Double) -> WorldPoint {
    let point = WebMercator.project(
      Coordinate(latitude: latitude, longitude: min(max(longitude, -180), 180)))
    let q = BasemapGeometry.quantization
    return WorldPoint(x: (point.x * q).rounded() / q, y: (point.y * q).rounded() / q)
  }

  static func project(_ part: [Shapefile.Point]) -> [WorldPoint] {
    BasemapShaping.withoutRepeats(part.map { project(longitude: $0.x, latitude: $0.y) })
  }

  /// The box of the parts as they will be decoded (on the 2^26 grid).
  static func quantizedBox(_ parts: [[WorldPoint]]) -> WorldBox {
    let q = BasemapGeometry.quantization
    let box = WorldBox(parts) ?? WorldBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
    return WorldBox(
      minX: (box.minX * q).rounded() / q, minY: (box.minY * q).rounded() / q,
      maxX: (box.maxX * q).rounded() / q, maxY: (box.maxY * q).rounded() / q)
  }

  /// A polygon shapefile's polygons in world space, each its outer ring then its holes. Outer rings run
  /// clockwise in the shapefile (positive area in world space, where y grows down), holes the other way;
  /// a hole joins the smallest outer ring of its record that contains it.
  public static func polygons(_ shapefile: Shapefile, path: String) throws -> [[[WorldPoint]]] {
    guard shapefile.baseShapeType == Shapefile.polygon else {
      throw BasemapBuildError(path, "expected polygons, found shape type \(shapefile.shapeType)")
    }
    var result: [[[WorldPoint]]] = []
    for record in shapefile.records {
      var outers: [(ring: [WorldPoint], box: WorldBox, area: Double)] = []
      var holes: [(ring: [WorldPoint], box: WorldBox)] = []
      for part in record.parts {
        guard let ring = BasemapShaping.closedRing(project(part)), let box = WorldBox([ring]) else {
          continue
        }
        let area = BasemapShaping.signedArea(ring)
        if area > 0 {
          outers.append((ring, box, area))
        } else if area < 0 {
          holes.append((ring, box))
        }
      }
      var polygons = outers.map { [$0.ring] }
      for hole in holes {
        let candidates = outers.indices.filter { outers[$0].box.contains(hole.box) }
        let inside = candidates.filter { BasemapShaping.contains(outers[$0].ring, hole.ring[0]) }
        if let best = (inside.isEmpty ? candidates : inside).min(by: { outers[$0].area < outers[$1].area }) {
          polygons[best].append(hole.ring)
        }
      }
      result.append(contentsOf: polygons)
    }
    return result
  }

  /// A polyline shapefile's records in world space, each a list of parts.
  public static func lines(_ shapefile: Shapefile, path: String) throws -> [[[WorldPoint]]] {
    guard shapefile.baseShapeType == Shapefile.polyline else {
      throw BasemapBuildError(path, "expected lines, found shape type \(shapefile.shapeType)")
    }
    return shapefile.records.compactMap { record in
      let parts = record.parts.map(project).filter { $0.count >= 2 }
      return parts.isEmpty ? nil : parts
    }
  }

  public struct Label: Sendable, Equatable {
    public var name: String
    public var point: WorldPoint
    public var rank: Double
    public var band: Int
  }

  /// Country labels from a Natural Earth admin-0 table: NAME (else NAME_EN, ADMIN) at LABEL_X/LABEL_Y,
  /// else at the centroid of the largest ring of the country's shape in the shapefile beside the table.
  public static func countryLabels(_ path: String) throws -> [Label] {
    let table = try DBaseTable(path: path)
    let shapePath = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("shp").path
    var shapes: Shapefile?
    func shape(_ record: Int) throws -> Shapefile.Record? {
      if shapes == nil, FileManager.default.fileExists(atPath: shapePath) {
        shapes = try Shapefile(path: shapePath)
      }
      guard let shapes, record < shapes.records.count else { return nil }
      return shapes.records[record]
    }
    var labels: [Label] = []
    for record in 0..<table.count where !table.isDeleted(record) {
      guard
        let name = table.string(record, "NAME") ?? table.string(record, "NAME_EN")
          ?? table.string(record, "ADMIN")
      else { continue }
      var position: Shapefile.Point?
      if let x = table.number(record, "LABEL_X"), let y = table.number(record, "LABEL_Y") {
        position = Shapefile.Point(x: x, y: y)
      } else if let parts = try shape(record)?.parts {
        position = centroid(ofLargestRing: parts)
      }
      guard let position else { continue }
      let labelRank = table.number(record, "LABELRANK") ?? table.number(record, "SCALERANK")
      labels.append(
        Label(
          name: name, point: project(longitude: position.x, latitude: position.y),
          rank: countryRank(labelRank: labelRank, population: table.number(record, "POP_EST")),
          band: countryBand(minimumLabelZoom: table.number(record, "MIN_LABEL"), labelRank: labelRank)))
    }
    return labels
  }

  /// The area-weighted centroid of the ring with the largest area (in the shapefile's own units).
  static func centroid(ofLargestRing parts: [[Shapefile.Point]]) -> Shapefile.Point? {
    var best: (area: Double, point: Shapefile.Point)?
    for part in parts where part.count >= 3 {
      var area = 0.0
      var x = 0.0
      var y = 0.0
      for index in part.indices {
        let a = part[index]
        let b = part[(index + 1) % part.count]
        let cross = a.x * b.y - b.x * a.y
        area += cross
        x += (a.x + b.x) * cross
        y += (a.y + b.y) * cross
      }
      guard area != 0, abs(area) > best?.area ?? 0 else { continue }
      best = (abs(area), Shapefile.Point(x: x / (3 * area), y: y / (3 * area)))
    }
    return best?.point
  }

  /// City labels from a CSV file (GeoNames fields `name`, `latitude`, `longitude`, `population`), in the
  /// file's order; rows without a name or valid position are skipped.
  public static func cityLabels(_ path: String) throws -> [Label] {
    let text = String(decoding: try BasemapBuildError.contents(of: path), as: UTF8.self)
    let rows = CSVRows.parse(text)
    guard let header = rows.first else { throw BasemapBuildError(path, "empty CSV file") }
    let columns = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard let name = columns.firstIndex(of: "name"), let latitude = columns.firstIndex(of: "latitude"),
      let longitude = columns.firstIndex(of: "longitude"),
      let population = columns.firstIndex(of: "population")
    else {
      throw BasemapBuildError(path, "the header must name name, latitude, longitude and population")
    }
    var labels: [Label] = []
    for row in rows.dropFirst() where row.count == columns.count {
      guard !row[name].isEmpty, let lat = Double(row[latitude]), let lon = Double(row[longitude]),
        abs(lat) <= 90, abs(lon) <= 180
      else { continue }
      let people = Double(row[population]) ?? 0
      labels.append(
        Label(
          name: row[name], point: project(longitude: lon, latitude: lat), rank: people,
          band: cityBand(population: people)))
    }
    return labels
  }
}

/// What a build wrote, per kind and band range.
@_spi(BasemapBuilding) public struct BasemapBuildReport: Sendable, CustomStringConvertible {
  public struct Entry: Sendable, Equatable {
    public var kind: BasemapKind
    /// The bands the features serve (one band for most; a range where one version serves several).
    public var bands: ClosedRange<Int>
    public var features = 0
    public var points = 0
    /// Bytes of encoded geometry.
    public var bytes = 0
  }

  /// By kind, then band range.
  public var entries: [Entry] = []
  public var fileSize = 0

  mutating func add(_ kind: BasemapKind, bands: ClosedRange<Int>, points: Int, bytes: Int) {
    if let index = entries.firstIndex(where: { $0.kind == kind && $0.bands == bands }) {
      entries[index].features += 1
      entries[index].points += points
      entries[index].bytes += bytes
      return
    }
    entries.append(Entry(kind: kind, bands: bands, features: 1, points: points, bytes: bytes))
    let codes = BasemapFileFormat.kindCodes
    entries.sort {
      (codes[$0.kind]!, $0.bands.lowerBound, $0.bands.upperBound)
        < (codes[$1.kind]!, $1.bands.lowerBound, $1.bands.upperBound)
    }
  }

  /// The features, points and bytes a query of one band reads for a kind over the whole world (points:
  /// every band up to it).
  public func total(_ kind: BasemapKind, band: Int) -> (features: Int, points: Int, bytes: Int) {
    var total = (features: 0, points: 0, bytes: 0)
    for entry in entries where entry.kind == kind {
      guard kind.isPoint ? entry.bands.lowerBound <= band : entry.bands.contains(band) else { continue }
      total.features += entry.features
      total.points += entry.points
      total.bytes += entry.bytes
    }
    return total
  }

  /// Two tables: what is stored (kind, bands, features, points, geometry bytes) with totals and the file
  /// size; then what a whole-world query of each band reads.
  public var description: String {
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    func row(_ first: String, _ second: String, _ numbers: [Int]) -> String {
      first.padding(toLength: 15, withPad: " ", startingAt: 0) + pad(second, 5) + pad(String(numbers[0]), 10)
        + pad(String(numbers[1]), 10) + pad(String(numbers[2]), 12)
    }
    var lines = ["stored:", "kind           bands  features    points       bytes"]
    for entry in entries {
      let bands =
        entry.bands.count == 1
        ? "\(entry.bands.lowerBound)" : "\(entry.bands.lowerBound)-\(entry.bands.upperBound)"
      lines.append(row(entry.kind.rawValue, bands, [entry.features, entry.points, entry.bytes]))
    }
    lines.append(
      row(
        "total", "",
        [
          entries.reduce(0) { $0 + $1.features }, entries.reduce(0) { $0 + $1.points },
          entries.reduce(0) { $0 + $1.bytes },
        ]))
    lines.append("read by a whole-world query of one band:")
    lines.append("kind            band  features    points       bytes")
    for kind in BasemapKind.allCases where entries.contains(where: { $0.kind == kind }) {
      for band in 0..<BasemapBand.count {
        let total = total(kind, band: band)
        if total.features > 0 {
          lines.append(row(kind.rawValue, String(band), [total.features, total.points, total.bytes]))
        }
      }
    }
    lines.append("file size \(fileSize) bytes (\(String(format: "%.2f", Double(fileSize) / 1_048_576)) MiB)")
    return lines.joined(separator: "\n")
  }
}

/// RFC 4180 CSV: fields separated by commas, optionally quoted (`""` inside quotes is a quote), rows by
/// CR LF or LF.
enum CSVRows {
  static func parse(_ text: String) -> [[String]] {
    let scalars = Array(text.unicodeScalars)
    var rows: [[String]] = []
    var row: [String] = []
    var field = String.UnicodeScalarView()
    var quoted = false
    var index = 0
    func endRow() {
      row.append(String(field))
      if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
      row = []
      field = String.UnicodeScalarView()
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if quoted {
        if scalar != "\"" {
          field.append(scalar)
        } else if index < scalars.count, scalars[index] == "\"" {
          field.append(scalar)
          index += 1
        } else {
          quoted = false
        }
        continue
      }
      switch scalar {
      case "\"" where field.isEmpty: quoted = true
      case ",":
        row.append(String(field))
        field = String.UnicodeScalarView()
      case "\n": endRow()
      case "\r": break
      default: field.append(scalar)
      }
    }
    if !field.isEmpty || !row.isEmpty { endRow() }
    return rows
  }
}

/// A new SQLite file being written by the builder: one transaction, prepared inserts, `VACUUM` at the end.
///
/// Not `Sendable`: used by one build on one thread.
final class BasemapWriter {
  private let path: String
  private var handle: OpaquePointer?
  private var insertFeature: OpaquePointer?
  private var insertBox: OpaquePointer?
  private var insertMetaStatement: OpaquePointer?
  // SQLITE_TRANSIENT does not import into Swift: −1 tells SQLite to copy the bound bytes.
  private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  init(path: String, pageSize: Int) throws {
    self.path = path
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close(handle)
      handle = nil
      throw BasemapBuildError(path, message)
    }
    // The page size must be set before the first table exists; it is part of the bytes written.
    try execute("PRAGMA page_size = \(pageSize)")
    try execute("PRAGMA journal_mode = OFF")
    try execute("PRAGMA synchronous = OFF")
    for statement in BasemapFileFormat.schema { try execute(statement) }
    try execute("BEGIN")
    insertFeature = try prepare(
      "INSERT INTO feature(id, kind, band, name, rank, geometry) VALUES (?, ?, ?, ?, ?, ?)")
    insertBox = try prepare("INSERT INTO feature_box VALUES (?, ?, ?, ?, ?, ?, ?)")
    insertMetaStatement = try prepare("INSERT INTO meta(key, value) VALUES (?, ?)")
  }

  deinit {
    for statement in [insertFeature, insertBox, insertMetaStatement] { sqlite3_finalize(statement) }
    sqlite3_close(handle)
  }

  func insert(
    id: Int64, kind: BasemapKind, band: Int, name: String?, rank: Double, geometry: [UInt8], box: WorldBox,
    layers: ClosedRange<Int>
  ) throws {
    guard let insertFeature else { return }
    sqlite3_bind_int64(insertFeature, 1, id)
    sqlite3_bind_text(insertFeature, 2, kind.rawValue, -1, transient)
    sqlite3_bind_int64(insertFeature, 3, Int64(band))
    if let name {
      sqlite3_bind_text(insertFeature, 4, name, -1, transient)
    } else {
      sqlite3_bind_null(insertFeature, 4)
    }
    sqlite3_bind_double(insertFeature, 5, rank)
    _ = geometry.withUnsafeBytes {
      sqlite3_bind_blob(insertFeature, 6, $0.baseAddress, Int32($0.count), transient)
    }
    try run(insertFeature)
    boxes.append(PendingBox(id: id, box: box, layers: layers))
  }

  /// An R-tree entry, inserted at the end in an order of its own.
  private struct PendingBox {
    var id: Int64
    var box: WorldBox
    var layers: ClosedRange<Int>

    /// Layers, then the box centre's place on a Hilbert curve, then the id.
    var order: (Int, Int, UInt64, Int64) {
      let side = Double(0xFFFF)
      let x = UInt32(min(max((box.minX + box.maxX) / 2, 0), 1) * side)
      let y = UInt32(min(max((box.minY + box.maxY) / 2, 0), 1) * side)
      return (layers.lowerBound, layers.upperBound, hilbertIndex(x, y), id)
    }
  }

  private var boxes: [PendingBox] = []

  /// Fills the R-tree with entries of one layer and place together: SQLite's R*-tree builds its nodes in
  /// insertion order, and entries in feature order (cities by population) would make every node span the
  /// world, so that a small window visits most of them (ten times slower at zoom 10–16).
  private func insertBoxes() throws {
    guard let insertBox else { return }
    for entry in boxes.sorted(by: { $0.order < $1.order }) {
      sqlite3_bind_int64(insertBox, 1, entry.id)
      for (index, value) in [entry.box.minX, entry.box.maxX, entry.box.minY, entry.box.maxY].enumerated() {
        sqlite3_bind_double(insertBox, Int32(index + 2), value)
      }
      sqlite3_bind_int64(insertBox, 6, Int64(entry.layers.lowerBound))
      sqlite3_bind_int64(insertBox, 7, Int64(entry.layers.upperBound))
      try run(insertBox)
    }
    boxes = []
  }

  func insertMeta(_ key: String, _ value: String) throws {
    guard let insertMetaStatement else { return }
    sqlite3_bind_text(insertMetaStatement, 1, key, -1, transient)
    sqlite3_bind_text(insertMetaStatement, 2, value, -1, transient)
    try run(insertMetaStatement)
  }

  /// Commits, vacuums (a compact file whose bytes depend only on what was inserted) and closes.
  func finish() throws {
    try insertBoxes()
    try execute("COMMIT")
    for statement in [insertFeature, insertBox, insertMetaStatement] { sqlite3_finalize(statement) }
    insertFeature = nil
    insertBox = nil
    insertMetaStatement = nil
    try execute("VACUUM")
    guard sqlite3_close(handle) == SQLITE_OK else { throw BasemapBuildError(path, "cannot close the file") }
    handle = nil
  }

  private func execute(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
  }

  private func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw failure()
    }
    return statement
  }

  private func run(_ statement: OpaquePointer) throws {
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    guard sqlite3_step(statement) == SQLITE_DONE else { throw failure() }
  }

  private func failure() -> BasemapBuildError {
    BasemapBuildError(path, handle.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error")
  }
}

/// The distance along a Hilbert curve over a 2^16 × 2^16 grid of the cell (x, y): cells near each other on
/// the curve are near each other on the map.
private func hilbertIndex(_ x: UInt32, _ y: UInt32) -> UInt64 {
  var x = x
  var y = y
  var index: UInt64 = 0
  var size: UInt32 = 1 << 15
  while size > 0 {
    let rx: UInt32 = x & size != 0 ? 1 : 0
    let ry: UInt32 = y & size != 0 ? 1 : 0
    index += UInt64(size) * UInt64(size) * UInt64((3 * rx) ^ ry)
    if ry == 0 {
      if rx == 1 {
        x = 0xFFFF - x
        y = 0xFFFF - y
      }
      swap(&x, &y)
    }
    size >>= 1
  }
  return index
}
