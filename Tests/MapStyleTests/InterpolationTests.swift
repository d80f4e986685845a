import XCTest

@testable import MapStyle

final class InterpolationTests: XCTestCase {
  private func number(_ text: String, zoom: Double, _ feature: TestFeature? = nil) throws -> Double {
    let result = try value(text, zoom: zoom, feature)
    guard case .number(let number) = result else {
      XCTFail("not a number: \(result)")
      return .nan
    }
    return number
  }

  func testLinearInterpolationClampsOutsideTheStops() throws {
    let width = #"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 5]"#
    XCTAssertEqual(try number(width, zoom: 8), 1)
    XCTAssertEqual(try number(width, zoom: 10), 1)
    XCTAssertEqual(try number(width, zoom: 11), 2)
    XCTAssertEqual(try number(width, zoom: 13.5), 4.5)
    XCTAssertEqual(try number(width, zoom: 14), 5)
    XCTAssertEqual(try number(width, zoom: 20), 5)
  }

  func testExponentialInterpolationFollowsTheBase() throws {
    // t = (base^(z - z0) - 1) / (base^(z1 - z0) - 1): with base 2 from z10 to z12, z11 is 1/3 of the way.
    let width = #"["interpolate", ["exponential", 2], ["zoom"], 10, 0, 12, 3]"#
    XCTAssertEqual(try number(width, zoom: 11), 1, accuracy: 1e-12)
    let fraction: Double = (pow(2, 1.5) - 1) / 3
    XCTAssertEqual(try number(width, zoom: 11.5), 3 * fraction, accuracy: 1e-12)
    let base1 = #"["interpolate", ["exponential", 1], ["zoom"], 0, 0, 10, 10]"#
    XCTAssertEqual(try number(base1, zoom: 4), 4, "base 1 is linear")
    let extra = #"["interpolate", ["linear", 1], ["zoom"], 7, 1, 11, 2]"#
    XCTAssertEqual(try number(extra, zoom: 9), 1.5, "extra curve arguments are ignored, as MapLibre does")
    XCTAssertEqual(
      compileError(#"["interpolate", ["exponential"], ["zoom"], 7, 1, 11, 2]"#),
      #"style layer "test": p: unknown interpolation curve "exponential" or wrong arguments for it"#)
    let steep = #"["interpolate", ["exponential", 1.5], ["zoom"], 5, 0.5, 18, 30]"#
    let steepFraction: Double = (pow(1.5, 7) - 1) / (pow(1.5, 13) - 1)
    XCTAssertEqual(try number(steep, zoom: 12), 0.5 + 29.5 * steepFraction, accuracy: 1e-12)
  }

  func testCubicBezierInterpolationEasesBetweenStops() throws {
    let linearish = #"["interpolate", ["cubic-bezier", 0.25, 0.25, 0.75, 0.75], ["zoom"], 0, 0, 10, 100]"#
    XCTAssertEqual(try number(linearish, zoom: 3), 30, accuracy: 1e-6)
    let easeIn = #"["interpolate", ["cubic-bezier", 0.42, 0, 1, 1], ["zoom"], 0, 0, 1, 1]"#
    XCTAssertEqual(try number(easeIn, zoom: 0.5), 0.3153, accuracy: 1e-3)
    XCTAssertEqual(try number(easeIn, zoom: 1), 1)
  }

  func testColoursInterpolateChannelByChannelUnpremultiplied() throws {
    let colour = ##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ff8000"]"##
    XCTAssertEqual(try value(colour, zoom: 5, expected: .color).colorBytes, [128, 64, 0, 1])
    let fade = #"["interpolate", ["linear"], ["zoom"], 0, "rgba(255, 0, 0, 0)", 10, "rgba(0, 0, 255, 1)"]"#
    // Alpha and channels move independently: halfway is purple at half alpha, not a darkened premultiplied mix.
    XCTAssertEqual(try value(fade, zoom: 5, expected: .color).colorBytes, [128, 0, 128, 0.5])
    XCTAssertEqual(
      compileError(##"["interpolate", ["linear"], ["zoom"], 0, "#000", 10, "nope"]"##, expected: .color),
      #"style layer "test": p: "nope" is not a colour"#)
  }

  func testLabAndHCLInterpolationMatchMapLibre() throws {
    // Reference values from MapLibre GL JS 5.3 at the same halfway point.
    let lab = ##"["interpolate-lab", ["linear"], ["zoom"], 0, "#ff0000", 10, "#0000ff"]"##
    XCTAssertEqual(try value(lab, zoom: 5, expected: .color).colorBytes, [193, 0, 136, 1])
    let hcl = ##"["interpolate-hcl", ["linear"], ["zoom"], 0, "#ff0000", 10, "#00ff00"]"##
    XCTAssertEqual(try value(hcl, zoom: 5, expected: .color).colorBytes, [209, 169, 0, 1])
    let fromGrey = ##"["interpolate-hcl", ["linear"], ["zoom"], 0, "#808080", 10, "#0000ff"]"##
    XCTAssertEqual(try value(fromGrey, zoom: 5).colorBytes, [110, 79, 192, 1], "a grey takes the other hue")
    XCTAssertEqual(
      compileError(#"["interpolate-lab", ["linear"], ["zoom"], 0, 1, 10, 2]"#),
      #"style layer "test": p: expected color but found number"#)
    let function = try fillStyle(
      paint: ##"{"fill-color": {"colorSpace": "lab", "stops": [[0, "#ff0000"], [10, "#0000ff"]]}}"##)
    XCTAssertEqual(function.color.value(atZoom: 5).bytes, [193, 0, 136, 1])
  }

  func testArraysOfNumbersInterpolateElementwise() throws {
    let offset = #"["interpolate", ["linear"], ["zoom"], 10, ["literal", [0, 0]], 20, ["literal", [1, -2]]]"#
    XCTAssertEqual(try value(offset, zoom: 15), .array([.number(0.5), .number(-1)]))
    // Without an expected colour type, colour strings are strings, which do not blend.
    XCTAssertEqual(
      compileError(#"["interpolate", ["linear"], ["zoom"], 0, "a", 1, "b"]"#),
      #"style layer "test": p: "interpolate" cannot blend values of type string"#)
  }

  func testInterpolateOnFeatureData() throws {
    let size = #"["interpolate", ["linear"], ["get", "rank"], 1, 20, 10, 11]"#
    XCTAssertEqual(try number(size, zoom: 0, TestFeature(["rank": .number(4)])), 17)
    XCTAssertEqual(
      try evaluationFailure(size, TestFeature(["rank": .string("4")])), "expected number but found string")
    XCTAssertEqual(
      compileError(#"["interpolate", ["linear"], ["zoom"], 5, 1, 5, 2]"#),
      #"style layer "test": p: "interpolate" stop inputs must be in strictly ascending order"#)
    XCTAssertEqual(
      compileError(#"["interpolate", ["quadratic"], ["zoom"], 5, 1, 6, 2]"#),
      #"style layer "test": p: unknown interpolation curve "quadratic" or wrong arguments for it"#)
  }

  func testStepPicksTheOutputOfTheLastStopReached() throws {
    let step = #"["step", ["zoom"], "small", 10, "medium", 14, "large"]"#
    XCTAssertEqual(try value(step, zoom: 3), .string("small"))
    XCTAssertEqual(try value(step, zoom: 9.99), .string("small"))
    XCTAssertEqual(try value(step, zoom: 10), .string("medium"))
    XCTAssertEqual(try value(step, zoom: 13.9), .string("medium"))
    XCTAssertEqual(try value(step, zoom: 14), .string("large"))
    XCTAssertEqual(try value(step, zoom: 22), .string("large"))
    XCTAssertEqual(
      compileError(#"["step", ["zoom"], 1, 5]"#),
      #"style layer "test": p: "step" takes an input, a first output and stop/output pairs"#)
  }

  func testStopSearchFindsTheLastStopAtOrBelow() throws {
    let stops: [Double] = [0, 2, 4, 6, 8]
    XCTAssertEqual(try StopSearch.index(of: -1, in: stops), 0)
    XCTAssertEqual(try StopSearch.index(of: 3.9, in: stops), 1)
    XCTAssertEqual(try StopSearch.index(of: 4, in: stops), 2)
    XCTAssertEqual(try StopSearch.index(of: 7, in: stops), 3)
    XCTAssertEqual(try StopSearch.index(of: 8, in: stops), 4)
    XCTAssertEqual(try StopSearch.index(of: 100, in: stops), 4)
    XCTAssertThrowsError(try StopSearch.index(of: .nan, in: stops))
  }
}
