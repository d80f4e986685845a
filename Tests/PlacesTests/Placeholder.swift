import XCTest

final class PlacesTestsPlaceholder: XCTestCase {}
