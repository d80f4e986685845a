import Foundation
import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// Clusters (`--cluster`): places whose pins would collide become one marker with their count, the same
/// whatever order the places come in, never overlapping another marker, and counted in the layout.
final class ClusteringTests: XCTestCase {
  /// `count` places scattered around Paris (about ±3 km), with three lone places far out.
  private func crowdedCity(count: Int = 300, seed: UInt64 = 12) -> [any Annotation] {
    var random = SeededGenerator(seed: seed)
    var places: [any Annotation] = (0..<count).map { index in
      RenderKit.place(
        String(format: "cafe-%04d", index), 48.8566 + Double.random(in: -0.03...0.03, using: &random),
        2.3522 + Double.random(in: -0.04...0.04, using: &random), title: "Café \(index)", subtitle: "Bar")
    }
    places += [
      RenderKit.place("versailles", 48.8049, 2.1204, title: "Versailles"),
      RenderKit.place("saint-denis", 48.9362, 2.3574, title: "Basilica of Saint-Denis"),
      RenderKit.place("vincennes", 48.8427, 2.4356, title: "Château de Vincennes"),
    ]
    return places
  }

  private func render(_ places: [any Annotation], clustering: Clustering = .auto, callouts: Bool = true)
    throws -> RenderResult
  {
    var request = RenderKit.request(places, width: 640, height: 480)
    request.clustering = clustering
    request.showCallouts = callouts
    return try Snapshotter.render(request)
  }

  func testShuffledPlacesGiveTheSameMapByteForByte() throws {
    let places = crowdedCity()
    var random = SeededGenerator(seed: 99)
    let first = try render(places)
    let second = try render(places.shuffled(using: &random))
    XCTAssertFalse(first.layout.clusters.isEmpty)
    XCTAssertEqual(first.layout.json, second.layout.json)
    XCTAssertEqual(first.data, second.data)
  }

  func testMarkersNeverOverlapAndCountEveryPlace() throws {
    for seed: UInt64 in [1, 2, 3] {
      let places = crowdedCity(count: 2000, seed: seed)
      let layout = try render(places, clustering: .always).layout
      let circles = layout.clusters.map(\.rect)
      let pins = layout.annotations.map(\.pin)
      for (index, circle) in circles.enumerated() {
        for other in circles[(index + 1)...] + pins {
          XCTAssertFalse(circle.intersects(other), "seed \(seed): \(circle) overlaps \(other)")
        }
      }
      // Pins left alone never hide each other's heads.
      let head = PinGeometry(style: Style.standard.pin).headRect
      let heads = layout.annotations.map { head.offsetBy(dx: $0.point.x, dy: $0.point.y) }
      for (index, first) in heads.enumerated() {
        for second in heads[(index + 1)...] {
          XCTAssertFalse(first.intersects(second), "seed \(seed): pin heads \(first) and \(second)")
        }
      }
      let markers = circles + pins
      XCTAssertEqual(layout.clusters.reduce(0) { $0 + $1.count } + layout.annotations.count, places.count)
      XCTAssertLessThan(markers.count, 300, "a 640×480 map shows at most a few hundred markers")
      XCTAssertTrue(layout.clusters.allSatisfy { $0.count >= 2 })
    }
  }

  func testNeverKeepsEveryPin() throws {
    let places = crowdedCity()
    let layout = try render(places, clustering: .never, callouts: false).layout
    XCTAssertEqual(layout.annotations.count, places.count)
    XCTAssertEqual(layout.clusters, [])
  }

  func testAutoLeavesPinsThatDoNotOverlapAlone() throws {
    let places: [any Annotation] = [
      RenderKit.place("paris", 48.8566, 2.3522), RenderKit.place("berlin", 52.52, 13.405),
      RenderKit.place("rome", 41.9028, 12.4964),
    ]
    let auto = try render(places)
    let never = try render(places, clustering: .never)
    XCTAssertEqual(auto.layout.clusters, [])
    XCTAssertEqual(auto.layout.annotations.count, 3)
    XCTAssertEqual(auto.data, never.data)
  }

  func testAlwaysMergesOnlyPlacesThatCollide() throws {
    let places: [any Annotation] = [
      RenderKit.place("a", 48.8566, 2.3522), RenderKit.place("b", 48.8567, 2.3523),
      RenderKit.place("far", 52.52, 13.405),
    ]
    let layout = try render(places, clustering: .always).layout
    XCTAssertEqual(layout.clusters.map(\.count), [2])
    XCTAssertEqual(layout.clusters.first?.members, ["b", "a"], "north to south")
    XCTAssertEqual(layout.annotations.map(\.id), ["far"])
  }

  func testLayoutJSONListsClustersWithCappedMembers() throws {
    // 150 places on one spot: one cluster, its first 100 ids listed by id (they tie on the coordinate).
    let places: [any Annotation] = (0..<150).map {
      RenderKit.place(String(format: "p%03d", 149 - $0), 60.17, 24.94)
    }
    let layout = try render(places + [RenderKit.place("tallinn", 59.437, 24.7536)]).layout
    let cluster = try XCTUnwrap(layout.clusters.first)
    XCTAssertEqual(cluster.count, 150)
    XCTAssertEqual(cluster.members, (0..<100).map { String(format: "p%03d", $0) })
    XCTAssertEqual(cluster.coordinate.latitude, 60.17, accuracy: 1e-6)
    XCTAssertEqual(cluster.rect.midX, cluster.point.x, accuracy: 1e-9)
    let json = layout.json
    XCTAssertTrue(json.contains("\"clusters\": [\n    {\n      \"latitude\": 60.17,"), json)
    XCTAssertTrue(json.contains("\"count\": 150,"), json)
  }

