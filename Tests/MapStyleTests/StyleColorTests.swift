import XCTest

@testable import MapStyle

final class StyleColorTests: XCTestCase {
  private func bytes(_ css: String) -> [Double]? { StyleColor(css: css)?.bytes }

  private func assertNotColours(_ texts: [String], line: UInt = #line) {
    for text in texts { XCTAssertNil(StyleColor(css: text), text, line: line) }
  }

  func testHexInEveryLength() {
    XCTAssertEqual(bytes("#f80"), [255, 136, 0, 1])
    XCTAssertEqual(bytes("#f808"), [255, 136, 0, 0.533])
    XCTAssertEqual(bytes("#FF8800"), [255, 136, 0, 1])
    XCTAssertEqual(bytes("#ff880080"), [255, 136, 0, 0.502])
    XCTAssertEqual(bytes("  #000000  "), [0, 0, 0, 1])
    assertNotColours(["#", "#ff", "#fffff", "#fffffff", "#ggg", "#ff00zz", "ff0000", "#ff0000ff0"])
  }

  func testRGBWithNumbersAndPercentages() {
    XCTAssertEqual(bytes("rgb(255, 128, 0)"), [255, 128, 0, 1])
    XCTAssertEqual(bytes("rgba(255, 128, 0, 0.25)"), [255, 128, 0, 0.25])
    XCTAssertEqual(bytes("rgba(255,128,0,.5)"), [255, 128, 0, 0.5])
    XCTAssertEqual(bytes("rgb(100%, 50%, 0%)"), [255, 128, 0, 1])
    XCTAssertEqual(bytes("rgba(100%, 0%, 0%, 50%)"), [255, 0, 0, 0.5])
    XCTAssertEqual(bytes("rgb(255 128 0)"), [255, 128, 0, 1])
    XCTAssertEqual(bytes("rgb(255 128 0 / 0.4)"), [255, 128, 0, 0.4])
    XCTAssertEqual(bytes("RGB(300, -5, 0)"), [255, 0, 0, 1], "clamped into range")
    XCTAssertEqual(bytes("rgba(0, 0, 0, 2)"), [0, 0, 0, 1])
    assertNotColours([
      "rgb(255, 128)", "rgb(255, 50%, 0)", "rgb(255 128, 0)", "rgb(a, b, c)", "rgb(1, 2, 3, 4, 5)",
      "rgb(1 2 3 / )",
      "rgb(1, 2, 3", "rgb(1deg, 2, 3)", "rgb(nan, 0, 0)",
    ])
  }

  func testHSL() {
    XCTAssertEqual(bytes("hsl(0, 100%, 50%)"), [255, 0, 0, 1])
    XCTAssertEqual(bytes("hsl(120, 100%, 25%)"), [0, 128, 0, 1])
    XCTAssertEqual(bytes("hsl(240deg, 100%, 50%)"), [0, 0, 255, 1])
    XCTAssertEqual(bytes("hsla(30, 100%, 50%, 0.5)"), [255, 128, 0, 0.5])
    XCTAssertEqual(bytes("hsl(0, 0%, 83%)"), [212, 212, 212, 1])
    XCTAssertEqual(bytes("hsl(-120, 100%, 50%)"), [0, 0, 255, 1], "hue wraps around")
    XCTAssertEqual(bytes("hsl(480, 100%, 50%)"), [0, 255, 0, 1])
    XCTAssertEqual(bytes("hsl(30 100% 50% / 25%)"), [255, 128, 0, 0.25])
    XCTAssertEqual(bytes("hsl(48, 100%, 88%)"), [255, 243, 194, 1])
    assertNotColours(["hsl(0, 100, 50)", "hsl(0%, 100%, 50%)", "hsl(0, 100%)", "hsla(0, 100%, 50%, 1deg)"])
  }

  func testNamedColoursAndTransparent() {
    XCTAssertEqual(CSSNamedColors.table.count, 148)
    XCTAssertEqual(bytes("rebeccapurple"), [102, 51, 153, 1])
    XCTAssertEqual(bytes("SteelBlue"), [70, 130, 180, 1])
    XCTAssertEqual(bytes("grey"), bytes("gray"))
    XCTAssertEqual(bytes("lightgoldenrodyellow"), [250, 250, 210, 1])
    XCTAssertEqual(bytes("transparent"), [0, 0, 0, 0])
    XCTAssertNil(StyleColor(css: "blurple"))
    XCTAssertNil(StyleColor(css: ""))
    XCTAssertNil(StyleColor(css: String(repeating: "#", count: 10_000)))
  }

  func testDescriptionIsWhatToStringWrites() {
    XCTAssertEqual(StyleColor(css: "#ff8000")?.description, "rgba(255,128,0,1)")
    XCTAssertEqual(StyleColor(css: "rgba(1, 2, 3, 0.73)")?.description, "rgba(1,2,3,0.73)")
    XCTAssertEqual(StyleColor.transparent.description, "rgba(0,0,0,0)")
    var odd = StyleColor.white
    odd.red = .nan
    odd.green = 7
    odd.alpha = -.infinity
    XCTAssertEqual(odd.description, "rgba(0,255,255,0)", "channels set out of range print clamped")
  }

  func testInterpolationAndClamping() {
    let from = StyleColor(red: 0, green: 0, blue: 1, alpha: 0)
    let to = StyleColor(red: 1, green: 0, blue: 0, alpha: 1)
    XCTAssertEqual(from.interpolated(to: to, fraction: 0.25).bytes, [64, 0, 191, 0.25])
    XCTAssertEqual(StyleColor(red: 2, green: -1, blue: .nan, alpha: .infinity).bytes, [255, 0, 0, 1])
  }

  func testColourConversionsInExpressions() throws {
    XCTAssertEqual(
      try value(#"["to-color", ["get", "c"]]"#, TestFeature(["c": .string("navy")])).colorBytes,
      [0, 0, 128, 1])
    XCTAssertEqual(try value(#"["to-color", ["literal", [255, 0, 0]]]"#).colorBytes, [255, 0, 0, 1])
    XCTAssertEqual(try value(#"["to-color", ["literal", [255, 0, 0, 0.5]]]"#).colorBytes, [255, 0, 0, 0.5])
    XCTAssertEqual(
      try value(
        #"["to-color", ["get", "bad"], ["get", "c"]]"#,
        TestFeature(["bad": .string("x"), "c": .string("red")])
      ).colorBytes,
      [255, 0, 0, 1])
    XCTAssertEqual(
      try evaluationFailure(#"["to-color", ["get", "c"]]"#, TestFeature(["c": .string("mud")])),
      #""mud" is not a colour"#)
    XCTAssertEqual(
      compileError(#"["to-color", ["literal", [256, 0, 0]]]"#),
      #"style layer "test": p: invalid rgba value [256,0,0]: r, g and b must be 0…255 and alpha 0…1"#)
    XCTAssertEqual(try value(#"["rgb", 0, 128, 255]"#).colorBytes, [0, 128, 255, 1])
    XCTAssertEqual(
      try value(##"["to-rgba", "#ff8000"]"##), .array([.number(255), .number(128), .number(0), .number(1)]))
    XCTAssertEqual(
      compileError(#"["rgb", 0, 128, 256]"#),
      #"style layer "test": p: invalid rgba value [0,128,256]: r, g and b must be 0…255 and alpha 0…1"#)
  }
}
