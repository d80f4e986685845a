import TestSupport
import Tiles
import XCTest

/// Directory decoding (spec §4.2–4.3): the layout, the offset rule, and every way a directory can lie.
final class PMTilesDirectoryTests: XCTestCase {
  private let entries = [
    PMTilesEntry(tileID: 0, offset: 0, length: 10, runLength: 1),
    PMTilesEntry(tileID: 1, offset: 10, length: 5, runLength: 3),
    PMTilesEntry(tileID: 4, offset: 0, length: 10, runLength: 1),  // a duplicate of tile 0
    PMTilesEntry(tileID: 9, offset: 20, length: 30, runLength: 0),  // a leaf
    PMTilesEntry(tileID: 5000, offset: 15, length: 1, runLength: 1),
  ]

  func testEntriesRoundTripThroughTheLayout() throws {
    let decoded = try decode(PMTilesArchiveBuilder.directory(entries))
    XCTAssertEqual(decoded.entries, entries)
    // Offsets: 0+1, 0 (follows 0+10), 0+1, 20+1, 15+1.
    XCTAssertEqual(PMTilesArchiveBuilder.directory(entries).suffix(5), [1, 0, 1, 21, 16])
  }

  func testLookupFindsRunsAndLeavesAndNothingElse() throws {
    let directory = try decode(PMTilesArchiveBuilder.directory(entries))
    XCTAssertEqual(directory.entry(for: 0), entries[0])
    XCTAssertEqual(directory.entry(for: 3), entries[1], "inside the run 1…3")
    XCTAssertEqual(directory.entry(for: 4), entries[2])
    XCTAssertNil(directory.entry(for: 5), "between the run and the leaf")
    XCTAssertEqual(directory.entry(for: 4999), entries[3], "a leaf covers up to the next entry")
    XCTAssertEqual(directory.entry(for: 5000), entries[4])
    XCTAssertNil(directory.entry(for: 5001))
  }

  func testEveryTruncationIsRefused() throws {
    let bytes = PMTilesArchiveBuilder.directory(entries)
    for length in 0..<bytes.count {
      XCTAssertThrowsError(try decode(Array(bytes[..<length])), "cut at \(length)") {
        guard let problem = $0 as? PMTilesDirectoryProblem else { return XCTFail("\($0)") }
        XCTAssertTrue([.truncated, .empty].contains(problem), "cut at \(length): \(problem)")
      }
    }
  }

  func testLyingDirectoriesAreRefused() {
    let tile = { (id: UInt64, offset: UInt64) in
      PMTilesEntry(tileID: id, offset: offset, length: 10, runLength: 1)
    }
    assertProblem([0], .empty)
    assertProblem([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], .tooManyEntries(.max))
    assertProblem([0x80, 0x80, 0x40], .tooManyEntries(1 << 20))
    assertProblem([100, 1, 1, 1, 1], .truncated, "a count the bytes cannot hold")
    assertProblem([1] + [UInt8](repeating: 0xFF, count: 10) + [1, 1, 1], .malformedVarint)
    assertProblem(PMTilesArchiveBuilder.directory([tile(5, 0), tile(5, 10)]), .outOfOrder(entry: 1))
    let overlapping = [PMTilesEntry(tileID: 5, offset: 0, length: 10, runLength: 3), tile(7, 10)]
    assertProblem(PMTilesArchiveBuilder.directory(overlapping), .outOfOrder(entry: 1))
    assertProblem([1, 0, 1, 0, 1], .badLength(entry: 0), "length 0")
    assertProblem([1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 1], .badLength(entry: 0), "a run past 32 bits")
    assertProblem([1, 0, 1, 1, 0], .missingOffset)
    assertProblem(PMTilesArchiveBuilder.directory([tile(0, 995)]), .outOfBounds(entry: 0))
    let leaf = PMTilesEntry(tileID: 0, offset: 60, length: 50, runLength: 0)
    assertProblem(
      PMTilesArchiveBuilder.directory([leaf]), .outOfBounds(entry: 0), "leaves fit their own section")
    assertProblem(PMTilesArchiveBuilder.directory([tile(0, 0)]) + [0], .trailingBytes)
  }

  private func decode(_ bytes: [UInt8]) throws -> PMTilesDirectory {
    try PMTilesDirectory(decoding: bytes, tileDataLength: 1000, leafDirectoriesLength: 100)
  }

  private func assertProblem(
    _ bytes: [UInt8], _ problem: PMTilesDirectoryProblem, _ message: String = "", line: UInt = #line
  ) {
    XCTAssertThrowsError(try decode(bytes), message, line: line) {
      XCTAssertEqual($0 as? PMTilesDirectoryProblem, problem, message, line: line)
    }
  }
}
