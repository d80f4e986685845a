import JSON
import XCTest

@testable import MapStyle

/// Styles and values built to exhaust memory or time, or to crash: each must be refused cleanly or
/// evaluated within bounds.
final class HostileStyleTests: XCTestCase {
  func testOversizedFilesAreRefusedBeforeParsing() {
    let bytes = [UInt8](repeating: UInt8(ascii: " "), count: StyleLimits.maximumBytes + 1)
    XCTAssertThrowsError(try MapStyle(bytes: bytes)) { error in
      XCTAssertEqual(
        "\(error)",
        "style is \(StyleLimits.maximumBytes + 1) bytes; styles larger than 16777216 bytes are refused")
    }
  }

  func testDeepNestingIsRefused() {
    let deep = String(repeating: #"["!", "#, count: 100) + "true" + String(repeating: "]", count: 100)
    // The 70th "[" of the filter is the 73rd container: style, layers, layer, then the filter's arrays.
    let column = #" "layers": [{"id": "x", "type": "fill", "filter": "#.count + 69 * #"["!", "#.count + 1
    XCTAssertEqual(
      styleError(styleText(#"{"id": "x", "type": "fill", "filter": \#(deep)}"#)),
      "style is not valid JSON: 2:\(column): arrays and objects are nested deeper than 72 levels")
    let sixtyFive = String(repeating: #"["!", "#, count: 65) + "true" + String(repeating: "]", count: 65)
    XCTAssertEqual(compileError(sixtyFive), #"style layer "test": p nesting depth exceeds the limit of 64"#)
    let sixtyFour = String(repeating: #"["!", "#, count: 64) + "true" + String(repeating: "]", count: 64)
    XCTAssertEqual(try value(sixtyFour), .bool(true))
  }

  func testLongArraysAreRefused() {
    let values = (0...StyleLimits.maximumArrayLength).map { "\"v\($0)\"" }.joined(separator: ",")
    XCTAssertEqual(
      styleError(styleText(#"{"id": "x", "type": "fill", "filter": ["in", "class", \#(values)]}"#)),
      #"style layer "x": an array in filter exceeds the limit of 20000"#)
    XCTAssertEqual(
      compileError(#"["literal", [\#(values)]]"#),
      #"style layer "test": an array in p exceeds the limit of 20000"#)
  }

  func testTooManyLayersAreRefused() {
    let layers = (0...StyleLimits.maximumLayers).map { #"{"id": "l\#($0)", "type": "background"}"# }
    XCTAssertEqual(
      styleError(#"{"version": 8, "layers": [\#(layers.joined(separator: ","))]}"#),
      "style: the number of layers exceeds the limit of 5000")
  }

  func testLetBindingsCannotMultiplyWorkWithoutBound() {
    // Each level uses the previous variable twice: 2^20 nodes if copied naively.
    var expression = #"["var", "v19"]"#
    for level in stride(from: 19, through: 1, by: -1) {
      expression =
        #"["let", "v\#(level)", ["+", ["var", "v\#(level - 1)"], ["var", "v\#(level - 1)"]], \#(expression)]"#
    }
    expression = #"["let", "v0", ["get", "x"], \#(expression)]"#
    XCTAssertEqual(
      compileError(expression), #"style layer "test": the size of p exceeds the limit of 100000"#)
  }

  func testHostileFeatureValuesEvaluateQuietly() throws {
    let road = try readStyle(
      styleText(
        #"{"id": "r", "type": "line", "source": "osm", "filter": ["<", ["get", "rank"], 5], "paint": {"line-color": ["get", "c"], "line-width": ["get", "w"]}}"#
      )
    ).layers[0]
    guard case .line(let line) = road.kind else { return XCTFail("not a line") }
    let hostile = TestFeature([
      "rank": .number(.nan), "c": .string(String(repeating: "rgb(", count: 50_000)), "w": .number(.infinity),
    ])
    XCTAssertFalse(road.matches(hostile, atZoom: 10))
    // Nesting is cut off at 32 levels, so a feature's pathological value cannot exhaust the stack.
    var deep = StyleValue.number(1)
    for _ in 0..<200 { deep = .array([deep]) }
    let expected = String(repeating: "array<", count: 33) + "value, 1>" + String(repeating: ", 1>", count: 32)
    XCTAssertEqual(ExpressionType.of(deep).name, expected)
    XCTAssertEqual(line.color.value(atZoom: 10, for: hostile), .black)
    XCTAssertEqual(
      line.width.value(atZoom: 10, for: hostile), 1, "infinite widths are not drawable: the default")
  }

  /// Random expression trees from the known operators and junk: compiling either succeeds or gives a
  /// `MapStyleError`, and evaluating never traps.
  func testRandomExpressionsNeverCrash() throws {
    var random = SplitMix(seed: 11)
    let operators =
      Array(ExpressionCompiler.operatorNames).sorted() + ["within", "", "linear", "exponential"]
    let features = [
      TestFeature(),
      TestFeature(.polygon, id: .number(1), ["a": .number(2), "b": .string("x"), "c": .bool(true)]),
      TestFeature(.lineString, ["a": .string("#fff"), "b": .array([.number(1), .number(2)]), "c": .null]),
    ]
    func tree(_ depth: Int) -> JSONValue {
      switch random.next(below: depth > 4 ? 5 : 9) {
      case 0: return .number(Double(random.next(below: 41)) - 20)
      case 1: return .string(["a", "b", "c", "#f00", "zoom", "Point", ""][random.next(below: 7)])
      case 2: return .bool(random.next(below: 2) == 0)
      case 3: return .null
      case 4: return .array([.string("get"), .string(["a", "b", "c"][random.next(below: 3)])])
      default:
        let name = operators[random.next(below: operators.count)]
        return .array([.string(name)] + (0..<random.next(below: 6)).map { _ in tree(depth + 1) })
      }
    }
    var compiledCount = 0
    for _ in 0..<3_000 {
      let json = tree(0)
      for expected in [nil, ExpressionType.number, .color, .boolean, .formatted] {
        guard
          let result = try? ExpressionCompiler(layer: "r", property: "p").compile(json, expected: expected)
        else {
          continue
        }
        compiledCount += 1
        for feature in features {
          for zoom in [0.0, 10.5, 22] {
            _ = try? result.expression.evaluate(EvaluationContext(zoom: zoom, feature: feature))
          }
        }
      }
    }
    XCTAssertGreaterThan(
      compiledCount, 1_000, "the generator must produce many valid expressions to mean anything")
  }
}

/// A small deterministic random generator, so the random test is the same on every run.
private struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
