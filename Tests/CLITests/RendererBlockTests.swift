import Foundation
import TestSupport
import XCTest

/// The layout JSON's `renderer` block: the cairo and pango versions and the font files fontconfig picks
/// for the style's fonts, so that two machines whose maps differ can see why.
final class RendererBlockTests: XCTestCase {
  func testTheLayoutNamesTheLibrariesAndTheFontFiles() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "map.png", "--layout-json", "-", "-q"]))
    assertSucceeded(result)
    let layout = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let renderer = try XCTUnwrap(layout["renderer"] as? [String: Any], "\(layout.keys)")
    for library in ["cairo", "pango"] {
      let version = try XCTUnwrap(renderer[library] as? String, library)
      XCTAssertNotNil(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression), version)
    }
    let fonts = try XCTUnwrap(renderer["fonts"] as? [[String: Any]])
    // The default style's list: DejaVu Sans, then Noto Sans CJK JP for what DejaVu lacks.
    XCTAssertEqual(fonts.compactMap { $0["family"] as? String }, ["DejaVu Sans", "Noto Sans CJK JP"])
    let file = try XCTUnwrap(fonts.first?["file"] as? String)
    XCTAssertTrue(FileManager.default.fileExists(atPath: file), file)
    XCTAssertTrue(file.lowercased().contains("dejavu"), file)
  }
}
