import BasemapBuilding
import Foundation
import MapMath
import TestSupport
import Tiles
import XCTest

/// The builder end to end on the hand-written fixture (`Tests/Fixtures/basemap/`), read back through
/// `BasemapData`.
final class BasemapBuilderTests: XCTestCase {
  /// Builds the fixture into a fresh temporary file and opens it.
  private func build(_ configure: (inout BasemapBuilder) -> Void = { _ in }) throws -> (
    data: BasemapData, report: BasemapBuildReport, path: String
  ) {
    let path = try makeTemporaryFolder(self) + "/basemap.sqlite"
    var builder = BasemapBuilder(inputs: basemapFixtureInputs(), metadata: ["source.test": "fixture 1.0"])
    configure(&builder)
    let report = try builder.build(to: path)
    return (try BasemapData(path: path), report, path)
  }

  private let world = (WorldPoint(x: 0, y: 0), WorldPoint(x: 1, y: 1))

  private func project(_ latitude: Double, _ longitude: Double) -> WorldPoint {
    WebMercator.project(Coordinate(latitude: latitude, longitude: longitude))
  }

  /// A small window (± `radius` world units) around a place.
  private func window(_ latitude: Double, _ longitude: Double, radius: Double = 0.001) -> (
    WorldPoint, WorldPoint
  ) {
    let centre = project(latitude, longitude)
    return (
      WorldPoint(x: centre.x - radius, y: centre.y - radius),
      WorldPoint(x: centre.x + radius, y: centre.y + radius)
    )
  }

