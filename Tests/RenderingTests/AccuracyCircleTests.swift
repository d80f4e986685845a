import MapMath
import XCTest

@testable import Rendering

/// The accuracy circle of the user's position lies under the pins and callouts, as in the app: a callout
/// inside a wide circle keeps its white, the pin head its green.
final class AccuracyCircleTests: XCTestCase {
  func testTheAccuracyCircleIsUnderThePinsAndCallouts() throws {
    let place = RenderKit.place("museum", 60.1699, 24.9384, title: "Museum")
    let user = UserPosition(coordinate: Coordinate(latitude: 60.1705, longitude: 24.9400), accuracy: 2_000)
    var request = RenderKit.request([place], user: user, width: 400, height: 300)
    request.spanMeters = 1_500
    request.center = user.coordinate
    let result = try Snapshotter.render(request)
    let image = try RenderKit.decode(result)
    let layout = try XCTUnwrap(result.layout.annotations.first)
    let callout = try XCTUnwrap(layout.callout)
    // The whole image is inside the 2 km circle: the map around the callout is tinted blue.
    let outside = image.pixel(x: 5, y: 5)
    XCTAssertGreaterThan(Int(outside.blue), Int(outside.red) + 5, "the circle tints the map: \(outside)")
    // The callout's left padding, between its border and its text, is the callout's own white.
    let inside = image.pixel(x: Int(callout.minX + 5), y: Int(callout.midY))
    XCTAssertEqual([inside.red, inside.green, inside.blue], [255, 255, 255], "callout background \(inside)")
    // The pin head's centre keeps the pin's green: more green than blue.
    let head = RenderKit.headRect(at: layout.point, scale: 1)
    let pin = image.pixel(x: Int(head.midX), y: Int(head.midY))
    XCTAssertGreaterThan(Int(pin.green), Int(pin.blue) + 40, "pin head \(pin)")
  }
}
