import Foundation
import XCTest

@testable import Places

/// `FixedPointText` writes what printf's `%.Nf` writes, byte for byte.
final class FixedPointTextTests: XCTestCase {
  private func assertSameAsPrintf(
    _ values: [Double], digits: Int = 8, file: StaticString = #filePath, line: UInt = #line
  ) {
    var differing: [String] = []
    for value in values {
      let expected = String(format: "%.\(digits)f", value)
      let written = FixedPointText.string(value, digits: digits)
      if written != expected { differing.append("\(value.debugDescription): \(written) ≠ \(expected)") }
    }
    XCTAssertEqual(
      differing.prefix(5), [], "\(differing.count) of \(values.count) differ", file: file, line: line)
  }

  func testCoordinatesAsTheSeedShowsThem() {
    XCTAssertEqual(FixedPointText.string(37.3349, digits: 8), "37.33490000")
    XCTAssertEqual(FixedPointText.string(-122.009, digits: 8), "-122.00900000")
    XCTAssertEqual(FixedPointText.string(0, digits: 8), "0.00000000")
    XCTAssertEqual(FixedPointText.string(-0.0, digits: 8), "-0.00000000")
    XCTAssertEqual(FixedPointText.string(2.5, digits: 0), "2")
    XCTAssertEqual(FixedPointText.string(3.5, digits: 0), "4")
  }

  /// Exact halves of the last digit round to the even digit, as printf rounds them.
  func testHalfwayValuesRoundToEven() {
    // 1/512 × 10^8 = 195312.5: halfway, the even neighbour is 195312.
    XCTAssertEqual(FixedPointText.string(1.0 / 512, digits: 8), "0.00195312")
    XCTAssertEqual(FixedPointText.string(3.0 / 512, digits: 8), "0.00585938")
    let halves = (0..<4096).map { Double($0) / 512 } + (0..<4096).map { -Double($0) / 1024 }
    for digits in 0...9 { assertSameAsPrintf(halves, digits: digits) }
  }

  func testRandomCoordinatesAndMagnitudes() {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = []
    for _ in 0..<20_000 { values.append(Double.random(in: -180...180, using: &generator)) }
    for _ in 0..<5_000 {
      let exponent = Int.random(in: -1074...52, using: &generator)
      let value = Double(
        sign: Bool.random() ? .minus : .plus, exponent: exponent, significand: Double.random(in: 1..<2))
      values.append(value)
    }
    for digits in [0, 1, 5, 8, 9] { assertSameAsPrintf(values, digits: digits) }
  }

  func testEdgesAndWhatFallsBackToPrintf() {
    let values: [Double] = [
      .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 0x1p53 - 1, 0x1p53, -0x1p60,
      .greatestFiniteMagnitude, 0.999_999_995, 0.999_999_994_999, 9.999_999_999_5, 1e-8, 5e-9, 4.9e-9,
      89.999_999_999, -179.999_999_995,
    ]
    assertSameAsPrintf(values)
    XCTAssertEqual(FixedPointText.string(.infinity, digits: 8), String(format: "%.8f", Double.infinity))
    XCTAssertEqual(FixedPointText.string(.nan, digits: 2), String(format: "%.2f", Double.nan))
  }
}
