import XCTest

final class MapMathTestsPlaceholder: XCTestCase {}
