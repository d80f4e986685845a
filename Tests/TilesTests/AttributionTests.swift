import Tiles
import XCTest

final class AttributionTests: XCTestCase {
  func testStripsTagsAndDecodesEntities() {
    XCTAssertEqual(
      plainAttribution(
        #"<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>"#),
      "© OpenStreetMap contributors")
    XCTAssertEqual(plainAttribution("Map &amp; data &#169; A &#xA9; B"), "Map & data © A © B")
    XCTAssertEqual(plainAttribution("&lt;none&gt; &quot;x&quot;"), "<none> \"x\"")
  }

  func testKeepsPlainTextAndStrayAmpersands() {
    XCTAssertEqual(plainAttribution("© OpenStreetMap contributors"), "© OpenStreetMap contributors")
    XCTAssertEqual(plainAttribution("Smith & Sons &unknown; &"), "Smith & Sons &unknown; &")
  }

  func testCollapsesWhiteSpace() {
    XCTAssertEqual(plainAttribution("  Tiles\n  by <b>Someone</b>&nbsp;Else  "), "Tiles by Someone Else")
  }

  func testNothingLeftIsNil() {
    XCTAssertNil(plainAttribution(""))
    XCTAssertNil(plainAttribution("<br/>  <span></span>"))
  }
}
