import Foundation
import TestSupport
import XCTest

/// `mymap diff` sees one changed letter in a callout at any size and scale, and passes the same map
/// rasterized another way (antialiasing, hinting: what another Cairo or FreeType build does) where that
/// noise is smaller than a letter (scale 2 and 3; see LocalTolerance.scaled for the figures).
final class LetterDiffTests: XCTestCase {
  private func places(_ subtitle: String) -> String {
    """
    { "locations": [
      { "id": "a", "latitude": 48.8584, "longitude": 2.2945, "description": "Eiffel Tower", "category": "\(subtitle)" },
      { "id": "b", "latitude": 48.8606, "longitude": 2.3376, "description": "Louvre Museum", "category": "Museum" } ] }
    """
  }

  private func render(
    _ sandbox: Sandbox, subtitle: String, size: String, scale: Int, out: String, raster: String? = nil
  ) throws {
    let file = try sandbox.write(places(subtitle), to: "places-\(subtitle).json")
    let result = try sandbox.run(
      ["render", "--locations", file, "--size", size, "--scale", String(scale), "--out", out, "-q"],
      environment: raster.map { ["MYMAP_FONT_RASTER": $0] } ?? [:])
    assertSucceeded(result)
  }

  func testOneChangedLetterFailsAtEveryScaleAndSize() throws {
    let sandbox = try Sandbox()
    for (size, scale) in [("400x300", 1), ("400x300", 2), ("400x300", 3), ("4800x3200", 1), ("1600x1067", 3)]
    {
      let name = "\(size)@\(scale)"
      try render(sandbox, subtitle: "Bar", size: size, scale: scale, out: "bar-\(name).png")
      try render(sandbox, subtitle: "Bat", size: size, scale: scale, out: "bat-\(name).png")
      let result = try sandbox.run(
        ["diff", "bar-\(name).png", "bat-\(name).png", "--scale", String(scale), "--json"])
      XCTAssertEqual(result.status, 1, "\(name): \(result.stdoutText)")
      let figures = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
      XCTAssertEqual(figures["passes"] as? Bool, false, name)
      let block = try XCTUnwrap(figures["worstBlock"] as? [String: Any], name)
      let tolerance = try XCTUnwrap(figures["tolerance"] as? [String: Any])
      XCTAssertEqual(tolerance["blockSize"] as? Int, 16 * scale)
      XCTAssertEqual(tolerance["smallestDetectedChange"] as? Int, 2 * scale * scale + 1)
      XCTAssertGreaterThanOrEqual(
        try XCTUnwrap(block["differingPixels"] as? Int), 2 * scale * scale + 1, name)
      // Under the old per-image rule (0.2 % of the pixels) the letter passed.
      XCTAssertLessThan(try XCTUnwrap(figures["differingFraction"] as? Double), 0.002, name)
    }
  }

  func testAnotherRasterizationPassesAtScale2And3() throws {
    let sandbox = try Sandbox()
    for scale in [2, 3] {
      try render(sandbox, subtitle: "Bar", size: "400x300", scale: scale, out: "base-\(scale).png")
      for raster in ["antialias=none", "antialias=subpixel", "hint=slight"] {
        let out = "\(raster)-\(scale).png"
        try render(sandbox, subtitle: "Bar", size: "400x300", scale: scale, out: out, raster: raster)
        XCTAssertNotEqual(sandbox.contents(of: out), sandbox.contents(of: "base-\(scale).png"), raster)
        let result = try sandbox.run(["diff", "base-\(scale).png", out, "--scale", String(scale)])
        XCTAssertEqual(result.status, 0, "\(raster) at scale \(scale): \(result.stdoutText)")
      }
    }
  }
}
