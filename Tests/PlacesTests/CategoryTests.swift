import Places
import XCTest

final class CategoryTests: XCTestCase {
  func testNamesAreTheAppsInItsOrder() {
    XCTAssertEqual(
      Category.names,
      [
        "No Category", "Apple Store", "Bar", "Bookstore", "Club", "Grocery Store", "Historic Building",
        "House",
        "Icecream Vendor", "Landmark", "Park",
      ])
  }

  func testDefaultIsNoCategory() {
    XCTAssertEqual(Category.default.name, "No Category")
    XCTAssertEqual(Location(latitude: 1, longitude: 2).category, "No Category")
  }

  func testKnownNamesMatchExactly() {
    XCTAssertTrue(Category.isKnown("Icecream Vendor"))
    XCTAssertTrue(Category.isKnown("No Category"))
    XCTAssertFalse(Category.isKnown("Cafe"))
    XCTAssertFalse(Category.isKnown("bar"))
    XCTAssertFalse(Category.isKnown(""))
  }

  func testUnknownCategoryIsKeptOnTheLocation() {
    let cafe = Location(latitude: 48.2104, longitude: 16.3655, category: "Cafe")
    XCTAssertEqual(cafe.category, "Cafe")
    XCTAssertEqual(cafe.subtitle, "Cafe")
    XCTAssertFalse(cafe.hasKnownCategory)
    XCTAssertTrue(Location(latitude: 0, longitude: 0, category: "Park").hasKnownCategory)
  }
}
