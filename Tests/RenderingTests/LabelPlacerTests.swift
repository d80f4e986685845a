import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// `LabelPlacer`: basemap labels by priority, never over each other, the overlays or the image's edge.
final class LabelPlacerTests: XCTestCase {
  private let size = PixelSize(width: 400, height: 300)

  private func city(
    _ name: String, _ rank: Double, at x: Double, _ y: Double, width: Double = 60, dot: Double = 2.5
  ) -> LabelCandidate {
    LabelCandidate(
      kind: .city, name: name, rank: rank, anchor: PixelPoint(x: x, y: y),
      textSize: PixelSize(width: width, height: 14), dotRadius: dot)
  }

  private func country(_ name: String, _ rank: Double, at x: Double, _ y: Double) -> LabelCandidate {
    LabelCandidate(
      kind: .country, name: name, rank: rank, anchor: PixelPoint(x: x, y: y),
      textSize: PixelSize(width: 90, height: 13))
  }

  private func names(_ placed: [PlacedLabel], _ candidates: [LabelCandidate]) -> [String] {
    placed.map { candidates[$0.index].name }
  }

  // MARK: Order

  func testCountriesComeFirstThenRankThenName() {
    let candidates = [
      city("Bravo", 10, at: 10, 10), city("Alpha", 10, at: 20, 20), city("Big", 1_000, at: 30, 30),
      country("SMALL", 1, at: 40, 40), country("LARGE", 9, at: 50, 50), city("Alpha", 10, at: 5, 20),
    ]
    let order = LabelPlacer.order(candidates).map { "\(candidates[$0].name)@\(candidates[$0].anchor.x)" }
    XCTAssertEqual(order, ["LARGE@50.0", "SMALL@40.0", "Big@30.0", "Alpha@5.0", "Alpha@20.0", "Bravo@10.0"])
  }

  func testTheOrderDoesNotDependOnTheInputOrder() {
    var generator = SeededGenerator(seed: 7)
    let candidates = (0..<60).map { index in
      city(
        "c\(index % 17)", Double(generator.int(in: 1...5)), at: generator.double(in: 0..<400),
        generator.double(in: 0..<300), width: generator.double(in: 20..<120))
    }
    var first = LabelPlacer(size: size, obstacles: [])
    let expected = first.place(candidates).map { candidates[$0.index].anchor }
    for seed in 1...5 {
      var shuffler = SeededGenerator(seed: UInt64(seed))
      let shuffled = candidates.shuffled(using: &shuffler)
      var placer = LabelPlacer(size: size, obstacles: [])
      XCTAssertEqual(placer.place(shuffled).map { shuffled[$0.index].anchor }, expected, "shuffle \(seed)")
    }
  }

  // MARK: Collisions

  func testTheHigherRankWins() {
    // Two cities whose labels overlap wherever they go: only the larger one is drawn, in either order.
    let big = city("Big", 2_000_000, at: 200, 150, width: 300)
    let small = city("Small", 30_000, at: 202, 152, width: 300)
    for candidates in [[small, big], [big, small]] {
      var placer = LabelPlacer(size: size, obstacles: [])
      XCTAssertEqual(names(placer.place(candidates), candidates), ["Big"])
    }
  }

  func testACityTriesRightThenLeftThenAboveThenBelow() {
    let anchor = PixelPoint(x: 200, y: 150)
    let candidate = city("Town", 1, at: anchor.x, anchor.y, width: 50)
    var placer = LabelPlacer(size: size, obstacles: [])
    let positions = placer.positions(for: candidate)
    XCTAssertEqual(positions.count, 4)
    XCTAssertGreaterThan(positions[0].minX, anchor.x, "right")
    XCTAssertEqual(positions[0].midY, anchor.y, accuracy: 1e-9)
    XCTAssertLessThan(positions[1].maxX, anchor.x, "left")
    XCTAssertLessThan(positions[2].maxY, anchor.y, "above")
    XCTAssertEqual(positions[2].midX, anchor.x, accuracy: 1e-9)
    XCTAssertGreaterThan(positions[3].minY, anchor.y, "below")

    // Block right, left and above in turn (at their far ends, away from the other positions): the next
    // position is taken.
    let farEnds = [
      PixelRect(x: positions[0].maxX - 4, y: anchor.y - 2, width: 4, height: 4),
      PixelRect(x: positions[1].minX, y: anchor.y - 2, width: 4, height: 4),
      PixelRect(x: anchor.x - 2, y: positions[2].minY, width: 4, height: 4),
      PixelRect(x: anchor.x - 2, y: positions[3].maxY - 4, width: 4, height: 4),
    ]
    for expected in 0..<4 {
      placer = LabelPlacer(size: size, obstacles: Array(farEnds[..<expected]))
      let placed = placer.place(candidate, index: 0)
      XCTAssertEqual(placed?.text, positions[expected], "with \(expected) positions blocked")
      XCTAssertNotNil(placed?.dot)
    }
    let blocked = farEnds
    placer = LabelPlacer(size: size, obstacles: blocked)
    XCTAssertNil(placer.place(candidate, index: 0), "every position blocked")
  }

