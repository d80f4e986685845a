import Foundation
import MapStyle
import XCTest

/// mymap's own vector styles use only what MapStyle draws: they read without a single warning, and every
/// layer draws something from the OpenMapTiles schema.
final class BundledStyleTests: XCTestCase {
  private static let styles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Styles/vector")

  func testTheBundledStylesReadWithoutWarnings() throws {
    let schemaLayers: Set<String> = [
      "water", "waterway", "landcover", "landuse", "mountain_peak", "park", "boundary", "aeroway",
      "transportation", "building", "water_name", "transportation_name", "place", "housenumber", "poi",
      "aerodrome_label",
    ]
    for name in ["light", "dark"] {
      let data = try Data(contentsOf: Self.styles.appendingPathComponent("\(name).json"))
      let style = try MapStyle(bytes: data)
      XCTAssertEqual(style.warnings.map { "\($0)" }, [], name)
      XCTAssertGreaterThan(style.layers.count, 30, name)
      for layer in style.layers {
        if case .background = layer.kind { continue }
        XCTAssertTrue(schemaLayers.contains(layer.sourceLayer ?? ""), "\(name): \(layer.id)")
      }
    }
  }
}
