import BasemapBuilding
import Foundation
import TestSupport
import XCTest

/// GeoPackage geometry blobs: the header, WKB polygons and multipolygons, and hostile blobs.
final class GeoPackageGeometryTests: XCTestCase {
  private func uint32(_ value: UInt32, little: Bool = true) -> [UInt8] {
    let bytes = (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) }
    return little ? bytes : bytes.reversed()
  }

  private func double(_ value: Double, little: Bool = true) -> [UInt8] {
    let bits = value.bitPattern
    let bytes = (0..<8).map { UInt8((bits >> (8 * UInt64($0))) & 0xFF) }
    return little ? bytes : bytes.reversed()
  }

  private func polygon(_ rings: [[(Double, Double)]], little: Bool = true, type: UInt32 = 3) -> [UInt8] {
    var bytes: [UInt8] =
      [little ? 1 : 0] + uint32(type, little: little) + uint32(UInt32(rings.count), little: little)
    for ring in rings {
      bytes += uint32(UInt32(ring.count), little: little)
      for (x, y) in ring {
        bytes += double(x, little: little) + double(y, little: little)
        if type == 1003 { bytes += double(7, little: little) }
      }
    }
    return bytes
  }

  /// "GP", version 0, flags: little-endian header with a 2D envelope (32 bytes), SRS 4326.
  private func blob(_ wkb: [UInt8]) -> [UInt8] {
    [0x47, 0x50, 0, 0b0000_0011] + uint32(4326) + [Double](repeating: 0, count: 4).flatMap { double($0) }
      + wkb
  }

  private let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]

  func testReadsAPolygonAndAMultipolygonInEitherByteOrderAndWithZ() throws {
    let one = try GeoPackageGeometry.polygons(blob(polygon([square])))
    XCTAssertEqual(one.count, 1)
    XCTAssertEqual(one[0][0].map(\.x), [0, 1, 1, 0, 0])
    XCTAssertEqual(one[0][0].map(\.y), [0, 0, 1, 1, 0])

    let multi =
      [0] + uint32(6, little: false) + uint32(2, little: false)
      + polygon([square], little: false) + polygon([square.map { ($0.0 + 5, $0.1) }], type: 1003)
    let two = try GeoPackageGeometry.polygons(blob(multi))
    XCTAssertEqual(two.count, 2)
    XCTAssertEqual(two[1][0].map(\.x), [5, 6, 6, 5, 5], "the Z value is skipped")
    XCTAssertEqual(two[1][0].map(\.y), [0, 0, 1, 1, 0])
  }

  func testEmptyGeometriesGiveNoPolygons() throws {
    XCTAssertEqual(try GeoPackageGeometry.polygons([0x47, 0x50, 0, 0b0001_0001] + uint32(4326)).count, 0)
  }

  func testHostileBlobsAreRefusedNotTrusted() {
    let good = blob(polygon([square]))
    XCTAssertThrowsError(try GeoPackageGeometry.polygons(Array("SQLite".utf8))) {
      XCTAssertEqual($0 as? GeoPackageGeometry.Failure, .notAGeoPackageBlob)
    }
    for length in [8, 40, 45, 49, good.count - 1] {
      XCTAssertThrowsError(try GeoPackageGeometry.polygons(Array(good.prefix(length))), "\(length) bytes") {
        XCTAssertEqual($0 as? GeoPackageGeometry.Failure, .truncated)
      }
    }
    // A ring that claims four billion points in a blob of a hundred bytes.
    var huge = good
    huge.replaceSubrange(49..<53, with: [0xFF, 0xFF, 0xFF, 0xFF])
    XCTAssertThrowsError(try GeoPackageGeometry.polygons(huge)) {
      XCTAssertEqual($0 as? GeoPackageGeometry.Failure, .truncated)
    }
    XCTAssertThrowsError(try GeoPackageGeometry.polygons(blob([1] + uint32(1) + double(0) + double(0)))) {
      XCTAssertEqual($0 as? GeoPackageGeometry.Failure, .unsupportedType(1))
    }
  }
}

/// Marble PN2 files (rivers): absolute and relative nodes, groups, and hostile files.
final class MarblePN2Tests: XCTestCase {
  private var fixture: [UInt8] {
    get throws {
      [UInt8](try Data(contentsOf: RepositoryPaths.fixture("basemap/rivers.pn2")))
    }
  }

  func testReadsLinesOfAbsoluteAndRelativeNodesAndGroups() throws {
    let pn2 = try MarblePN2(bytes: try fixture)
    XCTAssertEqual(pn2.lines.map { $0.map(\.x) }, [[10, 10.5, 10], [0, 2]])
    XCTAssertEqual(pn2.lines.map { $0.map(\.y) }, [[40, 40.5, 41], [0, 1]])
  }

  func testHostileFilesAreRefused() throws {
    let good = try fixture
    XCTAssertThrowsError(try MarblePN2(bytes: [1] + Array(good.dropFirst()))) {
      XCTAssertEqual($0 as? MarblePN2.Failure, .unsupportedVersion(1))
    }
    for length in [0, 3, 10, 17, 25, good.count - 1] {
      XCTAssertThrowsError(try MarblePN2(bytes: Array(good.prefix(length))), "\(length) bytes") {
        guard case .truncated = $0 as? MarblePN2.Failure else { return XCTFail("\($0)") }
      }
    }
    // Four billion absolute nodes claimed in 52 bytes.
    var huge = good
    huge.replaceSubrange(11..<15, with: [0xFF, 0xFF, 0xFF, 0xFF])
    XCTAssertThrowsError(try MarblePN2(bytes: huge)) {
      guard case .truncated = $0 as? MarblePN2.Failure else { return XCTFail("\($0)") }
    }
    // A latitude of 100°.
    var north = good
    north.replaceSubrange(15..<17, with: [0x2E, 0xE0])
    XCTAssertThrowsError(try MarblePN2(bytes: north)) {
      guard case .badCoordinate = $0 as? MarblePN2.Failure else { return XCTFail("\($0)") }
    }
    var flag = good
    flag[6] = 9
    XCTAssertThrowsError(try MarblePN2(bytes: flag)) {
      guard case .badFlag(9, _) = $0 as? MarblePN2.Failure else { return XCTFail("\($0)") }
    }
  }
}
