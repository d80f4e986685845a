import XCTest

final class RenderingTestsPlaceholder: XCTestCase {}
