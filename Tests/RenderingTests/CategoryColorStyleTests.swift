import Foundation
import XCTest

@testable import Rendering

/// `pin.categoryColors` in style files: read case-insensitively, validated with messages that say what is
/// wrong, and the shipped `categories` style colours every category of the app.
final class CategoryColorStyleTests: XCTestCase {
  private func style(_ json: String) throws -> Style {
    try Style(json: Data(json.utf8), path: "cats.json")
  }

  private func message(_ json: String) -> String? {
    do {
      _ = try style(json)
      return nil
    } catch {
      return "\(error)"
    }
  }

  func testColoursAreReadAndLookedUpWithoutCase() throws {
    let loaded = try style(
      ##"{"pin": {"color": "#112233", "categoryColors": {"Bar": "#E4572E", "Historic Building": [0, 0.5, 1]}}}"##
    )
    XCTAssertEqual(loaded.pin.color(forCategory: "bar").description, "#E4572E")
    XCTAssertEqual(loaded.pin.color(forCategory: "BAR").description, "#E4572E")
    XCTAssertEqual(loaded.pin.color(forCategory: "historic building").description, "#0080FF")
    XCTAssertEqual(loaded.pin.color(forCategory: "Park").description, "#112233", "unlisted: the pin colour")
    XCTAssertEqual(loaded.pin.color(forCategory: nil).description, "#112233")
  }

  func testACategoryNameWithADotStaysWhole() throws {
    let loaded = try style(##"{"pin": {"categoryColors": {"St. Mary's": "#000000"}}}"##)
    XCTAssertEqual(Array(loaded.pin.categoryColors.keys), ["st. mary's"])
  }

  func testTheDefaultStyleColoursNoCategory() {
    XCTAssertTrue(Style.standard.pin.categoryColors.isEmpty)
    XCTAssertEqual(Style.standard.pin.color(forCategory: "Bar"), Style.standard.pin.color)
  }

  func testBadValuesAreClearErrors() {
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": ["#FF0000"]}}"##),
      ##"style cats.json: field "pin.categoryColors" must be an object mapping category names to colours"##)
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": {"Bar": "red"}}}"##),
      ##"style cats.json: field "pin.categoryColors" must be an object of colours like "#52D166" or [0.32, 0.82, 0.4] (that of "Bar" is not one)"##
    )
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": {"Park": {"color": "#00FF00"}}}}"##),
      ##"style cats.json: field "pin.categoryColors" must be an object of colours like "#52D166" or [0.32, 0.82, 0.4] (that of "Park" is not one)"##
    )
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": {"Bar": "#FF0000", "BAR": "#00FF00"}}}"##),
      ##"style cats.json: field "pin.categoryColors" must be keyed by each category once, in any case ("BAR" is there twice)"##
    )
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": {"": "#FF0000"}}}"##),
      ##"style cats.json: field "pin.categoryColors" must be keyed by category names (one is empty)"##)
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": {"Bar": [2, 0, 0]}}}"##)?.contains(
        "(that of \"Bar\" is not one)"), true)
  }

  func testAHostileNameIsQuotedShortAndTooManyCategoriesAreRefused() throws {
    let long = String(repeating: "x", count: 5000) + "\n"
    let text = try XCTUnwrap(
      message(##"{"pin": {"categoryColors": {"\##(long.replacingOccurrences(of: "\n", with: "\\n"))": 1}}}"##)
    )
    XCTAssertLessThan(text.count, 300, "a 5000-character name is not repeated whole")
    XCTAssertFalse(text.contains("\n"))
    let many = (0...Style.maximumCategoryColors).map { ##""c\##($0)": "#000000""## }.joined(separator: ", ")
    XCTAssertEqual(
      message(##"{"pin": {"categoryColors": {\##(many)}}}"##),
      ##"style cats.json: field "pin.categoryColors" must be at most 256 categories (it has 257)"##)
  }

  func testTheCategoriesStyleColoursEveryCategoryOfTheAppDistinctly() throws {
    let url = RenderKit.root.appendingPathComponent("Styles/categories.json")
    let loaded = try Style.load(contentsOf: url)
    XCTAssertEqual(loaded.name, "categories")
    let categories = [
      "No Category", "Apple Store", "Bar", "Bookstore", "Club", "Grocery Store", "Historic Building", "House",
      "Icecream Vendor", "Landmark", "Park",
    ]
    XCTAssertEqual(Set(loaded.pin.categoryColors.keys), Set(categories.map { $0.lowercased() }))
    let colors = categories.map { loaded.pin.color(forCategory: $0) }
    XCTAssertEqual(Set(colors).count, categories.count, "every category has its own colour")
    // Everything else is the default look.
    var rest = loaded
    rest.name = Style.standard.name
    rest.pin.categoryColors = [:]
    XCTAssertEqual(rest, Style.standard)
  }
}
