import Foundation
import MapMath
import XCTest

@testable import Rendering

final class SVGIdentifiersTests: XCTestCase {
  private func renumbered(_ text: String) -> String {
    String(decoding: SVGIdentifiers.renumber(Data(text.utf8)), as: UTF8.self)
  }

  // MARK: Renumbering

  func testIdsAndReferencesAreRenumberedTogether() {
    let input = """
      <defs><g id="glyph3-1"><path d="M 0 0"/></g><g id="glyph3-2"/><g id="glyph12-1"/>\
      <image id="image40" width="1" height="1"/><clipPath id="clip7"><rect/></clipPath>\
      <clipPath id="clip5"><rect/></clipPath><linearGradient id="linear9"/></defs>\
      <g clip-path="url(#clip7)"><use xlink:href="#glyph3-2" x="1"/><use xlink:href="#image40"/></g>\
      <g clip-path="url(#clip5)"><use xlink:href="#glyph12-1"/><use xlink:href="#glyph3-1"/></g>\
      <path fill="url(#linear9)"/><g clip-path="url(#clip7)"/>
      """
    let expected = """
      <defs><g id="glyph0-1"><path d="M 0 0"/></g><g id="glyph0-2"/><g id="glyph1-1"/>\
      <image id="image0" width="1" height="1"/><clipPath id="clip0"><rect/></clipPath>\
      <clipPath id="clip1"><rect/></clipPath><linearGradient id="linear0"/></defs>\
      <g clip-path="url(#clip0)"><use xlink:href="#glyph0-2" x="1"/><use xlink:href="#image0"/></g>\
      <g clip-path="url(#clip1)"><use xlink:href="#glyph1-1"/><use xlink:href="#glyph0-1"/></g>\
      <path fill="url(#linear0)"/><g clip-path="url(#clip0)"/>
      """
    XCTAssertEqual(renumbered(input), expected)
  }

  func testTheSameDocumentWithOtherNumbersGivesTheSameText() {
    func document(_ a: Int, _ b: Int, _ c: Int) -> String {
      """
      <g id="surface\(a)"><clipPath id="clip\(b)"/><g id="glyph\(c)-0"/><use xlink:href="#glyph\(c)-0"/>\
      <g clip-path="url(#clip\(b))"/><pattern id="pattern\(a + b)"/><use xlink:href="#pattern\(a + b)"/></g>
      """
    }
    let first = renumbered(document(1, 2, 0))
    XCTAssertEqual(renumbered(document(57, 13, 4)), first)
    XCTAssertEqual(renumbered(document(1000, 999, 42)), first)
    XCTAssertEqual(renumbered(first), first, "renumbering is idempotent")
  }

  func testTextOtherThanIdsIsLeftAlone() {
    for text in [
      ##"<path d="M 1 2 L 3 4" fill="#52D166"/>"##, "<title>clip12 surface3</title>",
      #"<rect style="fill:rgb(32%,82%,40%)"/>"#, "", "no ids here",
    ] {
      XCTAssertEqual(renumbered(text), text)
    }
  }

  func testIdsAtTheVeryEndAndHalfIds() {
    XCTAssertEqual(renumbered("<use xlink:href=\"#clip12"), "<use xlink:href=\"#clip0")
    XCTAssertEqual(renumbered(#"<g id="surface9"#), #"<g id="surface0"#)
    for text in ["#", "abc#", "#clip", "x id=\"", "id=\"clip", "#surfaceX1", "#Clip3"] {
      XCTAssertEqual(renumbered(text), text)
    }
  }

  // MARK: Real SVG output

  private func svg(_ places: [PointAnnotation], tiles: Bool = true) throws -> String {
    var request = RenderKit.request(places, width: 240, height: 160, format: .svg)
    if tiles { request.tiles = try RenderKit.fixtureTiles() }
    return String(decoding: try Snapshotter.render(request).data, as: UTF8.self)
  }

  private let paris = [
    RenderKit.place("louvre", 48.8606, 2.3376, title: "Louvre"),
    RenderKit.place("eiffel", 48.8584, 2.2945, title: "Tour Eiffel"),
  ]
  private let tokyo = [RenderKit.place("tower", 35.6586, 139.7454, title: "東京タワー", subtitle: "Landmark")]

  func testRenderingOtherMapsInBetweenDoesNotChangeTheBytes() throws {
    let first = try svg(paris)
    _ = try svg(tokyo)
    _ = try svg(paris + tokyo, tiles: false)
    let again = try svg(paris)
    XCTAssertEqual(again, first)
    if again != first {
      let a = first.split(separator: "\n")
      let b = again.split(separator: "\n")
      if let index = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
        XCTFail("first difference on line \(index + 1):\n\(a[index].prefix(200))\n\(b[index].prefix(200))")
      }
    }
  }

  func testEveryReferenceHasItsDefinition() throws {
    let text = try svg(paris)
    let ids = Set(text.matches(of: /id="([^"]+)"/).map { String($0.output.1) })
    let references = Set(text.matches(of: /(?:href="#|url\(#)([^")]+)/).map { String($0.output.1) })
    XCTAssertFalse(references.isEmpty)
    XCTAssertTrue(references.isSubset(of: ids), "undefined: \(references.subtracting(ids).sorted())")
    // Ids are unique.
    XCTAssertEqual(text.matches(of: /id="([^"]+)"/).count, ids.count)
  }

  func testTilesAreEmbeddedImagesAndPinsAreVectorPaths() throws {
    let text = try svg(paris)
    XCTAssertTrue(text.contains("<image"), "the basemap is embedded")
    XCTAssertTrue(text.contains("data:image/png;base64,"), "as PNG data")
    XCTAssertFalse(text.contains("file:"), "not linked to a file")
    XCTAssertTrue(text.contains("<path"), "pins are vector paths")
    // The pins' green (the head's gradient passes through the pin colour at its middle stop).
    XCTAssertTrue(
      text.contains("rgb(32%,82%,40%)") || text.contains("rgb(31.9") || text.contains("#52d166"),
      "the pin colour is in the SVG")
    XCTAssertTrue(text.hasSuffix("</svg>\n") || text.hasSuffix("</svg>"), String(text.suffix(40)))
  }

  func testAMapWithoutTilesHasNoImages() throws {
    let text = try svg(paris, tiles: false)
    XCTAssertFalse(text.contains("<image"))
    XCTAssertTrue(text.contains("<path"))
  }
}
