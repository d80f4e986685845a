import Foundation
import MapMath
import SQLite
import Tiles

/// The pieces of each country (its islands, exclaves, overseas parts) from a GeoPackage of Natural Earth
/// country polygons: where its name can go when its main label point is out of view, and the names of the
/// small countries (Tonga, Samoa, Malta) that the 1:110 m table lacks.
public struct CountryPieces: Sendable, Equatable {
  /// One polygon of a country: a point inside it where a label can go, its area and box, and its outer
  /// ring in world space (to find the piece a label point lies on).
  public struct Piece: Sendable, Equatable {
    public var point: WorldPoint
    public var area: Double
    public var box: WorldBox
    var ring: [WorldPoint]
  }

  public var name: String
  /// ISO 3166-1 alpha-3, as the source gives it (may be empty or "-99").
  public var code: String
  /// Largest first, at most `maximumPieces`, none under `smallestPiece`.
  public var pieces: [Piece]

  /// Label points kept per country: enough for the islands a map may show alone.
  public static let maximumPieces = 8
  /// Pieces whose box is smaller than this (world units; about 250 m) carry no label point.
  public static let smallestPiece = 1.0 / 160_000

  /// The countries of a GeoPackage's `countries` table (columns `NAME`, `ISO_A3`, `geom`), in row order;
  /// rows without a name or polygon are skipped.
  public static func read(_ path: String) throws -> [CountryPieces] {
    var options = SQLiteOptions(access: .readOnly)
    options.immutable = true
    let rows: [[SQLiteValue]]
    do throws(SQLiteError) {
      let connection = try SQLiteConnection(path: path, options: options)
      rows = try connection.rows("SELECT NAME, ISO_A3, geom FROM countries ORDER BY fid")
    } catch {
      throw BasemapBuildError(path, error.message)
    }
    var result: [CountryPieces] = []
    for (index, row) in rows.enumerated() {
      guard let name = row[0].text?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
        let blob = row[2].blob
      else { continue }
      let polygons: [GeoPackageGeometry.Polygon]
      do throws(GeoPackageGeometry.Failure) {
        polygons = try GeoPackageGeometry.polygons([UInt8](blob))
      } catch {
        throw BasemapBuildError(path, "country row \(index + 1) (\(name)): unreadable geometry (\(error))")
      }
      var pieces: [Piece] = []
      for polygon in polygons {
        guard let outer = polygon.first,
          var ring = Clipping.closedRing(BasemapBuilder.project(outer))
        else { continue }
        var area = BasemapShaping.signedArea(ring)
        if area < 0 {
          ring.reverse()
          area = -area
        }
        guard let box = WorldBox([ring]), box.extent >= smallestPiece, let point = inside(ring, box: box)
        else { continue }
        pieces.append(Piece(point: point, area: area, box: box, ring: ring))
      }
      // Largest first; equal areas in the source's order.
      pieces = pieces.enumerated().sorted {
        $0.element.area != $1.element.area ? $0.element.area > $1.element.area : $0.offset < $1.offset
      }.prefix(maximumPieces).map(\.element)
      guard !pieces.isEmpty else { continue }
      result.append(CountryPieces(name: name, code: row[1].text ?? "", pieces: pieces))
    }
    return result
  }

  /// A point inside the ring for its label: the centroid when inside, else the middle of the widest
  /// stretch of the ring along the centroid's row (a crescent's centroid lies outside it).
  static func inside(_ ring: [WorldPoint], box: WorldBox) -> WorldPoint? {
    var area = 0.0
    var x = 0.0
    var y = 0.0
    for index in 0..<(ring.count - 1) {
      let a = ring[index]
      let b = ring[index + 1]
      let cross = a.x * b.y - b.x * a.y
      area += cross
      x += (a.x + b.x) * cross
      y += (a.y + b.y) * cross
    }
    guard area != 0 else { return nil }
    let centroid = WorldPoint(x: x / (3 * area), y: y / (3 * area))
    if BasemapShaping.contains(ring, centroid) { return centroid }
    let row = min(max(centroid.y, box.minY), box.maxY)
    var crossings: [Double] = []
    for index in 0..<(ring.count - 1) {
      let a = ring[index]
      let b = ring[index + 1]
      guard (a.y <= row) != (b.y <= row) else { continue }
      crossings.append(a.x + (row - a.y) / (b.y - a.y) * (b.x - a.x))
    }
    crossings.sort()
    var best: (width: Double, middle: Double)?
    for start in stride(from: 0, to: crossings.count - 1, by: 2) {
      let width = crossings[start + 1] - crossings[start]
      if width > best?.width ?? 0 { best = (width, (crossings[start] + crossings[start + 1]) / 2) }
    }
    return best.map { WorldPoint(x: $0.middle, y: row) }
  }

  /// The pieces away from the one `point` lies on (the main label point's; else the largest), largest
  /// first: those whose point lies outside the main piece's box grown by its size on every side. A near
  /// island (Corsica beside France) would take the name from a mainland whose label point is out of view.
  func distantPieces(from point: WorldPoint) -> [Piece] {
    let main =
      pieces.first {
        $0.box.minX <= point.x && point.x <= $0.box.maxX && $0.box.minY <= point.y && point.y <= $0.box.maxY
          && BasemapShaping.contains($0.ring, point)
      } ?? pieces[0]
    let reach = main.box.extent
    return pieces.filter { piece in
      piece != main
        && !(main.box.minX - reach <= piece.point.x && piece.point.x <= main.box.maxX + reach
          && main.box.minY - reach <= piece.point.y && piece.point.y <= main.box.maxY + reach)
    }
  }

  /// The band from which a country the 1:110 m table lacks is named: from the zoom where its pieces'
  /// label points span 16 pixels (a group of islands is named before any of them is large), at least
  /// band 1. Measured the short way across 180°.
  var band: Int {
    let points = pieces.map(\.point)
    func span(_ xs: [Double]) -> Double { (xs.max() ?? 0) - (xs.min() ?? 0) }
    let xs = points.map(\.x)
    let width = min(span(xs), span(xs.map { $0 < 0.5 ? $0 + 1 : $0 }))
    let height = span(points.map(\.y))
    let extent = max(width, height, pieces[0].box.extent)
    let zoom = log2(16 / (256 * max(extent, 1e-9)))
    return max(BasemapBand.band(forZoom: zoom), 1)
  }
}
