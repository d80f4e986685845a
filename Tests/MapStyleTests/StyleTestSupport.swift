import JSON
import XCTest

@testable import MapStyle

/// A feature with literal properties, as a tile decoder would hand one in.
struct TestFeature: StyleFeature {
  var geometryType: StyleGeometryType = .point
  var id: StyleValue?
  var properties: [String: StyleValue] = [:]

  init(
    _ geometryType: StyleGeometryType = .point, id: StyleValue? = nil,
    _ properties: [String: StyleValue] = [:]
  ) {
    self.geometryType = geometryType
    self.id = id
    self.properties = properties
  }

  init(_ properties: [String: StyleValue]) {
    self.init(.point, properties)
  }

  func property(_ key: String) -> StyleValue? { properties[key] }
}

/// Compiles expression JSON text as the layer "test" would, for a property `p`.
func compiled(_ text: String, expected: ExpressionType? = nil) throws -> Compiled {
  try ExpressionCompiler(layer: "test", property: "p").compile(try JSONParser.parse(text), expected: expected)
}

/// The value of expression JSON text at a style zoom for a feature (none by default).
func value(_ text: String, zoom: Double = 0, _ feature: TestFeature? = nil, expected: ExpressionType? = nil)
  throws
  -> StyleValue
{
  try compiled(text, expected: expected).expression.evaluate(EvaluationContext(zoom: zoom, feature: feature))
}

/// The evaluation error message of an expression that compiles but fails on the feature.
func evaluationFailure(_ text: String, _ feature: TestFeature? = nil, expected: ExpressionType? = nil) throws
  -> String
{
  do {
    let result = try compiled(text, expected: expected).expression.evaluate(
      EvaluationContext(zoom: 0, feature: feature))
    return "evaluated to \(result)"
  } catch let error as EvaluationError {
    return error.message
  }
}

/// The `MapStyleError` text for expression JSON that must not compile.
func compileError(_ text: String, expected: ExpressionType? = nil) -> String {
  do {
    _ = try compiled(text, expected: expected)
    return "compiled"
  } catch let error as MapStyleError {
    return error.description
  } catch {
    return "unexpected \(error)"
  }
}

/// A style with the given layers (JSON object texts) and one vector source "osm".
func styleText(_ layers: String...) -> String {
  """
  {"version": 8, "name": "Test", "sources": {"osm": {"type": "vector", "url": "mbtiles://tiles/city.mbtiles"}},
   "layers": [\(layers.joined(separator: ","))]}
  """
}

func readStyle(_ text: String) throws -> MapStyle { try MapStyle(bytes: Array(text.utf8)) }

/// The one layer of a test style, read from its JSON object text.
private func onlyLayer(_ json: String) throws -> StyleLayer.Kind {
  try readStyle(styleText(json)).layers[0].kind
}

private struct WrongLayerKind: Error {}

/// A line layer "roads" with the given paint and layout objects.
func lineStyle(paint: String = "{}", layout: String = "{}") throws -> LineStyle {
  let json = #"{"id": "roads", "type": "line", "source": "osm", "layout": \#(layout), "paint": \#(paint)}"#
  guard case .line(let style) = try onlyLayer(json) else { throw WrongLayerKind() }
  return style
}

/// A fill layer "areas" with the given paint object.
func fillStyle(paint: String = "{}") throws -> FillStyle {
  guard
    case .fill(let style) = try onlyLayer(
      #"{"id": "areas", "type": "fill", "source": "osm", "paint": \#(paint)}"#)
  else { throw WrongLayerKind() }
  return style
}

/// A symbol layer "labels" with the given layout and paint objects.
func symbolStyle(layout: String = "{}", paint: String = "{}") throws -> SymbolStyle {
  let json = #"{"id": "labels", "type": "symbol", "source": "osm", "layout": \#(layout), "paint": \#(paint)}"#
  guard case .symbol(let style) = try onlyLayer(json) else { throw WrongLayerKind() }
  return style
}

/// The `MapStyleError` text for a style that must be refused.
func styleError(_ text: String) -> String {
  do {
    let style = try readStyle(text)
    return "read \(style.layers.count) layers"
  } catch let error as MapStyleError {
    return error.description
  } catch {
    return "unexpected \(error)"
  }
}

extension StyleColor {
  /// Channels rounded to 0…255 and alpha to 3 decimals, for exact comparisons.
  var bytes: [Double] {
    [red, green, blue].map { ($0 * 255).rounded() } + [(alpha * 1000).rounded() / 1000]
  }
}

extension StyleValue {
  var colorBytes: [Double]? {
    if case .color(let color) = self { return color.bytes }
    return nil
  }
}
