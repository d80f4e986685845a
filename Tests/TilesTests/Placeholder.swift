import XCTest

final class TilesTestsPlaceholder: XCTestCase {}
