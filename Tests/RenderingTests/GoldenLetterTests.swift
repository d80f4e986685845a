import Foundation
import MapMath
import TestSupport
import XCTest

@testable import Rendering

/// The goldens' own check (`GoldenImage.check`, the standard tolerance) fails when one letter of a
/// callout changes, at every scale, although far fewer than 0.2 % of the pixels differ.
final class GoldenLetterTests: XCTestCase {
  private func render(subtitle: String, scale: Double) throws -> Data {
    var request = RenderKit.request(
      [
        RenderKit.place("eiffel", 48.8584, 2.2945, title: "Eiffel Tower", subtitle: subtitle),
        RenderKit.place("louvre", 48.8606, 2.3376, title: "Louvre Museum", subtitle: "Museum"),
      ], width: 400, height: 300, scale: scale)
    request.tiles = try RenderKit.fixtureTiles()
    request.clustering = .never
    return Data(try Snapshotter.render(request).data)
  }

  func testOneChangedLetterFailsTheGoldenCheck() throws {
    let goldens = try TemporaryDirectory(prefix: "mymap-golden-letter")
    for scale in [1.0, 2.0, 3.0] {
      let name = "letter-\(Int(scale))"
      let bar = try render(subtitle: "Bar", scale: scale)
      guard case .recorded = GoldenImage.check(bar, named: name, directory: goldens.url, record: true) else {
        return XCTFail("not recorded")
      }
      guard case .matched = GoldenImage.check(bar, named: name, directory: goldens.url, record: false) else {
        return XCTFail("the same image must match")
      }
      let bat = try render(subtitle: "Bat", scale: scale)
      let outcome = GoldenImage.check(bat, named: name, directory: goldens.url, record: false)
      guard case .mismatched(let result, _, _, _) = outcome else {
        return XCTFail("scale \(scale): one letter passed: \(outcome.failureMessage ?? "matched")")
      }
      XCTAssertLessThan(result.differingFraction, 0.002, "the old per-image rule would have passed it")
      XCTAssertFalse(result.blocksPass, result.summary)
    }
  }
}