  func testACountryNameMovesUpOrDownWhenItsCentreIsTaken() {
    let name = country("COUNTRY", 5, at: 200, 150)
    var placer = LabelPlacer(size: size, obstacles: [])
    let positions = placer.positions(for: name)
    XCTAssertEqual(positions.map(\.midX), Array(repeating: 200, count: 5))
    XCTAssertEqual(positions.map(\.midY), [150, 137, 163, 124, 176])
    // A pin on the centre: the name goes a line up.
    placer = LabelPlacer(size: size, obstacles: [PixelRect(x: 195, y: 148, width: 10, height: 10)])
    XCTAssertEqual(placer.place(name, index: 0)?.text, positions[1])
  }

  func testACoveredDotDropsTheCity() {
    let candidate = city("Hidden", 1, at: 100, 100)
    var placer = LabelPlacer(size: size, obstacles: [PixelRect(x: 95, y: 95, width: 10, height: 10)])
    XCTAssertFalse(placer.dotFits(at: candidate.anchor, radius: 2.5))
    XCTAssertNil(placer.place(candidate, index: 0))
  }

  func testLabelsStayInsideTheImage() {
    // Near the right edge the text goes left of the dot; in a corner it may not fit at all.
    var placer = LabelPlacer(size: size, obstacles: [])
    let nearRight = placer.place(city("East", 1, at: 390, 150), index: 0)
    XCTAssertEqual(try XCTUnwrap(nearRight).text.maxX, 390 - 2.5 - placer.dotGap, accuracy: 1e-9)
    XCTAssertNil(
      placer.place(country("LONG COUNTRY", 1, at: 10, 10), index: 1), "centred text would stick out")
    XCTAssertNil(placer.place(city("Edge", 1, at: 1, 150), index: 2), "the dot itself is on the edge")
  }

  func testNothingOverlapsOnManyRandomMaps() {
    var placedCount = 0
    var droppedCount = 0
    for seed in UInt64(1)...40 {
      var generator = SeededGenerator(seed: seed)
      let obstacles = (0..<generator.int(in: 0...12)).map { _ in
        PixelRect(
          x: generator.double(in: -20..<400), y: generator.double(in: -20..<300),
          width: generator.double(in: 10..<160), height: generator.double(in: 10..<60))
      }
      let candidates = (0..<generator.int(in: 5...120)).map { index -> LabelCandidate in
        let x = generator.double(in: 0..<400)
        let y = generator.double(in: 0..<300)
        return generator.int(in: 0...9) == 0
          ? country("COUNTRY \(index)", Double(generator.int(in: 1...9)), at: x, y)
          : city(
            "city \(index)", Double(generator.int(in: 1...100_000)), at: x, y,
            width: generator.double(in: 15..<140), dot: generator.bool() ? 2.5 : 0)
      }
      var placer = LabelPlacer(size: size, obstacles: obstacles)
      let placed = placer.place(candidates)
      placedCount += placed.count
      droppedCount += candidates.count - placed.count
      let inner = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
      for (index, label) in placed.enumerated() {
        XCTAssertTrue(inner.contains(label.extent), "seed \(seed): \(label) sticks out")
        for obstacle in obstacles {
          XCTAssertFalse(label.text.intersects(obstacle), "seed \(seed): \(label) covers \(obstacle)")
          XCTAssertFalse(label.dot?.intersects(obstacle) ?? false, "seed \(seed): \(label)'s dot")
        }
        for other in placed[(index + 1)...] {
          for a in [label.text, label.dot].compactMap({ $0 }) {
            for b in [other.text, other.dot].compactMap({ $0 }) {
              XCTAssertFalse(a.intersects(b), "seed \(seed): \(label) overlaps \(other)")
            }
          }
        }
      }
    }
    // The maps are crowded enough that both happen.
    XCTAssertGreaterThan(placedCount, 200)
    XCTAssertGreaterThan(droppedCount, 200)
  }
}