  /// Before clusters, the fit kept room for the callouts of a crowded city and then dropped all but a few:
  /// the same places with callouts came out farther away than without them.
  func testTheFitKeepsNoRoomForCalloutsThatAreNotDrawn() throws {
    let places = crowdedCity()
    let with = try render(places)
    let without = try render(places, callouts: false)
    XCTAssertEqual(with.layout.camera, without.layout.camera)
    XCTAssertEqual(with.layout.clusters.map(\.point), without.layout.clusters.map(\.point))
  }

  func testAClusteredCityLooksRight() throws {
    let result = try render(crowdedCity())
    XCTAssertEqual(result.layout.annotations.count, 3, "the three places out of town keep their pins")
    // Vincennes's callout would cover a cluster whichever side it took: it is left out, and said so.
    XCTAssertEqual(
      result.layout.annotations.filter { $0.callout != nil }.map(\.id), ["saint-denis", "versailles"])
    XCTAssertEqual(result.layout.droppedCallouts, ["vincennes"])
    GoldenImage.assertMatches(Data(result.data), named: "clustered-city")
  }

  func testCountLabelsStayShort() {
    XCTAssertEqual(
      [2, 9999, 10_000, 123_456, 999_999, 1_000_000, 1_250_000, 12_345_678].map(ClusterLayer.label),
      ["2", "9999", "10k", "123k", "999k", "1M", "1.2M", "12M"])
  }

  func testClusteringAMillionPointsIsOrderFreeAndBounded() {
    var random = SeededGenerator(seed: 5)
    let points = (0..<200_000).map { _ in
      PixelPoint(
        x: Double.random(in: -50...850, using: &random), y: Double.random(in: -50...650, using: &random))
    }
    let marker = PixelRect(x: -20, y: -36, width: 40, height: 56)
    let pin = PinGeometry(style: Style.standard.pin)
    let size = PixelSize(width: 800, height: 600)
    func cluster(_ points: [PixelPoint]) -> PlaceClustering {
      PlaceClustering(
        points: points, size: size, marker: marker, circle: PixelRect(x: -20, y: -20, width: 40, height: 40),
        pin: pin.extent, head: pin.headRect)
    }
    let first = cluster(points)
    let order = Array(points.indices).shuffled(using: &random)
    let second = cluster(order.map { points[$0] })
    XCTAssertEqual(first.clusters.map(\.point), second.clusters.map(\.point))
    XCTAssertEqual(
      first.clusters.map { Set($0.members) }, second.clusters.map { Set($0.members.map { order[$0] }) })
    XCTAssertEqual(Set(first.singletons), Set(second.singletons.map { order[$0] }))
    XCTAssertEqual(
      first.clusters.reduce(0) { $0 + $1.members.count } + first.singletons.count + first.outside,
      points.count)
  }

  func testTheListedMembersAreTheNorthernmostWhateverTheOrder() throws {
    // 3,000 places in one spot of a few metres, listed south to north: the 100 northernmost are listed.
    var random = SeededGenerator(seed: 4)
    let places: [any Annotation] = (0..<3000).map { index in
      RenderKit.place(
        String(format: "s%04d", index), 60.17 + Double(index) * 1e-8,
        24.94 + Double.random(in: 0...1e-5, using: &random))
    }
    for input in [places, places.reversed(), places.shuffled(using: &random)] {
      let cluster = try XCTUnwrap(
        try render(input + [RenderKit.place("far", 59.4, 24.7)]).layout.clusters.first)
      XCTAssertEqual(cluster.count, 3000)
      XCTAssertEqual(cluster.members, (2900..<3000).reversed().map { String(format: "s%04d", $0) })
    }
  }

  func testAFixedViewNamesTheBoxOfPlacesThatCanShow() throws {
    var request = RenderKit.request([], width: 800, height: 600)
    XCTAssertNil(request.fixedViewBox(), "a fitted map needs every place")
    request.center = Coordinate(latitude: 48.8566, longitude: 2.3522)
    request.zoom = 12
    let box = try XCTUnwrap(request.fixedViewBox(margin: 0))
    let camera = Camera(center: request.center!, zoom: 12, size: request.size)
    XCTAssertEqual(box, camera.bounds)
    let grown = try XCTUnwrap(request.fixedViewBox())
    XCTAssertLessThan(grown.west, box.west)
    XCTAssertGreaterThan(grown.north, box.north)
    // Across 180°, and a world smaller than the image: every latitude.
    request.center = Coordinate(latitude: -17, longitude: 179.9)
    XCTAssertGreaterThan(try XCTUnwrap(request.fixedViewBox()).west, 0)
    XCTAssertLessThan(try XCTUnwrap(request.fixedViewBox()).east, 0)
    request.zoom = 0.5
    let world = try XCTUnwrap(request.fixedViewBox())
    XCTAssertEqual([world.north, world.south, world.west, world.east], [90, -90, -180, 180])
    request.spanMeters = 1000
    XCTAssertNil(request.fixedViewBox())
  }
}
