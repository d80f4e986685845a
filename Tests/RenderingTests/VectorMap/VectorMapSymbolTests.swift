import Foundation
import MapMath
import MapStyle
import XCTest

@testable import Rendering

/// Point labels of synthetic tiles: where text-anchor, text-offset and text-max-width put them, their
/// text as the style makes it, and which of two labels at one place wins.
final class VectorMapSymbolTests: XCTestCase {
  private typealias Feature = SyntheticTile.Feature

  /// Point features at the tile's middle (the image's middle at the default camera, 256, 256).
  private func labels(_ names: [(String, rank: String)], layout: String) throws -> [DrawnMapLabel] {
    var supply = MemoryTileSupply()
    let features = names.map {
      Feature(kind: .point, attributes: [("name", $0.0), ("rank", $0.rank)], parts: [[(2048, 2048)]])
    }
    supply.tiles[SyntheticMaps.tile] = SyntheticTile(layers: [("places", features)]).encoded()
    let style = try SyntheticMaps.style(
      """
      {"id": "places", "type": "symbol", "source": "s", "source-layer": "places",
       "layout": {"text-field": ["concat", ["get", "name"], "\\n", ""], "text-size": 10, \(layout)}}
      """)
    return try SyntheticMaps.render(style, supply, camera: SyntheticMaps.camera()).layer.labels
  }

  func testAnchorAndOffsetPlaceTheTextBlock() throws {
    let top = try XCTUnwrap(
      labels([("Kamppi", "1")], layout: #""text-anchor": "top", "text-offset": [0, 1]"#).first)
    XCTAssertEqual(top.rect.minY, 256 + 10, accuracy: 0.01, "one em below the point")
    XCTAssertEqual(top.rect.midX, 256, accuracy: 0.01)
    let left = try XCTUnwrap(labels([("Kamppi", "1")], layout: #""text-anchor": "left""#).first)
    XCTAssertEqual(left.rect.minX, 256, accuracy: 0.01)
    XCTAssertEqual(left.rect.midY, 256, accuracy: 0.01)
  }

  func testTextIsTrimmedTransformedAndWrapped() throws {
    let label = try XCTUnwrap(
      labels(
        [("Kansallis museo ja kirjasto", "1")],
        layout: #""text-max-width": 6, "text-transform": "uppercase", "text-line-height": 1.5"#
      ).first)
    XCTAssertEqual(label.text, "KANSALLIS MUSEO JA KIRJASTO", "the concat's trailing newline is trimmed")
    XCTAssertLessThanOrEqual(label.rect.width, 60 + 0.01, "wrapped at six ems")
    // Four lines or three (depending on the font's widths), 15 points from baseline to baseline.
    XCTAssertGreaterThan(label.rect.height, 2 * 15)
  }

  /// The quick look at a name's ends trims exactly as Foundation does: spaces, tabs, line breaks and
  /// Unicode's other spaces at either end go, letters, marks, digits and symbols stay.
  func testTrimmingAgreesWithFoundation() {
    let texts = [
      "", " ", "Kaivokatu", " Kaivokatu", "Kaivokatu\n", "\tEsplanadi ", "Töölö", "Ääkköset ä",
      "\u{00A0}Bulevardi", "Bulevardi\u{3000}", "\u{2028}Line\u{2029}", "\u{0085}Next", "Café\u{0301}",
      "東京", "🙂 smile 🙂", "x\u{200B}", "\u{200B}", "\u{FEFF}Bom", "1", "Kalevankatu 12 ", "\r\n",
    ]
    for text in texts {
      XCTAssertEqual(
        SymbolLayerStyle.trimmed(text), text.trimmingCharacters(in: .whitespacesAndNewlines),
        text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
    }
  }

  func testSortKeyDecidesWhichLabelTakesThePlace() throws {
    let layout = #""symbol-sort-key": ["to-number", ["get", "rank"]]"#
    XCTAssertEqual(try labels([("Second", "2"), ("First", "1")], layout: layout).map(\.text), ["First"])
    XCTAssertEqual(
      try labels([("Second", "2"), ("First", "1")], layout: "\"text-anchor\": \"center\"").map(\.text),
      ["Second"])
  }
}
