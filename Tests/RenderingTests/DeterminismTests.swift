import Foundation
import MapMath
import XCTest

@testable import Rendering

/// The same request gives the same bytes, in every format.
final class DeterminismTests: XCTestCase {
  private func request(_ format: OutputFormat) throws -> RenderRequest { try Self.request(format) }

  private static func request(_ format: OutputFormat) throws -> RenderRequest {
    var request = RenderKit.request(
      [
        RenderKit.place("louvre", 48.8606, 2.3376, title: "Louvre", subtitle: "Landmark"),
        RenderKit.place("eiffel", 48.8584, 2.2945, title: "Tour Eiffel", subtitle: nil),
        RenderKit.place("sacre", 48.8867, 2.3431, title: "Sacré-Cœur", subtitle: "Historic Building"),
      ],
      user: UserPosition(coordinate: Coordinate(latitude: 48.87, longitude: 2.32), accuracy: 300), width: 240,
      height: 180, scale: 2, format: format)
    request.tiles = try RenderKit.fixtureTiles()
    return request
  }

  func testEveryFormatGivesTheSameBytesTwice() throws {
    for format in OutputFormat.allCases {
      let first = try Snapshotter.render(request(format))
      let second = try Snapshotter.render(request(format))
      XCTAssertFalse(first.data.isEmpty)
      XCTAssertEqual(first.data, second.data, "\(format)")
      XCTAssertEqual(first.layout, second.layout, "\(format)")
      XCTAssertEqual(first.layout.json, second.layout.json, "\(format)")
      XCTAssertEqual(first.warnings, second.warnings, "\(format)")
    }
  }

  func testConcurrentRendersGiveTheSameBytes() throws {
    let expected = try Snapshotter.render(request(.png)).data
    let count = 4
    let results = ResultBox(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in
      // Each thread makes its own request (a request holds non-Sendable annotations and a tile source).
      results.set(index, (try? Snapshotter.render(DeterminismTests.request(.png)))?.data)
    }
    for index in 0..<count {
      XCTAssertEqual(results.get(index), expected, "render \(index)")
    }
  }

  func testThePDFHasAFixedCreationDateAndNoOtherTime() throws {
    let data = try Snapshotter.render(request(.pdf)).data
    let text = String(decoding: data, as: UTF8.self)
    // Cairo 1.16 writes the date without the optional "D:" prefix; later versions with it.
    let created = try XCTUnwrap(
      text.firstMatch(of: /\/CreationDate \((?:D:)?([0-9]+)Z?\)/), "a creation date")
    XCTAssertEqual(String(created.output.1), "20000101000000", "the fixed creation date")
    XCTAssertFalse(text.contains("/ModDate"), "no modification date")
    // No other time stamp: every run of 14 digits that reads as a date is the fixed one.
    let stamps = text.matches(of: /(?:^|[^0-9])((?:19|20)[0-9]{12})(?:[^0-9]|$)/).map { String($0.output.1) }
    XCTAssertEqual(Set(stamps), ["20000101000000"])
    // Nor today's date in any common spelling.
    let now = Date()
    for format in ["yyyyMMdd", "yyyy-MM-dd"] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = format
      XCTAssertFalse(text.contains(formatter.string(from: now)), "today's date (\(format)) is in the PDF")
    }
    XCTAssertTrue(text.contains("/Creator (mymap)"), "the creator")
  }

  func testPNGHasNoTimeChunk() throws {
    let data = try Snapshotter.render(request(.png)).data
    var chunks: [String] = []
    var offset = 8
    while offset + 8 <= data.count {
      let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      chunks.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
      offset += 12 + length
    }
    XCTAssertEqual(chunks.first, "IHDR")
    XCTAssertEqual(chunks.last, "IEND")
    XCTAssertFalse(chunks.contains("tIME"), "\(chunks)")
  }
}

/// Results written from several threads.
private final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [[UInt8]?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: [UInt8]?) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }

  func get(_ index: Int) -> [UInt8]? {
    lock.lock()
    defer { lock.unlock() }
    return values[index]
  }
}
