import XCTest

@testable import MapStyle

final class TextFieldAndFontTests: XCTestCase {
  private func textField(_ json: String) throws -> StyleProperty<String> {
    try symbolStyle(layout: #"{"text-field": \#(json)}"#).textField
  }

  private let station = TestFeature([
    "name": .string("Rautatieasema"), "name:latin": .string("Rautatieasema"), "ref": .number(3),
  ])

  func testTokensAreReplacedByPropertyText() throws {
    XCTAssertEqual(try textField(#""{name}""#).value(atZoom: 0, for: station), "Rautatieasema")
    XCTAssertEqual(try textField(#""{name:latin}""#).value(atZoom: 0, for: station), "Rautatieasema")
    XCTAssertEqual(try textField(#""{name} ({ref})""#).value(atZoom: 0, for: station), "Rautatieasema (3)")
    XCTAssertEqual(
      try textField(#""{name:latin}\n{name:nonlatin}""#).value(atZoom: 0, for: station), "Rautatieasema\n")
    XCTAssertEqual(try textField(#""{missing}""#).value(atZoom: 0, for: station), "")
    XCTAssertEqual(try textField(#""{name}""#).dependence, .feature)
  }

  func testTextWithoutTokensIsConstant() throws {
    let plain = try textField(#""Helsinki""#)
    XCTAssertEqual(plain.dependence, .constant)
    XCTAssertEqual(plain.constantValue, "Helsinki")
    XCTAssertEqual(
      try textField(#""a { b } {} {{name}}""#).value(atZoom: 0, for: station), "a  {} {Rautatieasema}",
      "{ b } is a token for the property \" b \"")
    XCTAssertEqual(try textField(#""{unclosed""#).constantValue, "{unclosed")
  }

  func testExpressionsAndFunctionsMakeText() throws {
    let coalesced = try textField(#"["coalesce", ["get", "name:fi"], ["get", "name:latin"]]"#)
    XCTAssertEqual(coalesced.value(atZoom: 0, for: station), "Rautatieasema")
    XCTAssertEqual(coalesced.value(atZoom: 0, for: TestFeature()), "", "nothing to show")
    XCTAssertEqual(
      try textField(#"["get", "ref"]"#).value(atZoom: 0, for: station), "3", "numbers become text")
    XCTAssertEqual(
      try textField(#"["concat", ["get", "name"], " ", ["get", "ref"]]"#).value(atZoom: 0, for: station),
      "Rautatieasema 3")
    XCTAssertEqual(
      try textField(#"["format", ["get", "name"], {"text-font": ["literal", ["Noto Sans Bold"]]}]"#).value(
        atZoom: 0, for: station),
      "Rautatieasema")
    let stepped = try textField(#"{"stops": [[10, "{ref}"], [14, "{name}"]]}"#)
    XCTAssertEqual(stepped.value(atZoom: 12, for: station), "3")
    XCTAssertEqual(stepped.value(atZoom: 15, for: station), "Rautatieasema")
  }

  func testTextTransform() {
    XCTAssertEqual(TextTransform.uppercase.apply(to: "Esplanadi"), "ESPLANADI")
    XCTAssertEqual(TextTransform.lowercase.apply(to: "Esplanadi"), "esplanadi")
    XCTAssertEqual(TextTransform.none.apply(to: "Esplanadi"), "Esplanadi")
  }

  func testFontStacksSplitIntoFamilyWeightAndStyle() {
    func face(_ name: String) -> FontFace { FontFace(fontStack: name) }
    XCTAssertEqual(
      face("Noto Sans Bold Italic"), FontFace(family: "Noto Sans", weight: .bold, style: .italic))
    XCTAssertEqual(face("Open Sans Semibold"), FontFace(family: "Open Sans", weight: .semibold))
    XCTAssertEqual(face("Roboto Regular"), FontFace(family: "Roboto"))
    XCTAssertEqual(face("Noto Sans Italic"), FontFace(family: "Noto Sans", style: .italic))
    XCTAssertEqual(
      face("Metropolis Medium Italic"), FontFace(family: "Metropolis", weight: .medium, style: .italic))
    XCTAssertEqual(face("Metropolis Light"), FontFace(family: "Metropolis", weight: .light))
    XCTAssertEqual(face("Open Sans Extra Bold"), FontFace(family: "Open Sans", weight: .extraBold))
    XCTAssertEqual(face("Source Sans Pro Semi Bold"), FontFace(family: "Source Sans Pro", weight: .semibold))
    XCTAssertEqual(
      face("Roboto Condensed Light Italic"),
      FontFace(family: "Roboto Condensed", weight: .light, style: .italic))
    XCTAssertEqual(face("Noto Sans BoldItalic"), FontFace(family: "Noto Sans", weight: .bold, style: .italic))
    XCTAssertEqual(face("Arial Unicode MS Regular"), FontFace(family: "Arial Unicode MS"))
    XCTAssertEqual(face("Noto Sans Black"), FontFace(family: "Noto Sans", weight: .black))
    XCTAssertEqual(face("Roboto Thin"), FontFace(family: "Roboto", weight: .thin))
    XCTAssertEqual(face("DIN Offc Pro Medium"), FontFace(family: "DIN Offc Pro", weight: .medium))
    XCTAssertEqual(face("Bold"), FontFace(family: "Bold"), "the family keeps one word")
    XCTAssertEqual(face("Noto Sans"), FontFace(family: "Noto Sans"))
    XCTAssertEqual(FontWeight.semibold.rawValue, 600)
  }
}
