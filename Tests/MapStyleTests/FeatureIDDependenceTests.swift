import JSON
import XCTest

@testable import MapStyle

/// A renderer styles features with equal properties once, unless a filter or property reads the id.
final class FeatureIDDependenceTests: XCTestCase {
  private func layer(filter: String? = nil, width: String = "2") throws -> StyleLayer {
    let filterMember = filter.map { "\"filter\": \($0)," } ?? ""
    let text = """
      {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
        {"id": "l", "type": "line", "source": "s", "source-layer": "roads", \(filterMember)
         "paint": {"line-width": \(width)}}]}
      """
    return try XCTUnwrap(try MapStyle(bytes: Array(text.utf8)).layers.first)
  }

  private struct NotALineLayer: Error {}

  private func width(_ layer: StyleLayer) throws -> StyleProperty<Double> {
    guard case .line(let line) = layer.kind else { throw NotALineLayer() }
    return line.width
  }

  func testFiltersThatReadIDsSaySo() throws {
    XCTAssertTrue(try layer(filter: #"["==", "$id", 3]"#).filter?.readsFeatureID ?? false)
    XCTAssertTrue(try layer(filter: #"["==", ["id"], 3]"#).filter?.readsFeatureID ?? false)
    XCTAssertTrue(
      try layer(filter: #"["all", ["has", "$id"], ["==", "class", "x"]]"#).filter?.readsFeatureID ?? false)
    XCTAssertFalse(try layer(filter: #"["==", "class", "minor"]"#).filter?.readsFeatureID ?? true)
    XCTAssertFalse(
      try layer(filter: #"["==", ["geometry-type"], "LineString"]"#).filter?.readsFeatureID ?? true)
  }

  func testPropertiesThatReadIDsSaySo() throws {
    XCTAssertTrue(try width(layer(width: #"["case", ["==", ["id"], 1], 4, 2]"#)).readsFeatureID)
    XCTAssertTrue(
      try width(layer(width: #"["case", ["==", ["id"], 1], 4, 2]"#)).resolved(atZoom: 14).readsFeatureID)
    XCTAssertFalse(try width(layer(width: #"["match", ["get", "class"], "minor", 3, 1]"#)).readsFeatureID)
    XCTAssertFalse(try width(layer()).readsFeatureID)
  }
}
