import BasemapBuilding
import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

/// The shapefile, dBase and CSV readers on the hand-written fixture (`Tests/Fixtures/basemap/`).
final class BasemapSourceTests: XCTestCase {
  private func fixture(_ name: String) -> String {
    RepositoryPaths.fixture("basemap/\(name)").path
  }

  private func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture(name))))
  }

  private func points(_ pairs: [(Double, Double)]) -> [Shapefile.Point] {
    pairs.map { Shapefile.Point(x: $0.0, y: $0.1) }
  }

  // MARK: Shapefile

  func testReadsPolygonRecordsPartsAndNullShapes() throws {
    let land = try Shapefile(path: fixture("land.shp"))
    XCTAssertEqual(land.shapeType, Shapefile.polygon)
    XCTAssertEqual(land.bounds, [-180, -90, 180, 60])
    XCTAssertEqual(land.records.map(\.number), [1, 2, 3])
    XCTAssertEqual(land.records.map(\.parts.count), [2, 3, 0])
    XCTAssertEqual(land.records[2].shapeType, Shapefile.nullShape)
    XCTAssertEqual(
      land.records[0].parts,
      [
        points([(-10, 35), (-10, 60), (30, 60), (30, 35), (-10, 35)]),
        points([(5, 40), (10, 40), (10, 45), (5, 45), (5, 40)]),
      ])
    XCTAssertEqual(land.records[1].parts[1], points([(100, 0), (100, 1), (101, 0), (100, 0)]))
  }

  func testReadsPolylineRecords() throws {
    let lines = try Shapefile(path: fixture("lines.shp"))
    XCTAssertEqual(lines.shapeType, Shapefile.polyline)
    XCTAssertEqual(lines.records.count, 2)
    XCTAssertEqual(lines.records[0].parts.map(\.count), [35, 3])
    XCTAssertEqual(lines.records[0].parts[0].first, Shapefile.Point(x: -170, y: 40))
    XCTAssertEqual(lines.records[1].parts, [points([(50, 20), (50.001, 20)])])
  }

  func testRejectsDamagedShapefiles() throws {
    let good = try bytes("land.shp")
    func reason(_ bytes: [UInt8]) -> String? {
      do {
        _ = try Shapefile(bytes: bytes, name: "x.shp")
        return nil
      } catch let error as BasemapBuildError {
        XCTAssertFalse(error.description.contains("\n"))
        XCTAssertTrue(error.description.hasPrefix("x.shp: "))
        return error.reason
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(reason(Array(good.prefix(60))), "too short for a shapefile header")
    var wrongCode = good
    wrongCode[3] = 0
    XCTAssertEqual(reason(wrongCode), "not a shapefile (file code is not 9994)")
    // Cut inside the first record, with the header's length left as it was.
    XCTAssertEqual(reason(Array(good.prefix(150))), "record 1 at byte 100 runs past the end of the file")
    // A part count that points past the record.
    var badParts = good
    badParts[108 + 36] = 0xFF
    XCTAssertNotNil(reason(badParts))
    // The index (.shx) has the same header but 8-byte entries: an error, not a trap.
    XCTAssertThrowsError(try Shapefile(path: fixture("land.shx")))
    XCTAssertThrowsError(try Shapefile(path: fixture("missing.shp"))) { error in
      XCTAssertEqual((error as? BasemapBuildError)?.reason, "file not found")
    }
  }

  // MARK: dBase

  func testReadsTheTableWithItsEncodingAndDeletedRecords() throws {
    let table = try DBaseTable(path: fixture("land.dbf"))
    XCTAssertEqual(table.encoding, .utf8)
    XCTAssertEqual(table.count, 3)
    XCTAssertEqual(
      table.fields.map(\.name), ["NAME", "LABELRANK", "MIN_LABEL", "POP_EST", "LABEL_X", "LABEL_Y"])
    XCTAssertEqual(table.fields[0].type, "C")
    XCTAssertEqual(table.fields[3].length, 12)
    XCTAssertEqual(table.fields[3].decimals, 1)
    XCTAssertEqual(table.string(0, "NAME"), "Squareland")
    XCTAssertEqual(table.string(1, "name"), "Côte d'Edge", "field names match without regard to case")
    XCTAssertEqual(table.number(0, "POP_EST"), 50_000_000)
    XCTAssertEqual(table.number(0, "LABEL_X"), 10)
    XCTAssertNil(table.number(1, "LABEL_X"), "blank")
    XCTAssertNil(table.string(0, "NO_SUCH_FIELD"))
    XCTAssertNil(table.string(7, "NAME"))
    XCTAssertEqual((0..<3).map(table.isDeleted), [false, false, true])
    XCTAssertTrue(table.hasField("label_y"))
  }

  func testDecodesWithTheEncodingTheCodePageNames() throws {
    XCTAssertEqual(DBaseTable.encoding(named: "UTF-8\n"), .utf8)
    XCTAssertEqual(DBaseTable.encoding(named: "1252"), .windowsCP1252)
    XCTAssertEqual(DBaseTable.encoding(named: "ISO-8859-1"), .isoLatin1)
    XCTAssertNil(DBaseTable.encoding(named: "KOI8-R"))
    // The same bytes read as Windows-1252 give mojibake: the .cpg matters.
    let bytes = try bytes("land.dbf")
    let latin = try DBaseTable(bytes: bytes, encoding: .windowsCP1252, name: "land.dbf")
    XCTAssertEqual(latin.string(1, "NAME"), "CÃ´te d'Edge")
    // Without a .cpg: UTF-8 when the bytes are valid UTF-8.
    XCTAssertEqual(
      try DBaseTable(bytes: bytes, encoding: nil, name: "land.dbf").string(1, "NAME"), "Côte d'Edge")
  }

  func testRejectsDamagedTables() throws {
    let good = try bytes("land.dbf")
    XCTAssertThrowsError(try DBaseTable(bytes: Array(good.prefix(20)), encoding: nil, name: "t.dbf"))
    // Records that do not fit.
    XCTAssertThrowsError(
      try DBaseTable(bytes: Array(good.prefix(good.count - 40)), encoding: nil, name: "t.dbf")
    ) {
      XCTAssertTrue("\($0)".contains("truncated"), "\($0)")
    }
    // A record length that disagrees with the fields.
    var wrongLength = good
    wrongLength[10] &+= 1
    XCTAssertThrowsError(try DBaseTable(bytes: wrongLength, encoding: nil, name: "t.dbf")) {
      XCTAssertTrue("\($0)".contains("not a dBase table"), "\($0)")
    }
  }

  // MARK: Labels from the sources

  func testCountryLabelsUseTheLabelPointOrTheCentroidAndSkipDeletedRecords() throws {
    let labels = try BasemapBuilder.countryLabels(fixture("land.dbf"))
    XCTAssertEqual(labels.map(\.name), ["Squareland", "Côte d'Edge"])
    let paris = WebMercator.project(Coordinate(latitude: 50, longitude: 10))
    XCTAssertEqual(labels[0].point.x, paris.x, accuracy: 1e-7)
    XCTAssertEqual(labels[0].point.y, paris.y, accuracy: 1e-7)
    XCTAssertEqual(labels[0].band, 0, "MIN_LABEL 1.7")
    // Record 2 has no label point: the centroid of its largest ring, the strip (lon 0, lat -80).
    let strip = WebMercator.project(Coordinate(latitude: -80, longitude: 0))
    XCTAssertEqual(labels[1].point.x, strip.x, accuracy: 1e-7)
    XCTAssertEqual(labels[1].point.y, strip.y, accuracy: 1e-7)
    XCTAssertEqual(labels[1].band, 1, "no MIN_LABEL: from LABELRANK 5")
    XCTAssertGreaterThan(labels[0].rank, labels[1].rank)
  }

  func testCityLabelsReadQuotedFieldsAndSkipBadRows() throws {
    let labels = try BasemapBuilder.cityLabels(fixture("cities.csv"))
    XCTAssertEqual(
      labels.map(\.name), ["Bigcity", "Paris", "Comma, Town", "Midtown", "Smallville", "Edgetown"])
    XCTAssertEqual(labels.map(\.band), [0, 1, 2, 3, 4, 4])
    XCTAssertEqual(labels[1].rank, 2_138_551)
    // Longitude 180 is the world's right edge; latitude 89 clamps to the top.
    XCTAssertEqual(labels[5].point, WorldPoint(x: 1, y: 0))
  }

  func testBandsAndRanksOfLabels() {
    XCTAssertEqual(
      [6e6, 5e6, 4_999_999, 1e6, 300_000, 299_999, 100_000, 99_999, 15_000].map {
        BasemapBuilder.cityBand(population: $0)
      }, [0, 0, 1, 1, 2, 3, 3, 4, 4])
    XCTAssertEqual(BasemapBuilder.countryBand(minimumLabelZoom: 1.7, labelRank: 6), 0)
    XCTAssertEqual(BasemapBuilder.countryBand(minimumLabelZoom: 5, labelRank: 2), 2)
    XCTAssertEqual(BasemapBuilder.countryBand(minimumLabelZoom: nil, labelRank: 3), 0)
    XCTAssertEqual(BasemapBuilder.countryBand(minimumLabelZoom: nil, labelRank: 7), 3)
    XCTAssertEqual(BasemapBuilder.countryBand(minimumLabelZoom: nil, labelRank: nil), 2)
    XCTAssertGreaterThan(
      BasemapBuilder.countryRank(labelRank: 2, population: 1e6),
      BasemapBuilder.countryRank(labelRank: 3, population: 1e9))
    XCTAssertGreaterThan(
      BasemapBuilder.countryRank(labelRank: 2, population: 1e8),
      BasemapBuilder.countryRank(labelRank: 2, population: 1e6))
  }
}
