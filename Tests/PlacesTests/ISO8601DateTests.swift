import Foundation
import Places
import TestSupport
import XCTest

final class ISO8601DateTests: XCTestCase {
  private func date(_ text: String) -> Date? { ISO8601Date.parse(text)?.date }

  func testUTCWithAndWithoutFraction() {
    XCTAssertEqual(date("2026-11-29T10:00:00Z"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-29T10:00:00.250Z"), utc(2026, 11, 29, 10, 0, 0.25))
    XCTAssertEqual(date("2026-11-29t10:00:00z"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-29 10:00:00Z"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-29T10:00Z"), utc(2026, 11, 29, 10))
  }

  /// Found by the locations fuzzer (Fuzz/Regressions/locations/2a890cbb3d52): seven fractional digits were
  /// read whole but written to the microsecond, so the place read back from what mymap wrote differed.
  func testFractionsAreKeptToTheMicrosecondSoWhatIsWrittenReadsBackTheSame() throws {
    let parsed = try XCTUnwrap(ISO8601Date.parse("2026-05-16T17:05:12.2547098Z")).date
    XCTAssertEqual(ISO8601Date.format(parsed), "2026-05-16T17:05:12.25471Z")
    XCTAssertEqual(ISO8601Date.parse(ISO8601Date.format(parsed))?.date, parsed)
    XCTAssertEqual(
      ISO8601Date.parse("2026-05-16T17:05:59.9999996Z")?.date, ISO8601Date.parse("2026-05-16T17:06Z")?.date)
    let fuzzed = try Data(
      contentsOf: RepositoryPaths.root.appendingPathComponent("Fuzz/Regressions/locations/2a890cbb3d52"))
    let set = try LocationsFile.read(data: fuzzed, name: "places.txt")
    let again = try LocationsFile.read(
      data: LocationsFile.encode(set), name: "again.json", format: .mymapJSON)
    XCTAssertEqual(again.locations, set.locations)
  }

  func testOffsets() {
    XCTAssertEqual(date("2026-11-29T11:00:00+01:00"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-29T11:00:00+0100"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-29T11:00:00+01"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-29T02:00:00-08:00"), utc(2026, 11, 29, 10))
    XCTAssertEqual(date("2026-11-30T00:30:00.5+14:30"), utc(2026, 11, 29, 10, 0, 0.5))
  }

  func testPlainDateIsMidnightUTC() {
    XCTAssertEqual(ISO8601Date.parse("2026-11-29"), .init(date: utc(2026, 11, 29), hasTimeZone: true))
  }

  func testNoTimeZoneIsUTCAndSaysSo() {
    XCTAssertEqual(
      ISO8601Date.parse("2026-11-29T10:00:00"), .init(date: utc(2026, 11, 29, 10), hasTimeZone: false))
  }

  func testLeapDays() {
    XCTAssertEqual(date("2024-02-29"), utc(2024, 2, 29))
    XCTAssertEqual(date("2000-02-29"), utc(2000, 2, 29))
    XCTAssertNil(date("2026-02-29"))
    XCTAssertNil(date("1900-02-29"))
  }

  func testRejectsWhatIsNotADate() {
    for text in [
      "", "29/11/2026", "2026-13-01", "2026-11-31", "2026-11-29T24:00:00Z", "2026-11-29T10:60Z",
      "2026-11-29T10:00:61Z", "2026-11-29T10", "2026-11-29T10:00:00.Z", "2026-11-29Z",
      "2026-11-29T10:00:00+1",
      "2026-11-29T10:00:00Zjunk", "26-11-29", "2026-1-29", "yesterday",
    ] {
      XCTAssertNil(ISO8601Date.parse(text), text)
    }
  }

  func testFormat() {
    XCTAssertEqual(ISO8601Date.format(utc(2026, 11, 29, 10)), "2026-11-29T10:00:00Z")
    XCTAssertEqual(ISO8601Date.format(utc(2026, 11, 29, 10, 0, 0.25)), "2026-11-29T10:00:00.25Z")
    XCTAssertEqual(ISO8601Date.format(utc(1969, 12, 31, 23, 59, 59.5)), "1969-12-31T23:59:59.5Z")
    XCTAssertEqual(ISO8601Date.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
  }

  /// Writing a date never traps, whatever it holds: a date from a damaged store is written as the nearest
  /// date the format can hold.
  func testFormatIsTotal() {
    XCTAssertEqual(ISO8601Date.format(Date(timeIntervalSince1970: 1e308)), "9999-12-31T23:59:59Z")
    XCTAssertEqual(ISO8601Date.format(Date(timeIntervalSince1970: -1e308)), "-9999-01-01T00:00:00Z")
    XCTAssertEqual(ISO8601Date.format(Date(timeIntervalSince1970: .infinity)), "9999-12-31T23:59:59Z")
    XCTAssertEqual(ISO8601Date.format(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00Z")
    XCTAssertEqual(ISO8601Date.format(date("0000-01-01T00:00:00+01:00")!), "-0001-12-31T23:00:00Z")
    XCTAssertTrue(ISO8601Date.isRepresentable(date("9999-12-31T23:59:59Z")!))
    XCTAssertFalse(ISO8601Date.isRepresentable(Date(timeIntervalSince1970: 1e308)))
  }

  func testFormatThenParseIsExactToTheMicrosecond() {
    for text in ["2026-05-16T17:05:12.123456Z", "2026-05-16T17:05:12.001Z", "1999-12-31T23:59:59.999999Z"] {
      let parsed = date(text)!
      XCTAssertEqual(ISO8601Date.format(parsed), text)
      XCTAssertEqual(date(ISO8601Date.format(parsed)), parsed)
    }
  }
}
