import CSV
import Foundation
import MapMath
import Tiles

/// Reading the builder's inputs: Natural Earth shapefiles and dBase tables, the GeoNames cities CSV.
extension BasemapBuilder {
  /// A point projected to world space on the encoding's grid (latitudes clamped for Web Mercator,
  /// longitudes ±180 exactly at the world's edges).
  static func project(longitude: Double, latitude: Double) -> WorldPoint {
    let point = WebMercator.project(
      Coordinate(latitude: latitude, longitude: min(max(longitude, -180), 180)))
    let q = BasemapGeometry.quantization
    return WorldPoint(x: (point.x * q).rounded() / q, y: (point.y * q).rounded() / q)
  }

  static func project(_ part: [Shapefile.Point]) -> [WorldPoint] {
    Clipping.withoutRepeats(part.map { project(longitude: $0.x, latitude: $0.y) })
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
        guard let ring = Clipping.closedRing(project(part)), let box = WorldBox([ring]) else {
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

  /// The lines of a Marble PN2 file in world space, one part each.
  public static func riverLines(_ path: String) throws -> [[[WorldPoint]]] {
    let bytes = try BasemapBuildError.contents(of: path)
    let pn2: MarblePN2
    do throws(MarblePN2.Failure) {
      pn2 = try MarblePN2(bytes: bytes)
    } catch {
      throw BasemapBuildError(path, "not a readable Marble PN2 file (\(error))")
    }
    return pn2.lines.compactMap { line in
      let part = project(line)
      return part.count >= 2 ? [part] : nil
    }
  }

  public struct Label: Sendable, Equatable {
    public var name: String
    public var point: WorldPoint
    public var rank: Double
    public var band: Int
    /// Where else the name may go when `point` is out of view (a country's other pieces, largest first).
    public var otherPoints: [WorldPoint] = []
  }

  /// Country labels from a Natural Earth admin-0 table: NAME (else NAME_EN, ADMIN) at LABEL_X/LABEL_Y,
  /// else at the centroid of the largest ring of the country's shape in the shapefile beside the table.
  /// `pieces` (matched by ISO_A3, ADM0_A3 or NAME) give each country's other pieces, and the countries
  /// the table lacks, after its own, named on their largest piece, ranked below every country of the table.
  public static func countryLabels(_ path: String, pieces: [CountryPieces] = []) throws -> [Label] {
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
    var unmatched = pieces
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
      let point = project(longitude: position.x, latitude: position.y)
      let codes = [table.string(record, "ISO_A3"), table.string(record, "ADM0_A3")].compactMap { $0 }
        .filter { $0.count == 3 && $0 != "-99" }
      let shape = unmatched.firstIndex { codes.contains($0.code) } ?? unmatched.firstIndex { $0.name == name }
      labels.append(
        Label(
          name: name, point: point,
          rank: countryRank(labelRank: labelRank, population: table.number(record, "POP_EST")),
          band: countryBand(minimumLabelZoom: table.number(record, "MIN_LABEL"), labelRank: labelRank),
          otherPoints: shape.map { unmatched[$0].distantPieces(from: point).map(\.point) } ?? []))
      if let shape { unmatched.remove(at: shape) }
    }
    for country in unmatched {
      labels.append(
        Label(
          name: country.name, point: country.pieces[0].point,
          rank: countryRank(labelRank: 8, population: nil), band: country.band,
          otherPoints: country.distantPieces(from: country.pieces[0].point).map(\.point)))
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

  /// City labels from a CSV file (GeoNames fields `name`, `latitude`, `longitude`, `population`, and
  /// `countrycode` when present), largest prominence first (`CityProminence`: sections of a city dropped,
  /// agglomerations and `capitals` — `CityProminence.capitalKey`s — first; ties in the file's order); rows without a
  /// name or valid position are skipped.
  public static func cityLabels(_ path: String, capitals: Set<String> = []) throws -> [Label] {
    let rows = try csvRows(path)
    guard let header = rows.first else { throw BasemapBuildError(path, "empty CSV file") }
    let columns = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard let name = columns.firstIndex(of: "name"), let latitude = columns.firstIndex(of: "latitude"),
      let longitude = columns.firstIndex(of: "longitude"),
      let population = columns.firstIndex(of: "population")
    else {
      throw BasemapBuildError(path, "the header must name name, latitude, longitude and population")
    }
    let country = columns.firstIndex(of: "countrycode")
    var cities: [CityProminence.City] = []
    for row in rows.dropFirst() where row.count == columns.count {
      guard !row[name].isEmpty, let lat = Double(row[latitude]), let lon = Double(row[longitude]),
        abs(lat) <= 90, abs(lon) <= 180
      else { continue }
      let people = Double(row[population]).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
      cities.append(
        CityProminence.City(
          name: row[name], countryCode: country.map { row[$0] } ?? "", latitude: lat, longitude: lon,
          population: people))
    }
    let ranked = CityProminence.rank(cities, capitals: capitals).enumerated().sorted {
      $0.element.prominence != $1.element.prominence
        ? $0.element.prominence > $1.element.prominence : $0.offset < $1.offset
    }
    return ranked.map { _, entry in
      Label(
        name: entry.city.name, point: project(longitude: entry.city.longitude, latitude: entry.city.latitude),
        rank: entry.prominence, band: cityBand(population: entry.prominence))
    }
  }

  /// Capitals from a CSV file with the columns `countrycode` and `capital`, as `CityProminence.capitalKey`s.
  public static func capitals(_ path: String) throws -> Set<String> {
    let rows = try csvRows(path)
    guard let header = rows.first else { throw BasemapBuildError(path, "empty CSV file") }
    let columns = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard let country = columns.firstIndex(of: "countrycode"), let capital = columns.firstIndex(of: "capital")
    else { throw BasemapBuildError(path, "the header must name countrycode and capital") }
    return Set(
      rows.dropFirst().filter { $0.count == columns.count && !$0[capital].isEmpty }.map {
        CityProminence.capitalKey(countryCode: $0[country], name: $0[capital])
      })
  }

  private static func csvRows(_ path: String) throws -> [[String]] {
    var scanner = CSVScanner(bytes: try BasemapBuildError.contents(of: path))
    var rows: [[String]] = []
    var fields: [String] = []
    do throws(CSVSyntaxError) {
      while try scanner.nextRecord(into: &fields) != nil { rows.append(fields) }
    } catch {
      throw BasemapBuildError(path, "line \(error.line): \(error.message)")
    }
    return rows
  }
}
