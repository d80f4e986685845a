import MapMath
import XCTest

@testable import Rendering

/// A test-only plate: a solid rectangle of a given size that remembers where it was reported.
private final class SolidPlate: PlateContent {
  let size: PixelSize
  let color: Color
  private(set) var reported: PixelRect?

  init(size: PixelSize, color: Color) {
    self.size = size
    self.color = color
  }

  func draw(in plate: PixelRect, on canvas: Canvas) { canvas.drawing.fillRect(plate, color: color) }

  func report(_ plate: PixelRect, to result: inout RenderResult) { reported = plate }
}

/// `CornerPlacer`, the one placer of every plate, and `PlateOverlay`, which reserves a corner and moves
/// when what is drawn there cannot.
final class CornerPlacerTests: XCTestCase {
  private let placer = CornerPlacer(imageSize: PixelSize(width: 400, height: 300), margin: 4)
  private let size = PixelSize(width: 100, height: 20)

  func testAPlateSitsMarginPointsInFromEachCorner() {
    XCTAssertEqual(
      placer.rect(for: size, in: .bottomRight), PixelRect(x: 296, y: 276, width: 100, height: 20))
    XCTAssertEqual(placer.rect(for: size, in: .bottomLeft), PixelRect(x: 4, y: 276, width: 100, height: 20))
    XCTAssertEqual(placer.rect(for: size, in: .topRight), PixelRect(x: 296, y: 4, width: 100, height: 20))
    XCTAssertEqual(placer.rect(for: size, in: .topLeft), PixelRect(x: 4, y: 4, width: 100, height: 20))
  }

  func testTheFirstFreeCornerInTheOrderOfPreference() throws {
    let all = PlateCorner.allCases
    XCTAssertEqual(placer.firstFree(for: size, among: all, avoiding: [])?.corner, .bottomRight)
    XCTAssertEqual(
      placer.firstFree(for: size, among: [.topLeft, .bottomRight], avoiding: [])?.corner, .topLeft)
    // A pin in the bottom-right corner, then the bottom-left one too.
    let southEast = PixelRect(x: 350, y: 270, width: 10, height: 20)
    let southWest = PixelRect(x: 50, y: 280, width: 10, height: 20)
    let free = try XCTUnwrap(placer.firstFree(for: size, among: all, avoiding: [southEast]))
    XCTAssertEqual(free.corner, .bottomLeft)
    XCTAssertEqual(free.rect, placer.rect(for: size, in: .bottomLeft))
    XCTAssertEqual(
      placer.firstFree(for: size, among: all, avoiding: [southEast, southWest])?.corner, .topRight)
    // Touching a plate's edge does not take its corner.
    let touching = PixelRect(x: 286, y: 270, width: 10, height: 30)
    XCTAssertEqual(placer.firstFree(for: size, among: all, avoiding: [touching])?.corner, .bottomRight)
  }

  func testNoCornerIsFreeWhenSomethingCoversThemAll() {
    let everywhere = [PixelRect(x: 0, y: 0, width: 400, height: 300)]
    XCTAssertNil(placer.firstFree(for: size, among: PlateCorner.allCases, avoiding: everywhere))
    XCTAssertNil(placer.firstFree(for: size, among: [], avoiding: []))
    // Four small marks, one in each corner.
    let marks = PlateCorner.allCases.map { placer.rect(for: size, in: $0).insetBy(dx: 45, dy: 5) }
    XCTAssertNil(placer.firstFree(for: size, among: PlateCorner.allCases, avoiding: marks))
  }

  func testAPlateReservesItsCornerAndMovesOnlyOffWhatIsDrawnThere() throws {
    let camera = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: placer.imageSize)
    var plate = PlateOverlay(
      content: SolidPlate(size: size, color: .white), imageSize: placer.imageSize, margin: 4,
      corners: PlateCorner.allCases)
    XCTAssertEqual(plate.reserve(on: camera, around: []), [placer.rect(for: size, in: .bottomRight)])
    XCTAssertNil(plate.settle(on: camera, around: [PixelRect(x: 0, y: 0, width: 10, height: 10)]), "stays")
    let pin = PixelRect(x: 350, y: 270, width: 10, height: 20)
    XCTAssertEqual(plate.settle(on: camera, around: [pin]), [placer.rect(for: size, in: .bottomLeft)])
    XCTAssertEqual(plate.rect, placer.rect(for: size, in: .bottomLeft))
    // Nowhere free: it stays where it is.
    XCTAssertNil(plate.settle(on: camera, around: [PixelRect(x: 0, y: 0, width: 400, height: 300)]))
    XCTAssertEqual(plate.rect, placer.rect(for: size, in: .bottomLeft))
    // A plate with no corner to go to is not drawn.
    var nowhere = PlateOverlay(
      content: SolidPlate(size: size, color: .white), imageSize: placer.imageSize, margin: 4, corners: [])
    XCTAssertEqual(nowhere.reserve(on: camera, around: []), [])
    XCTAssertNil(nowhere.settle(on: camera, around: []))
  }

  func testTwoPlatesThatPreferOneCornerShareTheCorners() throws {
    var request = RenderKit.request([RenderKit.place("paris", 48.85, 2.35)], width: 400, height: 300)
    request.center = Coordinate(latitude: 48.85, longitude: 2.35)
    request.zoom = 12
    let red = Color(red: 1, green: 0, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 1)
    let first = SolidPlate(size: size, color: red)
    let second = SolidPlate(size: size, color: blue)
    let plates = [first, second].map {
      PlateOverlay(content: $0, imageSize: request.size, margin: 4, corners: PlateCorner.allCases)
    }
    let result = try Snapshotter.render(request, adding: plates)
    // The first sees the second in the corner both reserved and moves; the second then has it alone.
    XCTAssertEqual(first.reported, placer.rect(for: size, in: .bottomLeft))
    XCTAssertEqual(second.reported, placer.rect(for: size, in: .bottomRight))
    let image = try RenderKit.decode(result)
    XCTAssertLessThanOrEqual(RGBA(image, 50, 285).distance(to: red), 1)
    XCTAssertLessThanOrEqual(RGBA(image, 340, 285).distance(to: blue), 1)
    // The callout keeps clear of both reserved corners... and the pin, in the middle, of neither plate.
    let place = try XCTUnwrap(result.layout.annotations.first)
    for plate in [first.reported, second.reported].compactMap({ $0 }) {
      XCTAssertFalse(place.pin.intersects(plate))
      XCTAssertFalse(place.callout?.intersects(plate) ?? false)
    }
  }
}
