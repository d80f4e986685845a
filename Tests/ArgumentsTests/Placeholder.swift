import XCTest

final class ArgumentsTestsPlaceholder: XCTestCase {}