  func testBuildsEveryKindAndSaysWhatItWrote() throws {
    let (data, report, path) = try build()
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".partial"))
    XCTAssertEqual(data.metadata["format"], "1")
    XCTAssertEqual(data.metadata["source.test"], "fixture 1.0")
    XCTAssertEqual(data.metadata["coastline"], "land")
    XCTAssertEqual(data.metadata["cells_per_side"], "4,8,16,32,64")
    XCTAssertEqual(data.attribution, "Natural Earth · GeoNames (CC BY 4.0)")
    XCTAssertEqual(report.fileSize, try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let kinds = Set(report.entries.map(\.kind))
    XCTAssertEqual(kinds, Set(BasemapKind.allCases).subtracting([.coastline]), "coastlines come from land")
    for kind in BasemapKind.allCases {
      XCTAssertFalse(
        try data.features(kind, band: 4, from: world.0, to: world.1).isEmpty, "\(kind) at band 4")
    }
    XCTAssertEqual(report.total(.cityLabel, band: 4).features, 6)
    XCTAssertEqual(report.total(.countryLabel, band: 0).features, 1)
    XCTAssertTrue(report.description.contains("file size \(report.fileSize) bytes"))
  }

  func testLandPiecesAreClosedRingsThatKeepTheAreaAtEveryBand() throws {
    let (data, _, _) = try build()
    func area(_ corners: [(Double, Double)]) -> Double {
      BasemapShaping.signedArea(corners.map { project($0.1, $0.0) })
    }
    // Shapefile rings run clockwise with y up: their projections have positive area with y down.
    let square = area([(-10, 35), (-10, 60), (30, 60), (30, 35)])
    let hole = area([(5, 40), (10, 40), (10, 45), (5, 45)])
    let strip = area([(-180, -85.06), (-180, -70), (180, -70), (180, -85.06)])
    let island = area([(100, 0), (100, 1), (101, 0)])
    XCTAssertLessThan(hole, 0)
    for band in 0..<BasemapBand.count {
      let land = try data.features(.land, band: band, from: world.0, to: world.1)
      XCTAssertGreaterThan(land.count, 1, "cut into cells")
      var total = 0.0
      for ring in land.flatMap(\.parts) {
        XCTAssertGreaterThanOrEqual(ring.count, 4)
        XCTAssertEqual(ring.first, ring.last, "closed")
        total += BasemapShaping.signedArea(ring)
      }
      // The 0.01° island (band 3 on) is 1e-9 of a world: within the tolerance.
      XCTAssertEqual(total, square + hole + strip + island, accuracy: 1e-7, "band \(band)")
    }
  }

  func testASmallWindowReadsOnlyNearbyPieces() throws {
    let (data, _, _) = try build()
    let (low, high) = window(48.85, 2.35)
    let land = try data.features(.land, band: 4, from: low, to: high)
    XCTAssertFalse(land.isEmpty)
    let paris = project(48.85, 2.35)
    XCTAssertNotEqual(winding(of: paris, in: land), 0, "Paris is on land")
    let pieces = try data.features(.land, band: 4, from: world.0, to: world.1).count
    XCTAssertLessThan(land.count, pieces / 4)
    for feature in land {
      let box = try XCTUnwrap(WorldBox(feature.parts))
      XCTAssertTrue(box.maxX >= low.x && box.minX <= high.x && box.maxY >= low.y && box.minY <= high.y)
      XCTAssertLessThanOrEqual(box.width, 1.0 / 64 + 1e-9, "a cell of band 4's grid")
    }
    // Inside the hole and out at sea: no land under the point.
    let (holeLow, holeHigh) = window(42.5, 7.5)
    XCTAssertEqual(
      winding(of: project(42.5, 7.5), in: try data.features(.land, band: 4, from: holeLow, to: holeHigh)), 0)
    let (seaLow, seaHigh) = window(0, -30)
    XCTAssertEqual(try data.features(.land, band: 4, from: seaLow, to: seaHigh), [])
  }

  func testTinyFeaturesAppearOnlyFromTheBandWhereTheyAreAPixel() throws {
    let (data, _, _) = try build()
    // The 0.01° island: 0.9 pixel at band 2's detail zoom 7, 3.6 at band 3's zoom 9.
    let (islandLow, islandHigh) = window(10.005, 120.005, radius: 0.0001)
    XCTAssertEqual(try data.features(.land, band: 2, from: islandLow, to: islandHigh), [])
    XCTAssertEqual(try data.features(.land, band: 3, from: islandLow, to: islandHigh).count, 1)
    // The 0.001° line: only at band 4.
    let (lineLow, lineHigh) = window(20, 50.0005, radius: 0.0001)
    XCTAssertEqual(try data.features(.countryBorder, band: 3, from: lineLow, to: lineHigh), [])
    XCTAssertEqual(try data.features(.countryBorder, band: 4, from: lineLow, to: lineHigh).count, 1)
  }

  func testLinesAreSimplifiedAndCutPerBandAndStateBordersStartAtBandTwo() throws {
    let (data, _, _) = try build()
    for band in 0..<2 {
      XCTAssertEqual(try data.features(.stateBorder, band: band, from: world.0, to: world.1), [])
    }
    XCTAssertFalse(try data.features(.stateBorder, band: 2, from: world.0, to: world.1).isEmpty)
    // The line along 40° N has 35 points on one straight line: two points per cell piece remain.
    let (low, high) = (WorldPoint(x: 0, y: project(40, 0).y), WorldPoint(x: 1, y: project(40, 0).y))
    for band in 0..<BasemapBand.count {
      let borders = try data.features(.countryBorder, band: band, from: low, to: high)
      let cells = [4, 8, 16, 32, 64][band]
      let along = borders.flatMap(\.parts).filter { $0.allSatisfy { abs($0.y - low.y) < 1e-8 } }
      XCTAssertTrue(along.allSatisfy { $0.count == 2 }, "band \(band)")
      XCTAssertGreaterThan(along.count, cells / 2, "cut into the cells it crosses")
      let length = along.reduce(0) { $0 + abs($1[1].x - $1[0].x) }
      XCTAssertEqual(length, project(40, 170).x - project(40, -170).x, accuracy: 1e-7)
    }
  }

  func testCoastlinesAreTheLandRingsWithoutCutsOrTheWorldsEdges() throws {
    let (data, _, _) = try build()
    func length(_ corners: [(Double, Double)]) -> Double {
      let points = (corners + [corners[0]]).map { project($0.1, $0.0) }
      return zip(points, points.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }
    // The island's southern edge lies on the equator, a line of every grid: the builder moves it off the
    // line by a quantization step, so that it stays coast.
    let expected =
      length([(-10, 35), (-10, 60), (30, 60), (30, 35)]) + length([(5, 40), (10, 40), (10, 45), (5, 45)])
      + length([(100, 0), (100, 1), (101, 0)]) + 1  // the strip's northern edge, all around the world
    for band in [0, 2, 4] {
      let coast = try data.features(.coastline, band: band, from: world.0, to: world.1)
      XCTAssertTrue(coast.allSatisfy { $0.kind == .coastline })
      let parts = coast.flatMap(\.parts)
      let total = parts.reduce(0) { total, part in
        total + zip(part, part.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
      }
      let tiny = band >= 3 ? length([(120, 10), (120, 10.01), (120.01, 10.01), (120.01, 10)]) : 0
      XCTAssertEqual(total, expected + tiny, accuracy: 1e-7, "band \(band)")
      XCTAssertFalse(parts.joined().contains { $0.y == 1 }, "the clamped south is no coast")
    }
  }

  func testCoastlinesFromTheirOwnShapefileWhenAsked() throws {
    let (data, report, _) = try build { $0.coastlineFromLand = false }
    XCTAssertNil(data.metadata["coastline"])
    XCTAssertNotNil(report.entries.first { $0.kind == .coastline })
    // The fixture's lines file: the line along 40° N (the same two points at every band: stored once, on
    // the finest grid) and the line near Paris.
    let parts = try data.features(.coastline, band: 0, from: world.0, to: world.1).flatMap(\.parts)
    let y = project(40, 0).y
    let along = parts.filter { $0.allSatisfy { abs($0.y - y) < 1e-8 } }
    XCTAssertGreaterThan(parts.count, along.count, "and the line near Paris")
    XCTAssertEqual(
      along.reduce(0) { $0 + abs($1[1].x - $1[0].x) }, project(40, 170).x - project(40, -170).x,
      accuracy: 1e-7)
  }

  func testPointsOfEveryBandUpToTheOneAsked() throws {
    let (data, _, _) = try build()
    let names = try (0..<BasemapBand.count).map { band in
      try data.features(.cityLabel, band: band, from: world.0, to: world.1).map { $0.name ?? "" }
    }
    XCTAssertEqual(names[0], ["Bigcity"])
    XCTAssertEqual(names[1], ["Bigcity", "Paris"])
    XCTAssertEqual(names[2], ["Bigcity", "Paris", "Comma, Town"])
    XCTAssertEqual(names[3], ["Bigcity", "Paris", "Comma, Town", "Midtown"])
    XCTAssertEqual(names[4], ["Bigcity", "Paris", "Comma, Town", "Midtown", "Smallville", "Edgetown"])
    let paris = try XCTUnwrap(
      try data.features(.cityLabel, band: 4, from: world.0, to: world.1).first { $0.name == "Paris" })
    XCTAssertEqual(paris.rank, 2_138_551)
    XCTAssertEqual(paris.parts.count, 1)
    XCTAssertEqual(paris.parts[0].count, 1)
    XCTAssertEqual(
      paris.parts[0][0].x, project(48.85341, 2.3488).x, accuracy: 1 / BasemapGeometry.quantization)
    // Bands out of range clamp; a window misses what is outside it.
    XCTAssertEqual(try data.features(.cityLabel, band: 9, from: world.0, to: world.1).count, 6)
    XCTAssertEqual(try data.features(.cityLabel, band: -1, from: world.0, to: world.1).count, 1)
    let (low, high) = window(48.85341, 2.3488)
    XCTAssertEqual(try data.features(.cityLabel, band: 4, from: low, to: high).map(\.name), ["Paris"])
    XCTAssertEqual(
      try data.features(.countryLabel, band: 1, from: world.0, to: world.1).map(\.name),
      ["Squareland", "Côte d'Edge"])
    // Edgetown sits on the world's corner (lon 180, lat 89 clamped).
    XCTAssertEqual(
      try data.features(.cityLabel, band: 4, from: WorldPoint(x: 0.99, y: 0), to: WorldPoint(x: 1, y: 0.01))
        .map(\.parts), [[[WorldPoint(x: 1, y: 0)]]])
  }

  func testTheWholeWorldWindowIsTheUnionOfItsQuarters() throws {
    let (data, _, _) = try build()
    func keys(_ features: [BasemapFeature]) -> Set<[UInt8]> {
      Set(features.map { BasemapGeometry.encode($0.parts) + Array(($0.name ?? "").utf8) })
    }
    for kind in BasemapKind.allCases {
      for band in 0..<BasemapBand.count {
        let whole = try data.features(kind, band: band, from: world.0, to: world.1)
        var quarters = Set<[UInt8]>()
        for (x, y) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)] {
          quarters.formUnion(
            keys(
              try data.features(
                kind, band: band, from: WorldPoint(x: x, y: y), to: WorldPoint(x: x + 0.5, y: y + 0.5))))
        }
        XCTAssertEqual(keys(whole), quarters, "\(kind) band \(band)")
      }
    }
    // The strip spans the world from x 0 to 1 and reaches the bottom edge.
    let strip = try data.features(.land, band: 0, from: WorldPoint(x: 0, y: 0.99), to: WorldPoint(x: 1, y: 1))
    let points = strip.flatMap(\.parts).joined()
    XCTAssertEqual(points.map(\.x).min(), 0)
    XCTAssertEqual(points.map(\.x).max(), 1)
    XCTAssertEqual(points.map(\.y).max(), 1)
  }

  func testTheSameInputsGiveTheSameBytes() throws {
    let first = try build().path
    let second = try build().path
    XCTAssertNotEqual(first, second)
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: first)), try Data(contentsOf: URL(fileURLWithPath: second)))
  }

  func testMissingOrWrongSourcesFailAndLeaveTheOldFile() throws {
    let folder = try makeTemporaryFolder(self)
    let path = folder + "/basemap.sqlite"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    var inputs = basemapFixtureInputs()
    inputs.land = folder + "/missing.shp"
    XCTAssertThrowsError(try BasemapBuilder(inputs: inputs).build(to: path)) { error in
      XCTAssertEqual("\(error)", "\(folder)/missing.shp: file not found")
    }
    inputs.land = basemapFixtureInputs().stateBorders
    XCTAssertThrowsError(try BasemapBuilder(inputs: inputs).build(to: path)) { error in
      XCTAssertTrue("\(error)".hasSuffix("lines.shp: expected polygons, found shape type 3"), "\(error)")
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("old".utf8))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["basemap.sqlite"])
  }
}
