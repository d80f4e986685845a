import Foundation
import TestSupport
import XCTest

/// `mymap render` that succeeds: the files and bytes the user gets.
final class RenderOutputTests: XCTestCase {
  func testPNGHasTheRequestedSizeInPixels() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "trip.png"], size: "240x160"))
    assertSucceeded(result)
    XCTAssertTrue(result.stdout.isEmpty, "nothing on stdout when writing a file")
    assertPNG(sandbox.contents(of: "trip.png"), width: 240, height: 160)
    XCTAssertEqual(try sandbox.files(), ["trip.png"])
  }

  func testScale2DoublesThePixels() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "trip@2x.png", "--scale", "2", "-q"]))
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "trip@2x.png"), width: 400, height: 300)
  }

  func testScale3TriplesThePixels() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--out", "trip@3x.png", "--scale", "3", "-q"], size: "60x40"))
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "trip@3x.png"), width: 180, height: 120)
  }

  func testDefaultsAreMapPNGAt800x600() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(["render", "--locations", Inputs.europeTrip, "--tiles", Inputs.europeTiles])
    assertSucceeded(result)
    XCTAssertEqual(try sandbox.files(), ["map.png"])
    assertPNG(sandbox.contents(of: "map.png"), width: 800, height: 600)
  }

  func testSVG() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "trip.svg", "-q"]))
    assertSucceeded(result)
    let svg = try XCTUnwrap(sandbox.contents(of: "trip.svg").map { String(decoding: $0, as: UTF8.self) })
    XCTAssertTrue(svg.hasPrefix("<?xml"), "SVG starts with the XML declaration: \(svg.prefix(40))")
    let root = try XCTUnwrap(svg.range(of: "<svg").map { svg[$0.lowerBound...].prefix { $0 != ">" } })
    XCTAssertTrue(root.contains(#"width="200"#), "root element: \(root)")
    XCTAssertTrue(root.contains(#"height="150"#), "root element: \(root)")
    XCTAssertTrue(svg.hasSuffix("</svg>\n") || svg.hasSuffix("</svg>"), "the SVG is complete")
  }

  func testSVGWithScale2IsInPixels() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "trip.svg", "--scale", "2", "-q"]))
    assertSucceeded(result)
    let svg = String(decoding: try XCTUnwrap(sandbox.contents(of: "trip.svg")), as: UTF8.self)
    XCTAssertTrue(svg.contains(#"width="400"#) && svg.contains(#"height="300"#), String(svg.prefix(300)))
  }

  func testPDF() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "trip.pdf", "-q"]))
    assertSucceeded(result)
    let pdf = try XCTUnwrap(sandbox.contents(of: "trip.pdf"))
    XCTAssertTrue(pdf.starts(with: Data("%PDF-".utf8)), "starts with %PDF-: \([UInt8](pdf.prefix(8)))")
    XCTAssertEqual(try mediaBox(pdf), [0, 0, 200, 150])
    let tail = String(decoding: pdf.suffix(16), as: UTF8.self)
    XCTAssertTrue(tail.contains("%%EOF"), "the PDF is complete: \(tail.debugDescription)")
  }

  func testFormatOptionOverridesTheExtension() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "picture.out", "--format", "svg", "-q"]))
    assertSucceeded(result)
    let svg = try XCTUnwrap(sandbox.contents(of: "picture.out"))
    XCTAssertTrue(svg.starts(with: Data("<?xml".utf8)))

    let pdf = try sandbox.run(Inputs.renderEurope(["--out", "named.png", "--format", "PDF", "-q"]))
    assertSucceeded(pdf)
    XCTAssertTrue(try XCTUnwrap(sandbox.contents(of: "named.png")).starts(with: Data("%PDF-".utf8)))
  }

  func testOutDashWritesPNGBytesToStdout() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(Inputs.renderEurope(["--out", "-"], size: "120x90"))
    assertSucceeded(result)
    assertPNG(result.stdout, width: 120, height: 90)
    XCTAssertEqual(try sandbox.files(), [], "nothing written to the folder (not even map.png)")
  }

  func testOutDashWithFormatSVGWritesSVGToStdout() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      Inputs.renderEurope(["--out", "-", "--format", "svg", "-q"], size: "120x90"))
    assertSucceeded(result)
    XCTAssertTrue(result.stdout.starts(with: Data("<?xml".utf8)), result.stdoutText.prefix(60).description)
  }

  func testLocationsFromStandardInput() throws {
    let sandbox = try Sandbox()
    let input = try XCTUnwrap(FileManager.default.contents(atPath: Inputs.europeTrip))
    let result = try sandbox.run(
      [
        "render", "--locations", "-", "--tiles", Inputs.europeTiles, "--size", "200x150", "--cluster",
        "never", "--out", "stdin.png",
        "--layout-json", "-", "-q",
      ],
      stdin: input)
    assertSucceeded(result)
    XCTAssertEqual(try Layout(result.stdout).ids, Inputs.europeIDs)
    assertPNG(sandbox.contents(of: "stdin.png"), width: 200, height: 150)
  }

  func testGeoJSONLocations() throws {
    let sandbox = try Sandbox()
    let input = try sandbox.write(Inputs.japanGeoJSON, to: "japan.geojson")
    let result = try sandbox.run(
      ["render", "--locations", input, "--size", "200x150", "--out", "japan.png", "--layout-json", "-", "-q"])
    assertSucceeded(result)
    XCTAssertEqual(try Layout(result.stdout).ids, ["tokyo-tower", "nishiki"])
  }

  func testWithoutTilesTheBuiltInBasemapIsUsed() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run(
      [
        "render", "--locations", Inputs.europeTrip, "--size", "200x150", "--out", "plain.png", "--offline",
        "--layout-json", "-", "-q",
      ])
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "plain.png"), width: 200, height: 150)
    let tiles = try Layout(result.stdout).tiles
    XCTAssertEqual(number(tiles["needed"]), 0)
    XCTAssertEqual(number(tiles["missing"]), 0)
  }

  func testStyleByNameFromMYMAP_STYLES() throws {
    let sandbox = try Sandbox()
    var style = try XCTUnwrap(
      FileManager.default.contents(atPath: RepositoryPaths.styles.appendingPathComponent("default.json").path)
    )
    style = Data(
      String(decoding: style, as: UTF8.self).replacingOccurrences(of: "\"default\"", with: "\"mine\"").utf8)
    try sandbox.write(style, to: "styles/mine.json")
    let result = try sandbox.run(
      Inputs.renderEurope(["--style", "mine", "--out", "styled.png", "-q"]),
      environment: ["MYMAP_STYLES": sandbox.path("styles")])
    assertSucceeded(result)
    assertPNG(sandbox.contents(of: "styled.png"), width: 200, height: 150)

    let file = try sandbox.run(
      Inputs.renderEurope(["--style", sandbox.path("styles/mine.json"), "--out", "f.png"]))
    assertSucceeded(file)
  }

  /// The numbers of the first `/MediaBox [ … ]` in a PDF.
  private func mediaBox(_ pdf: Data) throws -> [Double] {
    let text = String(decoding: pdf, as: Unicode.ASCII.self)
    let start = try XCTUnwrap(text.range(of: "/MediaBox"), "the PDF has a /MediaBox")
    let open = try XCTUnwrap(text.range(of: "[", range: start.upperBound..<text.endIndex))
    let close = try XCTUnwrap(text.range(of: "]", range: open.upperBound..<text.endIndex))
    return text[open.upperBound..<close.lowerBound].split(separator: " ").compactMap { Double($0) }
  }
}
