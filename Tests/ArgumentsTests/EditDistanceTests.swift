import XCTest

@testable import Arguments

final class EditDistanceTests: XCTestCase {
  func testDistances() {
    XCTAssertEqual(editDistance("", ""), 0)
    XCTAssertEqual(editDistance("", "abc"), 3)
    XCTAssertEqual(editDistance("abc", ""), 3)
    XCTAssertEqual(editDistance("render", "render"), 0)
    XCTAssertEqual(editDistance("rendr", "render"), 1)
    XCTAssertEqual(editDistance("kitten", "sitting"), 3)
    XCTAssertEqual(editDistance("qiuet", "quiet"), 1, "an adjacent transposition is one edit")
    XCTAssertEqual(editDistance("ca", "abc"), 3)
  }

  func testDistanceIsSymmetric() {
    for (a, b) in [("category", "categories"), ("zoom", "size"), ("tiles", "titles")] {
      XCTAssertEqual(editDistance(a, b), editDistance(b, a), "\(a) / \(b)")
    }
  }

  func testClosestMatch() {
    let names = ["out", "size", "scale", "category", "zoom", "quiet"]
    XCTAssertEqual(closestMatch(to: "categry", among: names), "category")
    XCTAssertEqual(closestMatch(to: "categories", among: names), "category")
    XCTAssertEqual(closestMatch(to: "ot", among: names), "out")
    XCTAssertEqual(closestMatch(to: "cat", among: names), "category", "a unique prefix")
    XCTAssertNil(closestMatch(to: "verbose", among: names))
    XCTAssertNil(closestMatch(to: "x", among: names))
  }

  func testAmbiguousPrefixFallsBackToDistance() {
    XCTAssertEqual(closestMatch(to: "sc", among: ["size", "scale", "scheme"]), nil)
    XCTAssertEqual(closestMatch(to: "scal", among: ["size", "scale", "scales"]), "scale")
  }

  func testTiesGoToTheEarlierCandidate() {
    XCTAssertEqual(closestMatch(to: "bat", among: ["cat", "bag"]), "cat")
    XCTAssertEqual(closestMatch(to: "bat", among: ["bag", "cat"]), "bag")
  }
}
