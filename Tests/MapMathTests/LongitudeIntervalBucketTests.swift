import TestSupport
import XCTest

@testable import MapMath

/// Many longitudes (a million stored places) find their interval without a sort, with the same answer as
/// the sorted way.
final class LongitudeIntervalBucketTests: XCTestCase {
  func testBucketsGiveTheSortedAnswer() {
    var random = SeededGenerator(seed: 31)
    var cases: [[Double]] = [[0], [180], [-180, 180], [179.9, -179.9, 10], Array(repeating: 42, count: 50)]
    for _ in 0..<300 {
      let count = Int.random(in: 1...3000, using: &random)
      let clumps = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        (Double.random(in: -180...180, using: &random), Double.random(in: 0...40, using: &random))
      }
      cases.append(
        (0..<count).map { _ in
          let (centre, spread) = clumps[Int.random(in: 0..<clumps.count, using: &random)]
          // Whole hundredths, so that ties between gaps happen.
          let value = centre + Double.random(in: -spread...spread, using: &random)
          return ((value * 100).rounded() / 100).clamped(to: -180...180)
        })
    }
    for longitudes in cases {
      XCTAssertEqual(
        LongitudeInterval.bucketedEnclosing(longitudes), LongitudeInterval.sortedEnclosing(longitudes),
        "\(longitudes.count) longitudes")
    }
    XCTAssertNil(LongitudeInterval.bucketedEnclosing([]))
    // Numbers that are not numbers have no place in the interval (and crash nothing).
    let valid: [Double] = (0..<5000).map { Double($0 % 100) - 50 }
    XCTAssertEqual(
      LongitudeInterval.bucketedEnclosing(valid + [.nan, .infinity, -.infinity]),
      LongitudeInterval.sortedEnclosing(valid))
    XCTAssertNil(LongitudeInterval.bucketedEnclosing([.nan, .nan]))
    // More longitudes than buckets: clumped (the widest gap is found between buckets), and spread evenly
    // round the whole circle (no gap a bucket wide: the sorted way decides).
    let clumped: [Double] = (0..<100_000).map { index -> Double in
      let offset = Double(index % 997) / 100
      return offset + Double(index % 3) * 90
    }
    let even: [Double] = (0..<100_000).map { index -> Double in -180 + Double(index) * 0.0036 }
    for longitudes in [clumped, even] {
      XCTAssertEqual(
        LongitudeInterval.bucketedEnclosing(longitudes), LongitudeInterval.sortedEnclosing(longitudes))
    }
  }
}

extension Double {
  fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
